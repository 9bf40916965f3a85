"""The grammar's token pattern as a deterministic automaton, for the compiled driver's lexer.

The Python loop lexes with one regular expression (`lexing.compile_terminals`): its alternatives are
the grammar's terminals in Lark's order, tried first to last, each matching as much as it can. The
compiled driver runs the same terminals as a table-driven automaton instead: no match object, no
attribute look-ups, a few array reads per character. The tables are derived here from the very
regular expressions `compile_terminals` joins (read with the standard library's own regular-expression
parser), so the grammar stays the one source of every token's shape.

`build` returns None where a terminal uses something an automaton cannot mirror exactly (look-arounds,
anchors, back-references, lazy or possessive repeats, non-ASCII characters named in a pattern, Unicode
categories): the compiled driver then keeps calling the regular expression. Within what it accepts,
the automaton reproduces the alternation's first-match rule: the earliest alternative that matches
wins, with its longest match. `tests/syntax/test_dfa.py` checks it against the regular expression on
every short string over the grammar's characters, and the corpus tests compare compiled and Python
parses.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

try:  # the standard library's regular-expression parser (its old public name before 3.11)
    import re._parser as sre_parse  # type: ignore[import-not-found,unused-ignore]
    from re import _constants as sre  # type: ignore[attr-defined,unused-ignore]
except ImportError:  # pragma: no cover - Python < 3.11 is not supported, kept for clarity
    import sre_constants as sre  # type: ignore[no-redef,unused-ignore]
    import sre_parse  # type: ignore[no-redef,unused-ignore]

#: Characters are read by class: the 128 ASCII characters one by one, and every other character as
#: this one (a pattern that names no non-ASCII character treats them all alike).
OTHER = 128
_ALL = (1 << (OTHER + 1)) - 1
IGNORED = -2  # an alternative's terminal number meaning "skip it" (white space, comments)
_MAX_COPIES = 16


class Unsupported(Exception):
    """A pattern uses something the automaton does not mirror."""


@dataclass(frozen=True)
class Automaton:
    """`classes[c]` is the class of ASCII character c (`classes[OTHER]`: of any other character);
    `transitions[state * nclasses + class]` the next state or -1; `accepts[state]` the earliest
    alternative that ends in `state`, or -1; `terminals[alternative]` its terminal's name, or None for
    an ignored one. State 0 is the start."""

    classes: bytes
    nclasses: int
    transitions: array[int]
    accepts: array[int]
    terminals: tuple[str | None, ...]

    def match(self, text: str, pos: int) -> tuple[int, int] | None:
        """(alternative, end) of the token at `pos` by the first-match rule, or None: the compiled
        driver's loop, in Python, for tests."""
        state, best, best_end = 0, len(self.terminals), -1
        for i in range(pos, len(text)):
            code = ord(text[i])
            state = self.transitions[state * self.nclasses + self.classes[code if code < OTHER else OTHER]]
            if state < 0:
                break
            alternative = self.accepts[state]
            if 0 <= alternative <= best:
                best, best_end = alternative, i + 1
        return None if best_end < 0 else (best, best_end)


def build(alternatives: Sequence[tuple[str | None, str]], flags: int) -> Automaton | None:
    """The automaton of `alternatives` ((terminal name or None for ignored text, regular expression),
    earliest first) under `flags`, or None where a pattern is beyond it."""
    try:
        nfa = _NFA()
        starts = [nfa.add_pattern(pattern, flags) for _, pattern in alternatives]
    except (Unsupported, re.error):
        return None
    return _determinise(nfa, starts, tuple(name for name, _ in alternatives))


class _NFA:
    """A Thompson automaton: `edges[s]` lists (character set as a bit mask, target), `empty[s]` the
    targets reached without reading; `final[s]` is the alternative whose match ends in s, or -1."""

    def __init__(self) -> None:
        self.edges: list[list[tuple[int, int]]] = []
        self.empty: list[list[int]] = []
        self.final: list[int] = []
        self.patterns = 0

    def state(self) -> int:
        self.edges.append([])
        self.empty.append([])
        self.final.append(-1)
        return len(self.final) - 1

    def add_pattern(self, pattern: str, flags: int) -> int:
        parsed = sre_parse.parse(pattern, flags)
        flags |= parsed.state.flags
        start = self.state()
        end = self._sequence(list(parsed), start, flags)
        self.final[end] = self.patterns
        self.patterns += 1
        return start

    def _sequence(self, items: Iterable[tuple[object, Any]], at: int, flags: int) -> int:
        for op, arg in items:
            at = self._item(op, arg, at, flags)
        return at

    def _item(self, op: object, arg: Any, at: int, flags: int) -> int:
        if op is sre.SUBPATTERN:
            _group, add, remove, body = arg
            return self._sequence(body, at, (flags | add) & ~remove)
        if op is sre.BRANCH:
            end = self.state()
            for body in arg[1]:
                branch = self.state()
                self.empty[at].append(branch)
                self.empty[self._sequence(body, branch, flags)].append(end)
            return end
        if op is sre.MAX_REPEAT:
            low, high, body = arg
            if low > _MAX_COPIES or (high is not sre.MAXREPEAT and high > _MAX_COPIES):
                raise Unsupported("a counted repeat this long")  # each count is a copy of the body
            for _ in range(low):
                at = self._sequence(body, at, flags)
            if high is sre.MAXREPEAT:
                loop = self.state()
                self.empty[at].append(loop)
                self.empty[self._sequence(body, loop, flags)].append(loop)
                return loop
            end = self.state()
            for _ in range(high - low):
                self.empty[at].append(end)
                at = self._sequence(body, at, flags)
            self.empty[at].append(end)
            return end
        target = self.state()
        self.edges[at].append((_characters(op, arg, flags), target))
        return target


def _characters(op: object, arg: Any, flags: int) -> int:
    """The bit mask of the characters one item of a pattern reads."""
    if op is sre.LITERAL:
        return _cased(1 << _code(arg), flags)
    if op is sre.NOT_LITERAL:
        return _ALL & ~_cased(1 << _code(arg), flags)
    if op is sre.ANY:
        return _ALL if flags & re.DOTALL else _ALL & ~(1 << ord("\n"))
    if op is sre.IN:
        mask, negate = 0, False
        for kind, value in arg:
            if kind is sre.NEGATE:
                negate = True
            elif kind is sre.LITERAL:
                mask |= 1 << _code(value)
            elif kind is sre.RANGE:
                low, high = value
                if high >= OTHER:
                    raise Unsupported("a range beyond ASCII")
                mask |= ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
            elif kind is sre.CATEGORY:
                mask |= _category(value, flags)
            else:
                raise Unsupported(str(kind))
        mask = _cased(mask, flags)
        return _ALL & ~mask if negate else mask
    raise Unsupported(str(op))


def _code(value: int) -> int:
    if value >= OTHER:
        raise Unsupported("a non-ASCII character")
    return value


_CATEGORIES = {
    "CATEGORY_DIGIT": "0123456789",
    "CATEGORY_SPACE": " \t\n\r\f\v",
    "CATEGORY_WORD": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
}


def _category(value: object, flags: int) -> int:
    name = str(value)
    negated = name.startswith("CATEGORY_NOT_")
    base = name.replace("CATEGORY_NOT_", "CATEGORY_")
    if base not in _CATEGORIES or not flags & re.ASCII:
        raise Unsupported(f"{name} outside ASCII mode")  # Unicode categories are not uniform outside ASCII
    mask = sum(1 << ord(c) for c in _CATEGORIES[base])
    return _ALL & ~mask if negated else mask


def _cased(mask: int, flags: int) -> int:
    """`mask` with the other case of each ASCII letter where the pattern ignores case. Only ASCII
    letters fold: the lexer's case-insensitive grammars match under re.ASCII (see `lexing.CASELESS`)."""
    if not flags & re.IGNORECASE:
        return mask
    if not flags & re.ASCII:
        raise Unsupported("case folding outside ASCII")
    upper = (mask >> ord("a")) & ((1 << 26) - 1)
    lower = (mask >> ord("A")) & ((1 << 26) - 1)
    return mask | (upper << ord("A")) | (lower << ord("a"))


def _determinise(nfa: _NFA, starts: list[int], terminals: tuple[str | None, ...]) -> Automaton | None:
    """The subset construction over character classes: characters that every edge treats alike."""
    masks = sorted({mask for edges in nfa.edges for mask, _ in edges})
    signatures: dict[tuple[bool, ...], int] = {}
    classes = bytearray(OTHER + 1)
    for code in range(OTHER + 1):
        signature = tuple(bool(mask >> code & 1) for mask in masks)
        classes[code] = signatures.setdefault(signature, len(signatures))
    if len(signatures) > 255:
        return None
    representatives = [classes.index(c) for c in range(len(signatures))]

    def closure(states: Iterable[int]) -> frozenset[int]:
        seen = set(states)
        todo = list(seen)
        while todo:
            for target in nfa.empty[todo.pop()]:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return frozenset(seen)

    start = closure(starts)
    numbering = {start: 0}
    order = [start]
    transitions: list[int] = []
    accepts: list[int] = []
    for subset in order:  # grows while it is read
        finals = [nfa.final[s] for s in subset if nfa.final[s] >= 0]
        accepts.append(min(finals) if finals else -1)
        for code in representatives:
            bit = 1 << code
            targets = closure(t for s in subset for mask, t in nfa.edges[s] if mask & bit)
            if not targets:
                transitions.append(-1)
                continue
            if targets not in numbering:
                numbering[targets] = len(order)
                order.append(targets)
            transitions.append(numbering[targets])
    if accepts[0] >= 0:
        return None  # a terminal matching the empty string: the regular expression's business
    return Automaton(bytes(classes), len(signatures), array("i", transitions), array("i", accepts), terminals)
