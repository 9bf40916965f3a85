"""A lean LALR(1) driver over the tables Lark builds from a grammar file.

Lark turns the `.lark` grammar into LALR tables and into reduction callbacks that call a
transformer's methods (with its child filtering and `?rule` inlining). Its parse loop, though, costs
several Python calls per token: a generator hand-off, a `Token` with eight fields, a method call per
token and hashing `Rule` objects per reduction. `FastParser` keeps everything Lark derived from the
grammar — the tables, the callbacks, the terminals — and only replaces that loop with one that lexes
(one compiled regular expression, see `lexing.compile_terminals`), shifts and reduces.
Lark's wrappers around the callbacks are not called either: `reductions.direct_reductions` reads
each rule's plan off them once, and the loop picks the kept children itself (see `_reduce`).
`tests/test_lalr.py` proves it builds the same trees as Lark's own loop.

Fast paths (see `lexing.GrammarLexer`) work the same way: at a trigger token the driver asks its
tables whether a declared terminal would be shifted now, and lets the scanner produce it.

Where `pddltools.syntax._speedups` is built, the same loop runs compiled (`_speedups.Driver`): the same
keywords, callbacks and scanners, with the tables numbered into arrays (`image.driver_tables`), and the same terminals
lexed by an automaton derived from their regular expressions (`dfa`), or by the regular expression
itself where a terminal is beyond an automaton.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from functools import cached_property

from pddltools.diagnostics import Source
from pddltools.syntax.frozen import speedups
from pddltools.syntax.image import ParserImage, bind, driver_tables, image_of, token_pattern
from pddltools.syntax.lexing import (
    ERROR,
    LazyPattern,
    NestingTooDeep,
    Scanner,
    UnexpectedCharacter,
    tokens,
    try_fast_paths,
)
from pddltools.syntax.reductions import LIST, pick

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lark import Lark

END = "$END"


class Tok:
    """A token: what the transformer's callbacks receive for terminals."""

    __slots__ = ("end_pos", "start_pos", "type", "value")

    def __init__(self, type: str, value: Any, start_pos: int, end_pos: int) -> None:
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __repr__(self) -> str:
        return f"Tok({self.type!r}, {self.value!r}, {self.start_pos})"


class UnexpectedInput(Exception):
    """The token at `token` cannot continue the text; `expected` lists the terminals that could."""

    def __init__(self, token: Tok, expected: set[str]) -> None:
        super().__init__(f"unexpected {token.type} at offset {token.start_pos}")
        self.token = token
        self.expected = expected


class FastParser:
    """The driver over `image` (a `ParserImage`, or a Lark parser whose image is taken), with the
    callbacks of `builder` (default: the Lark parser's transformer)."""

    def __init__(self, image: ParserImage | Lark, *, builder: object = None, lowercase: bool = False,
                 trigger: str = "", fast_paths: Mapping[str, Scanner] | None = None, max_stack: int = 0,
                 compiled: bool = True) -> None:
        if not isinstance(image, ParserImage):
            builder = image.options.transformer if builder is None else builder
            image = image_of(image, lowercase)
        data = image.data
        self.image = image
        self.start_states: dict[str, int] = data["start_states"]
        self.end_states: dict[str, int] = data["end_states"]
        self.rules = bind(data["plans"], builder)
        self.token_pattern = token_pattern(data["pattern"], LazyPattern if compiled and speedups is not None
                                           else re.compile)
        self.pattern, self.ignore, self.keywords = (self.token_pattern.pattern, self.token_pattern.ignore,
                                                    self.token_pattern.keywords)
        self.lowercase = lowercase
        self.trigger = trigger
        self.fast_paths = dict(fast_paths or {})
        self.max_stack = max_stack or 1 << 62
        self._expected: dict[tuple[Any, ...], frozenset[str]] = {}  # by parser stack
        self.compiled = self._compile() if compiled and speedups is not None else None

    @cached_property
    def actions(self) -> dict[int, dict[str, Any]]:
        """actions[state][terminal]: a target state (shift) or (callback, size, origin, keep) (reduce;
        callback and keep: see `reductions`); states are numbered 0, 1, ... (Made when first asked for:
        the compiled loop asks only at an error.)"""
        rules = self.rules
        return {state: {t: v if v >= 0 else rules[~v] for t, v in row.items()}
                for state, row in enumerate(self.image.data["shifts_reduces"])}

    @cached_property
    def goto(self) -> dict[int, dict[str, int]]:
        return dict(enumerate(self.image.data["gotos"]))

    @cached_property
    def _terminals(self) -> frozenset[str]:
        """Every terminal some state acts on, asked of at each error (error recovery asks per section)."""
        return frozenset(t for row in self.image.data["shifts_reduces"] for t in row)

    def _compile(self) -> speedups.Driver:
        """The compiled loop over these tables, numbered (`image.driver_tables`): terminals in
        `self.terminals` order."""
        assert speedups is not None
        data = self.image.data
        self.start_ids = self.start_states
        tables = data.get("driver")
        if tables is None or any(name not in tables["terminal_ids"] for name in self.fast_paths):
            tables = driver_tables(data, self.fast_paths)  # an image made without them, or other fast paths
        self.terminals = tables["terminals"]
        self._tables = tables
        # as many states as the action table has rows (its rows of C ints, one per terminal): the
        # states' own rows (`shifts_reduces`) are read only at an error
        self.states = list(range(len(tables["action"]) // (4 * len(self.terminals))))
        terminal_id = tables["terminal_ids"]
        origins = tables["origins"]
        automaton = tables["automaton"]
        return speedups.Driver(
            # with an automaton the loop never matches the pattern: it is compiled only if asked for
            match=self.pattern.match if automaton is None else _Match(self.pattern),
            group_terminals=tables["groups"], terminal_names=tuple(self.terminals), keywords=tables["keywords"],
            nstates=len(self.states), action=tables["action"], nnonterminals=tables["nonterminals"],
            goto=tables["goto"],
            rules=tuple((None if callback is LIST else callback, size, origin, keep, callback is LIST)
                        for (callback, size, _, keep), origin in zip(self.rules, origins, strict=True)),
            error_terminal=terminal_id[ERROR], trigger_terminal=terminal_id.get(self.trigger, -1),
            fast_paths=tuple((terminal_id[name], scan) for name, scan in self.fast_paths.items()),
            max_stack=min(self.max_stack, sys.maxsize), token=speedups.Maker(Tok, ("type", "value", "start_pos",
                                                                                      "end_pos")),
            automaton=automaton)

    def accepts(self, stack: list[Any], terminal: str) -> bool:
        """Whether `terminal` would be shifted now, after the reductions it triggers (an LALR state
        may list a look-ahead that only another context of the merged state can shift)."""
        actions = self.actions
        entry = actions[stack[-1]].get(terminal)
        if entry is None:
            return False
        if entry.__class__ is not tuple:
            return True
        stack = list(stack)
        goto = self.goto
        while True:
            size, origin = entry[1], entry[2]
            if size:
                del stack[-size:]
            stack.append(goto[stack[-1]][origin])
            entry = actions[stack[-1]].get(terminal)
            if entry is None:
                return False
            if entry.__class__ is not tuple:
                return True

    def parse(self, source: Source, start: str) -> Any:
        stack, values = self._run(source, start)
        return self._finish(Tok(END, "", len(source.text), len(source.text)), stack, values, start)

    def expected_at(self, source: Source, start: str, offset: int) -> set[str]:
        """The terminals that could really come at `offset`, where a parse failed.

        At an error, LALR's merged look-ahead sets may already have triggered reductions that list
        terminals only another context accepts; replaying the text before `offset` gives the parser's
        stack as it was, and `accepts` asks each terminal on it."""
        try:
            stack, _ = self._run(Source(source.text[:offset], source.name), start)
        except Exception:  # the prefix should parse; if not, say nothing rather than guess
            return set()
        key = tuple(stack)
        found = self._expected.get(key)
        if found is None:
            if len(self._expected) > 1024:
                self._expected.clear()
            found = self._expected[key] = frozenset(t for t in self._terminals if self.accepts(stack, t))
        return set(found)

    def _run(self, source: Source, start: str) -> tuple[list[Any], list[Any]]:
        if self.compiled is not None:
            # Case-insensitive grammars lower each token (see `lexing.tokens`); the compiled loop's
            # lowering returns a token without capitals as it is, which costs less than asking
            # `str.islower` about the whole text first.
            return self._run_compiled(source, start, self.lowercase)
        actions, goto = self.actions, self.goto
        fast_paths, max_stack = self.fast_paths, self.max_stack
        stack: list[Any] = [self.start_states[start]]
        values: list[Any] = []
        text = source.text

        def fast(begin: int) -> tuple[str, object, int] | None:
            if len(stack) > max_stack:
                raise NestingTooDeep(begin)
            return try_fast_paths(fast_paths, self.accepts, stack, text, begin, source)

        for kind, value, begin, end in tokens(self.pattern, self.keywords, text, self.lowercase, self.trigger, fast):
            self._feed(Tok(kind, value, begin, end), stack, values, actions, goto)
        return stack, values

    def _run_compiled(self, source: Source, start: str, lower_each: bool) -> tuple[list[Any], list[Any]]:
        assert self.compiled is not None
        stack, values, error = self.compiled.run(source.text, self.start_ids[start], source, lower_each)
        if error is not None:
            if error[0] == "token":
                _, state, terminal, value, begin, end = error
                raise UnexpectedInput(Tok(self.terminals[terminal], value, begin, end),
                                      _expected(self.image.data["shifts_reduces"][state]))
            if error[0] == "character":
                raise UnexpectedCharacter(error[1], error[2])
            raise NestingTooDeep(error[1])
        return stack, values

    def _feed(self, token: Tok, stack: list[Any], values: list[Any], actions: dict[Any, dict[str, Any]],
              goto: dict[Any, dict[str, Any]]) -> None:
        """Shift `token`, after as many reductions as it calls for."""
        kind = token.type
        while True:
            entry = actions[stack[-1]].get(kind)
            if entry is None:
                raise UnexpectedInput(token, _expected(actions[stack[-1]]))
            if entry.__class__ is not tuple:
                stack.append(entry)
                values.append(token)
                return
            _reduce(entry, stack, values, goto)

    @cached_property
    def _ends(self) -> tuple[Callable[[int], int | None], Any]:
        """For `_finish`: the action on $END in a state (a target state, ~rule, or None at an error) and
        the goto rows; read off the compiled loop's arrays where it has them, so that a parse never
        reads the image's own rows (`image.PACKED`)."""
        tables: dict[str, Any] | None = getattr(self, "_tables", None)
        if tables is None or END not in tables["terminal_ids"]:
            data = self.image.data
            rows = data["shifts_reduces"]
            return (lambda state: rows[state].get(END)), data["gotos"]
        action = memoryview(tables["action"]).cast("i")
        width, end = len(tables["terminals"]), tables["terminal_ids"][END]

        def on_end(state: int) -> int | None:
            code = action[state * width + end]  # 0 none, a target state + 1, or ~rule
            return None if code == 0 else code - 1 if code > 0 else code

        origins = {entry[2]: origin for entry, origin in zip(self.rules, tables["origins"], strict=True)}
        return on_end, _Gotos(memoryview(tables["goto"]).cast("i"), tables["nonterminals"], origins)

    def _finish(self, token: Tok, stack: list[Any], values: list[Any], start: str) -> Any:
        """The reductions at the end of the text, read off the image's rows (both loops end here: the
        compiled one need not make `actions`)."""
        end_state = self.end_states[start]
        on_end, goto = self._ends
        rules = self.rules
        while True:
            code = on_end(stack[-1])
            if code is None:
                raise UnexpectedInput(token, _expected(self.image.data["shifts_reduces"][stack[-1]]))
            if code >= 0:  # shifting $END: accepted
                return values[-1]
            _reduce(rules[~code], stack, values, goto)
            if stack[-1] == end_state:
                return values[-1]


def _reduce(entry: tuple[Any, int, str, tuple[int, ...] | None], stack: list[Any], values: list[Any],
            goto: Mapping[Any, dict[str, Any]] | list[dict[str, Any]]) -> None:
    """Reduce by the rule of `entry`: its callback builds the value from the kept children's values
    (no callback: the one kept child is the value)."""
    callback, size, origin, keep = entry
    if callback is None and keep is None:  # `?rule: x`: the child is the value, only the state changes
        stack[-1] = goto[stack[-2]][origin]
        return
    if size:
        children = values[-size:]
        del values[-size:]
        del stack[-size:]
    else:
        children = []
    if keep is not None:
        children = pick(children, keep)
    values.append(children[0] if callback is None else children if callback is LIST else callback(children))
    stack.append(goto[stack[-1]][origin])


class _Gotos:
    """`goto[state][nonterminal]` read off the compiled loop's goto array (a row of C ints per state)."""

    __slots__ = ("_ids", "_table", "_width")

    def __init__(self, table: memoryview, width: int, ids: dict[str, int]) -> None:
        self._table, self._width, self._ids = table, width, ids

    def __getitem__(self, state: int) -> _GotoRow:
        return _GotoRow(self, state * self._width)


class _GotoRow:
    __slots__ = ("_base", "_gotos")

    def __init__(self, gotos: _Gotos, base: int) -> None:
        self._gotos, self._base = gotos, base

    def __getitem__(self, nonterminal: str) -> int:
        gotos = self._gotos
        target: int = gotos._table[self._base + gotos._ids[nonterminal]]
        if target < 0:
            raise KeyError(nonterminal)  # as the state's own goto row would
        return target


class _Match:
    """`pattern.match`, looked up at the first call (the pattern may be a `LazyPattern`)."""

    def __init__(self, pattern: Any) -> None:
        self._pattern = pattern

    def __call__(self, text: str, pos: int) -> Any:
        return self._pattern.match(text, pos)


def _expected(actions: dict[str, Any]) -> set[str]:
    return {name for name in actions if name.isupper() or name == END}
