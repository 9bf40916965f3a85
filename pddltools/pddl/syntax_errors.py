"""Syntax errors explained in a domain author's words.

Lark reports an unexpected token and the set of terminal names it would have accepted; this module
turns that into "expected a parameter list such as (?x - type) after :parameters, found 'x'", points
at unclosed or extra parentheses, and, where the file's parentheses balance, parses the remaining
top-level sections one by one so that every broken section is reported, not just the first.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Diagnostic, Source, Span, error
from pddltools.syntax.lalr import Tok, UnexpectedInput
from pddltools.syntax.lexing import NestingTooDeep, UnexpectedCharacter

if TYPE_CHECKING:
    from lark import Token

    from pddltools.pddl.parser import Parser

#: What a domain author expects to follow a keyword.
AFTER: dict[str, str] = {
    "define": "(domain NAME) or (problem NAME)",
    "domain": "the domain's name",
    "problem": "the problem's name",
    ":domain": "the name of the problem's domain",
    ":requirements": "requirement flags such as :strips or :typing",
    ":types": "type names, each group followed by '- supertype'",
    ":constants": "constant names, each group followed by '- type'",
    ":objects": "object names, each group followed by '- type'",
    ":predicates": "predicate declarations such as (at ?x - object ?y - location)",
    ":functions": "function declarations such as (fuel ?t - truck) - number",
    ":action": "the action's name",
    ":durative-action": "the action's name",
    ":process": "the process's name",
    ":event": "the event's name",
    ":parameters": "a parameter list such as (?x - type)",
    ":vars": "a variable list such as (?x - type)",
    ":precondition": "a precondition (a formula in parentheses)",
    ":effect": "an effect (in parentheses)",
    ":duration": "a duration constraint such as (= ?duration 5)",
    ":condition": "a condition such as (at start (p))",
    ":derived": "the derived predicate, such as (p ?x - type)",
    ":init": "initial facts such as (at truck1 depot) or (= (fuel truck1) 10)",
    ":goal": "a goal formula in parentheses",
    ":constraints": "a constraint formula in parentheses",
    ":metric": "minimize or maximize",
    "minimize": "an expression to minimize",
    "maximize": "an expression to maximize",
    "-": "a type name",
    "either": "type names",
    "at": "start, end, or a number",
    "over": "all",
    "not": "a formula in parentheses",
    "forall": "a variable list such as (?x - type)",
    "exists": "a variable list such as (?x - type)",
}

#: How terminals are described when no keyword context applies.
WORDS: dict[str, str] = {
    "LPAR": "'('",
    "RPAR": "')'",
    "NAME": "a name",
    "VARIABLE": "a variable such as ?x",
    "NUMBER": "a number",
    "COLON_NAME": "a requirement flag such as :strips",
    "$END": "the end of the file",
}

_LAST_WORD = re.compile(r"[^\s()]+\Z")


def explain(source: Source, exc: Exception, parser: Parser) -> list[Diagnostic]:
    first = _diagnose(source, exc, parser)
    balance = _paren_balance(source.text)
    if balance.unclosed or balance.extra is not None:
        return [first, *_balance_errors(source, balance, first)]
    return [first, *_later_sections(source, first, parser)]


def explain_section(source: Source, exc: Exception, parser: Parser, rule: str) -> list[Diagnostic]:
    """The errors of one section parsed alone (by start rule `rule`), each on `source`."""
    first = _on(source, _diagnose(source, exc, parser, rule))
    balance = _paren_balance(source.text)
    if balance.unclosed or balance.extra is not None:
        found = [_on(source, d) for d in _balance_errors(source, balance, first)]
        # "found the end of the file" would be wrong: the section ends, the file goes on
        return found if first.code == "E102" and found else [first, *found]
    return [first]


def _on(own: Source, diagnostic: Diagnostic) -> Diagnostic:
    """`diagnostic` with its span on `own` (the parser points past the end on a copy of the text)."""
    span = diagnostic.span
    if span is None or span.origin is own:
        return diagnostic
    start = min(span.start, len(own.text))
    return replace(diagnostic, span=Span(own, start, max(start + 1, min(span.end, len(own.text)))))


def _diagnose(source: Source, exc: Exception, parser: Parser, start: str = "start") -> Diagnostic:
    from pddltools.pddl.parser import BuildError

    if isinstance(exc, UnexpectedCharacter):
        span = Span(source, exc.pos, exc.pos + 1)
        return error("E101", f"unexpected character {exc.char!r}: PDDL has names, ?variables, numbers, "
                     "parentheses and the operators - + * / < <= = >= >", span)
    if isinstance(exc, NestingTooDeep):
        return error("E105", "formulas nest too deeply here (about 190 levels of (and ...), fewer of (forall ...)); "
                     "pddltools refuses them rather than overflow later", Span(source, exc.pos, exc.pos + 1))
    if isinstance(exc, BuildError):
        return error("E104", str(exc), Span(source, exc.start, max(exc.end, exc.start + 1)))
    assert isinstance(exc, UnexpectedInput)  # Lark's own loop's UnexpectedToken too (`Parser.parse`)
    expected = set(exc.expected)
    if exc.token.start_pos is not None:
        expected = parser.driver.expected_at(source, start, exc.token.start_pos) or expected
    return _unexpected(source, exc.token, expected, parser)


def _unexpected(source: Source, token: Token | Tok, expected: set[str], parser: Parser) -> Diagnostic:
    at_end = token.type == "$END"
    if at_end and not _skip_space(source.text, 0) < len(source.text):
        return error("E100", "the file is empty (or has only comments): expected (define (domain NAME) ...) "
                     "or (define (problem NAME) ...)", Span(_with_end_marker(source), 0, 1))
    start = len(source.text) if at_end or token.start_pos is None else token.start_pos
    end = start + 1 if at_end else max(token.end_pos or start + 1, start + 1)
    if at_end:
        source = _with_end_marker(source)
    found = "the end of the file" if at_end else f"'{source.text[start:end]}'"
    if token.type == "VARIABLE" and "VARIABLE" not in expected:
        ground = _in_ground_section(source.text, start, found)
        if ground:
            return error("E103", ground, Span(source, start, end))
    order = _misordered_part(source.text, start, token, expected)
    if order:
        return error("E103", order, Span(source, start, end))
    previous = _previous_word(source.text, start)
    wanted = AFTER.get(previous) if previous else None
    if wanted is None or (expected == {"RPAR"}):
        wanted = _describe(expected, parser)
    # "after ')'" says nothing a reader does not see; name the keyword or word before instead
    if previous and previous != ")":
        message = f"expected {wanted} after '{previous}', found {found}"
    else:
        message = f"expected {wanted}, found {found}"
    if found == "'-'" and "NUMBER" in expected and source.text[end:end + 2].strip()[:1].isdigit():
        message += ": a negative number is written with its sign touching the digits, as -3"
    code: CodeId = "E102" if at_end else "E103"
    return error(code, message, Span(source, start, end))


#: The parts of an action in the order PDDL requires them.
_PART_ORDER = {":action": (":parameters", ":vars", ":precondition", ":effect"),
               ":durative-action": (":parameters", ":duration", ":condition", ":effect")}
_PART = re.compile(r"(?<![\w-]):(?:parameters|vars|precondition|effect|duration|condition)\b"
                   r"|\(\s*:(?:durative-)?action\b", re.IGNORECASE)


def _misordered_part(text: str, pos: int, token: Token | Tok, expected: set[str]) -> str | None:
    """`:precondition` after `:effect`, say: the message for an action part out of order, else None."""
    word = str(token.value).lower() if token.type != "$END" else ""
    if "RPAR" not in expected or not any(word in parts for parts in _PART_ORDER.values()):
        return None
    seen = [m.group().lower().lstrip("( \t\r\n") for m in _PART.finditer(text, 0, pos)]
    kind = next((w for w in reversed(seen) if w in _PART_ORDER), None)
    if kind is None or word not in _PART_ORDER[kind]:
        return None
    parts = _PART_ORDER[kind]
    last = next((w for w in reversed(seen) if w in parts), None)
    if last is None or parts.index(word) >= parts.index(last):
        return None
    name = "action" if kind == ":action" else "durative action"
    return (f"expected ')' to end the {name} after its {last}, found '{word}': "
            f"{word} must come before {last}")


_SECTION = re.compile(r"\(\s*(:[a-z][a-z0-9_\-]*)", re.IGNORECASE)


def _in_ground_section(text: str, pos: int, found: str) -> str | None:
    """The message for a variable where only names may stand (:init, :objects), else None."""
    sections = _SECTION.findall(text, 0, pos)
    section = sections[-1].lower() if sections else None
    if section == ":init":
        return f"expected a ground fact in :init, found the variable {found}: the initial state has no variables"
    if section == ":objects":
        return f"expected an object name, found the variable {found}: objects are names without '?'"
    return None


def _with_end_marker(source: Source) -> Source:
    """A source whose last line has room for a caret after the final character."""
    return Source(source.text + " ", source.name)


def _previous_word(text: str, pos: int) -> str | None:
    """The word or parenthesis before `pos`, past white space and comments, looked for in the 400
    characters before it. Read backwards line by line: a regular expression anchored at the end would
    be tried from every offset of the window, each time over the rest of it (quadratic in blank space)."""
    limit = max(0, pos - 400)
    end = pos
    while end > limit:
        line_start = max(text.rfind("\n", limit, end) + 1, limit)
        line = text[line_start:end]
        # A ';' starts a comment that runs to the end of its line; no token contains one.
        comment = line.find(";")
        if comment >= 0:
            line = line[:comment]
        line = line.rstrip()
        if line:
            if line[-1] in "()":
                return line[-1]
            m = _LAST_WORD.search(line)
            assert m is not None  # the line ends with a character that is not space or a parenthesis
            return m.group().lower()
        end = line_start - 1
    return None


def _describe(expected: set[str], parser: Parser) -> str:
    return _description(frozenset(expected), parser)


@functools.lru_cache(maxsize=256)  # recovery meets the same few sets again and again
def _description(expected: frozenset[str], parser: Parser) -> str:
    literal = _literals(parser)
    # the fast paths' declared terminals are no words a user writes: only the defined ones are named
    names = {n for n in expected if n in _defined(parser) or n in WORDS}
    if "COLON_NAME" in names:
        names.discard("CONSTRAINTS_FLAG")  # one of the requirement flags, not a word of its own
    if "NAME" in names:
        names = {n for n in names if not (n in literal and re.fullmatch(r"[a-z][a-z0-9_\-]*", literal[n]))
                 or n == "NAME"}
    order = ["LPAR", "RPAR", "NAME", "VARIABLE", "NUMBER", "COLON_NAME"]
    ranked = sorted(names, key=lambda n: (order.index(n) if n in order else len(order), literal.get(n, n)))
    words = [WORDS.get(n) or f"'{literal.get(n, n)}'" for n in ranked]
    if len(words) > 6:
        words = [*words[:5], "..."]
    if not words:
        return "nothing more"
    if len(words) == 1:
        return words[0]
    if len(words) == 2:
        return f"{words[0]} or {words[1]}"
    return "one of " + ", ".join(words)


@functools.cache
def _defined(parser: Parser) -> frozenset[str]:
    """The grammar's defined terminals: not the fast paths' %declare'd ones (GD_LITERALS, ...)."""
    return frozenset(t.name for t in parser.grammar.terminals)


@functools.cache
def _literals(parser: Parser) -> dict[str, str]:
    return {t.name: t.pattern.value for t in parser.grammar.terminals if t.pattern.type == "str"}


# -------------------------------------------------------------------------------------------------
# Parentheses


class _Balance:
    def __init__(self, unclosed: list[int], extra: int | None, closed_top: int | None) -> None:
        self.unclosed = unclosed  # offsets of '(' never closed, outermost first
        self.extra = extra  # offset of the first ')' with nothing to close
        self.closed_top = closed_top  # where the first top-level form was closed


_PARENS = re.compile(r";[^\n]*|[()]")


def _paren_balance(text: str) -> _Balance:
    stack: list[int] = []
    closed_top = None
    for m in _PARENS.finditer(text):
        char = m.group()
        if char == "(":
            stack.append(m.start())
        elif char == ")":
            if not stack:
                return _Balance([], m.start(), closed_top)
            stack.pop()
            if not stack and closed_top is None:
                closed_top = m.start()
    return _Balance(stack, None, closed_top)


def _balance_errors(source: Source, balance: _Balance, first: Diagnostic) -> list[Diagnostic]:
    if balance.extra is not None:
        span = Span(source, balance.extra, balance.extra + 1)
        if first.span is not None and first.span.start == balance.extra:
            return []
        return [error("E106", "this ')' has no '(' to close", span)]
    innermost = balance.unclosed[-1]
    if first.code != "E102" and first.span is not None:
        # A ')' forgotten mid-file makes the parser stumble at a later token; the culprit is the
        # innermost form still open there (not counting a '(' that the stumbling token itself follows).
        opened = _open_at(source.text, first.span.start)
        if opened and _previous_word(source.text, first.span.start) == "(":
            opened.pop()
        if opened:
            innermost = opened[-1]
    count = len(balance.unclosed)
    message = "unbalanced parentheses: this '(' is never closed"
    if first.code == "E102" and count > 1:
        message = f"unbalanced parentheses: {count} are never closed; the innermost is this '('"
    return [error("E107", message, Span(source, innermost, innermost + 1))]


def _open_at(text: str, pos: int) -> list[int]:
    """Offsets of the parentheses open at `pos`, outermost first."""
    stack: list[int] = []
    for m in _PARENS.finditer(text, 0, pos):
        if m.group() == "(":
            stack.append(m.start())
        elif m.group() == ")" and stack:
            stack.pop()
    return stack


# -------------------------------------------------------------------------------------------------
# Recovery: parse the remaining sections one by one

_HEADER = re.compile(r"\(\s*define\s*\(\s*(domain|problem)\b", re.IGNORECASE)


def _later_sections(source: Source, first: Diagnostic, parser: Parser) -> list[Diagnostic]:
    from pddltools.pddl.parser import BuildError

    header = _HEADER.match(source.text, _skip_space(source.text, 0))
    if header is None or first.span is None:
        return []
    start_rule = "domain_section" if header.group(1).lower() == "domain" else "problem_section"
    out: list[Diagnostic] = []
    for begin, end in _sections(source.text, header.end()):
        if end <= first.span.start:
            continue
        if begin <= first.span.start < end:
            continue
        # The section alone, as a text of its own (its offsets shifted back after): a copy of the
        # file up to it, padded, would make recovery quadratic in the number of broken sections.
        section = Source(source.text[begin:end], source.name)
        try:
            parser.parse(section, start=start_rule)
        except (UnexpectedInput, UnexpectedCharacter, NestingTooDeep, BuildError) as exc:
            found = _diagnose(section, exc, parser, start_rule)
            out.append(Diagnostic(found.code, found.severity, found.message,
                                  _rebase(found.span, source, begin), found.notes))
        except Exception:
            continue
    return out


def _rebase(span: Span | None, source: Source, shift: int) -> Span | None:
    if span is None:
        return None
    return Span(source, min(span.start + shift, len(source.text)), min(span.end + shift, len(source.text) + 1))


def _skip_space(text: str, pos: int) -> int:
    m = re.compile(r"(?:\s+|;[^\n]*)*").match(text, pos)
    return m.end() if m else pos


def _sections(text: str, pos: int) -> list[tuple[int, int]]:
    """Offsets of the top-level sections of a `(define ...)` form: the forms at depth 2."""
    out: list[tuple[int, int]] = []
    depth = 2  # inside "(define (domain" : the header's own parenthesis closes first
    begin = -1
    for m in _PARENS.finditer(text, pos):
        char = m.group()
        if char == "(":
            depth += 1
            if depth == 2:
                begin = m.start()
        elif char == ")":
            depth -= 1
            if depth == 1 and begin >= 0:
                out.append((begin, m.end()))
                begin = -1
            if depth == 0:
                break
    return out

