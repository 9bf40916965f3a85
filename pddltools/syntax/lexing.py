"""A fast lexer for Lark LALR grammars, built from the grammar's own terminal definitions.

Lark's standard lexer counts lines and columns for every token and tries terminals one by one; on
planning files that is most of the parse time. `GrammarLexer` keeps the grammar as the single source
of truth — it reads the terminals and `%ignore` patterns Lark compiled from the `.lark` file — but
joins them into one compiled regular expression scanned with `finditer`, and records only offsets
(`start_pos`, `end_pos`): lines and columns are computed from a `Source` only when someone asks.

String terminals that a regular-expression terminal also matches (``"and"`` and ``NAME``) become
keywords: the regular expression matches, and a dictionary look-up renames the token, as Lark does.

Fast paths: a grammar may `%declare` a terminal that stands for a run of simple constructs (a list of
ground atoms, say). A subclass maps such terminals to scanner functions in `fast_paths`; at each
token of kind `fast_trigger` the lexer asks the LALR parser whether that terminal is acceptable in its
current state, and only then lets the scanner consume a stretch of text and return its value ready
made. The grammar decides where a fast path may apply; a test proves that the two paths agree.

Usage: subclass, set `lowercase` / `fast_paths` / `fast_trigger` as needed, pass the class to
``Lark(..., parser="lalr", lexer=MyLexer.for_lark())`` and call `MyLexer.source.set(src)` (a context variable)
before parsing when scanners need the `Source`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass

from pddltools.diagnostics import Source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Self

    from lark.lexer import LexerState, Token

#: A scanner gets the (possibly lower-cased) text, an offset where the trigger token starts and the
#: source; it returns the token value and the offset after what it consumed, or None to decline.
Scanner = Callable[[str, int, Source], "tuple[object, int] | None"]

ERROR = "__UNEXPECTED_CHARACTER"

#: How a case-insensitive grammar matches: ASCII letters only. Under Unicode rules `[a-z]` with
#: IGNORECASE also matches U+0130 (capital I with a dot), U+0131 (dotless i), U+017F (long s) and the
#: Kelvin sign, whose lower case is not the ASCII letter they matched (U+0130 lowers to `i` and a
#: combining dot): a name lowered once would not lex again.
CASELESS = re.IGNORECASE | re.ASCII


class LazyPattern:
    """A regular expression compiled when first used (start-up: `re.compile` is written in Python, and a
    fresh process would otherwise compile patterns it never runs): the joined terminals, which the
    compiled loop needs only for a grammar beyond an automaton; the fast paths' rarer scanners."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self._flags = pattern, flags

    @property
    def compiled(self) -> re.Pattern[str]:
        found = self.__dict__.get("_compiled")
        if found is None:
            found = self.__dict__["_compiled"] = re.compile(self.pattern, self._flags)
        return found

    def __getattr__(self, name: str) -> Any:  # flags, groupindex, groups, match, finditer, ...
        return getattr(self.compiled, name)


def lazy_pattern(pattern: str, flags: int) -> re.Pattern[str]:
    """A `LazyPattern`, where a compiled pattern is expected: it answers every attribute of one."""
    lazy: Any = LazyPattern(pattern, flags)
    stands_for: re.Pattern[str] = lazy
    return stands_for


class UnexpectedCharacter(Exception):
    """A character no terminal of the grammar can start with."""

    def __init__(self, pos: int, char: str) -> None:
        super().__init__(f"unexpected character {char!r} at offset {pos}")
        self.pos = pos
        self.char = char


@dataclass(frozen=True)
class TokenPattern:
    """The grammar's terminals joined for scanning: `pattern`, one regular expression with a named
    group per terminal; `alternatives`, the same terminals as (name, regular expression), earliest
    first, with None for the name of ignored text (what `dfa.build` reads); `ignore`, the ignored
    terminals; `keywords`, per regular-expression terminal the string terminals it also matches."""

    pattern: re.Pattern[str]
    alternatives: tuple[tuple[str | None, str], ...]
    ignore: frozenset[str]
    keywords: dict[str, dict[str, str]]
    #: the ignored terminals' regular expressions, in the order the pattern tries them (see `trivia`)
    ignored: tuple[str, ...] = ()


def compile_terminals(terminals: list[Any], ignore: set[str], flags: int, lowercase: bool) -> TokenPattern:
    """One regular expression with a named group per terminal, the ignored terminals, and the keywords.

    Keywords are string terminals that a regular-expression terminal also matches (``"and"`` and
    NAME): the regular expression matches and `keywords[NAME]["and"]` renames the token. Ignored text
    (white space, comments) is not matched on its own but as an atomic prefix of the next token, so
    that a scan visits only real tokens.
    """
    # Lark's terminals, or an image's (`image.Terminal`): a pattern's `type` is "re" or "str"
    regex_terminals = [t for t in terminals if t.pattern.type == "re"]
    compiled = {t.name: re.compile(t.pattern.to_regexp(), flags) for t in regex_terminals}
    keywords: dict[str, dict[str, str]] = {}
    literals: list[Any] = []
    for terminal in terminals:
        if terminal.pattern.type != "str":
            continue
        value = terminal.pattern.value
        owner = next((name for name, rx in compiled.items() if name not in ignore and rx.fullmatch(value)), None)
        if owner is None:
            literals.append(terminal)
        else:
            keywords.setdefault(owner, {})[value.lower() if lowercase else value] = terminal.name
    # Same order as Lark's own scanner: priority first, then longer literals before their prefixes.
    ordered = sorted(regex_terminals, key=lambda t: -t.priority)
    ordered += sorted(literals, key=lambda t: (-t.priority, -len(t.pattern.value)))
    ignored = [t for t in ordered if t.name in ignore]
    tokens = [t for t in ordered if t.name not in ignore]
    alternatives = [f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in tokens]
    # The end of the text (after trailing comments) matches the error group with an empty string;
    # otherwise a scan would search on inside the trailing comment.
    alternatives.append(f"(?P<{ERROR}>.|\\Z)")
    prefix = "|".join(f"(?:{t.pattern.to_regexp()})" for t in ignored)
    pattern = f"(?>(?:{prefix})*)(?:{'|'.join(alternatives)})"
    return TokenPattern(re.compile(pattern, flags | re.DOTALL),
                        tuple([(None, t.pattern.to_regexp()) for t in ignored]
                              + [(t.name, t.pattern.to_regexp()) for t in tokens]),
                        frozenset(ignore), keywords, tuple(t.pattern.to_regexp() for t in ignored))


def lark_terminals(lark: Any, lowercase: bool) -> TokenPattern:
    """`compile_terminals` over the terminals a Lark parser was built with, as its lexer compiles them."""
    conf = lark.lexer_conf
    flags = conf.g_regex_flags | (CASELESS if lowercase else 0)
    return compile_terminals(list(conf.terminals), set(conf.ignore), flags, lowercase)


class NestingTooDeep(Exception):
    """The parser's stack grew past `max_stack`: formulas nested deeper than any tool can use."""

    def __init__(self, pos: int) -> None:
        super().__init__(f"nesting too deep at offset {pos}")
        self.pos = pos


class GrammarLexer:
    """The lexer Lark's own parse loop is given (`lexer=cls.for_lark()`): the driver's tokens, as Lark's."""

    __future_interface__ = 1  # lex(lexer_state, parser_state), so fast paths can see the parser
    lowercase: ClassVar[bool] = False
    fast_paths: ClassVar[dict[str, Scanner]] = {}
    fast_trigger: ClassVar[str] = ""
    #: Deeper nesting than this (in parser stack entries) is refused at the trigger token: it would
    #: only overflow the recursion of whatever consumes the tree (printing, comparing, hashing).
    max_stack: ClassVar[int] = 0
    source: ClassVar[ContextVar[Source]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.source = ContextVar(f"{cls.__name__}.source")

    @classmethod
    def for_lark(cls) -> type[Self]:
        """The class, made known to Lark as one of its lexers (Lark asks `issubclass(cls, Lexer)`): this
        module does not import Lark, which only the parsers that run Lark's own loop need."""
        from lark.lexer import Lexer

        Lexer.register(GrammarLexer)
        return cls

    def __init__(self, lexer_conf: Any) -> None:
        flags = lexer_conf.g_regex_flags | (CASELESS if self.lowercase else 0)
        compiled = compile_terminals(list(lexer_conf.terminals), set(lexer_conf.ignore), flags, self.lowercase)
        self.pattern, self.ignore, self.keywords = compiled.pattern, compiled.ignore, compiled.keywords
        self.terminal_names = {t.name for t in lexer_conf.terminals}

    def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
        from lark.lexer import Token

        raw = lexer_state.text
        text: str = raw if isinstance(raw, str) else raw.text  # Lark >= 1.2 wraps the text in a TextSlice
        fast_paths = self.fast_paths
        checked = bool(self.fast_trigger) and parser_state is not None
        states = parser_state.parse_conf.states if checked else None
        state_stack = parser_state.state_stack if checked else None
        max_stack = self.max_stack or 1 << 62
        source = self.source.get(None) if fast_paths else None

        def fast(begin: int) -> tuple[str, object, int] | None:
            assert states is not None and state_stack is not None and source is not None
            if len(state_stack) > max_stack:
                raise NestingTooDeep(begin)
            return try_fast_paths(fast_paths, lambda stack, name: name in states[stack[-1]]
                                  and _accepts(states, stack, name), state_stack, text, begin, source)

        for kind, value, begin, end in tokens(self.pattern, self.keywords, text, self.lowercase,
                                              self.fast_trigger if checked else "", fast):
            if kind in fast_paths:
                # Its text is the terminal's name, not "": Lark's loop takes the end-of-file token's
                # position from the last token only when that token is truthy.
                token = Token(kind, kind, begin, None, None, None, None, end)
                token.value = value
                yield token
            else:
                yield Token(kind, value, begin, None, None, None, None, end)


def tokens(pattern: re.Pattern[str], keywords: dict[str, dict[str, str]], text: str, lowercase: bool,
           trigger: str, fast: Callable[[int], tuple[str, object, int] | None]
           ) -> Iterator[tuple[str, Any, int, int]]:
    """The tokens of `text` as (terminal, value, start, end), by a `compile_terminals`
    pattern: the one token loop of both parse loops (Lark's, through `GrammarLexer`, and
    `lalr.FastParser`'s). At each `trigger` token, `fast(start)` may return a fast path's token
    (terminal, value, end) instead, and the scan goes on after it. The parser must consume each token
    before the next is asked for: `fast` looks at its current state."""
    # Case-insensitive grammars match with re.IGNORECASE and lower each token, rather than lower a
    # copy of the whole text: that copy would be the largest allocation of a parse.
    lower_each = lowercase and not text.islower()  # islower scans without copying
    pos = 0
    while True:
        restart = -1
        for match in pattern.finditer(text, pos):
            kind = match.lastgroup
            assert kind is not None
            begin = match.start(kind)
            if kind == trigger:
                found = fast(begin)
                if found is not None:
                    name, value, restart = found
                    yield name, value, begin, restart
                    break
            elif kind == ERROR:
                if begin == len(text):
                    return
                raise UnexpectedCharacter(begin, match.group(kind))
            value = match.group(kind)
            if lower_each:
                value = value.lower()
            if kind in keywords:
                kind = keywords[kind].get(value, kind)
            yield kind, value, begin, match.end()
        if restart < 0:
            return
        pos = restart


@dataclass(frozen=True)
class Trivia:
    """What a formatter needs of a text besides its tree: `comments`, the (start, end) of each piece of
    ignored text that is not white space, and `tokens`, the (start, end) of every token, in order."""

    comments: list[tuple[int, int]]
    tokens: list[tuple[int, int]]


def trivia(pattern: TokenPattern, text: str) -> Trivia:
    """The comments and tokens of `text` by a `compile_terminals` pattern: the scan of `tokens`, without
    fast paths (which consume comments with what they read), each token's ignored prefix cut into the
    grammar's ignored terminals in the order the pattern tries them. Raises `UnexpectedCharacter`
    where `tokens` would."""
    pieces = [re.compile(rx, pattern.pattern.flags) for rx in pattern.ignored]
    comments: list[tuple[int, int]] = []
    # One pass of the pattern; only the ignored text that is not all white space is cut into pieces.
    matches = [(m.start(), m.start(m.lastgroup or ""), m.end(), m.lastgroup) for m in pattern.pattern.finditer(text)]
    for pos, begin, _, kind in matches:
        if pos < begin and not text[pos:begin].isspace():
            while pos < begin:
                for rx in pieces:
                    found = rx.match(text, pos, begin)
                    if found is not None and found.end() > pos:
                        if not found.group().isspace():
                            comments.append((pos, found.end()))
                        pos = found.end()
                        break
                else:  # pragma: no cover - the pattern's prefix is made of these same terminals
                    raise AssertionError(f"ignored text at {pos} matches no ignored terminal")
        if kind == ERROR and begin != len(text):
            raise UnexpectedCharacter(begin, text[begin])
    found_tokens = [(begin, end) for _, begin, end, kind in matches if kind != ERROR]
    return Trivia(comments, found_tokens)


def try_fast_paths(fast_paths: dict[str, Scanner], accepts: Callable[[list[Any], str], bool], stack: list[Any],
                   text: str, pos: int, source: Source) -> tuple[str, object, int] | None:
    """The first fast path that the parser would accept now and whose scanner takes the text at `pos`:
    (terminal, value, end), or None to go on token by token."""
    for name, scan in fast_paths.items():
        if accepts(stack, name):
            found = scan(text, pos, source)
            if found is not None:
                return name, found[0], found[1]
    return None


def _accepts(states: dict[Any, dict[str, Any]], stack: list[Any], terminal: str) -> bool:
    """Whether the LALR parser would shift `terminal` now, after the reductions it triggers.

    An LALR state may list a terminal as a reduce look-ahead that the merged state's other contexts
    need; only by playing the reductions on a copy of the state stack can the lexer be sure.
    """
    from lark.parsers.lalr_analysis import Shift

    action, arg = states[stack[-1]][terminal]
    if action is Shift:
        return True
    stack = list(stack)
    while True:
        size = len(arg.expansion)
        if size:
            del stack[-size:]
        stack.append(states[stack[-1]][arg.origin.name][1])
        entry = states[stack[-1]].get(terminal)
        if entry is None:
            return False
        action, arg = entry
        if action is Shift:
            return True
