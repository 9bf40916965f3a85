"""The lexer's fast path for the long flat lists that make up most of a PDDL file.

Most of the bytes of a problem are its `:init` (ground atoms and `(= (f o) 3)`), and most of a
grounded domain are conjunctions of argument-free literals. Feeding those token by token through the
LALR machinery costs a dozen Python calls per atom; here one regular expression matches a whole
element and the AST node is built directly. The lexer tries a scanner only where the grammar accepts
its declared terminal (GD_LITERALS, EFFECT_LITERALS, INIT_ELEMENTS), so the grammar still decides
where a fast path applies; the regular expressions are assembled from the grammar's own NAME,
VARIABLE, NUMBER and %ignore terminals. A scanner accepts exactly what the grammar path would parse
into the same nodes and declines (returns None) on anything else, which then takes the grammar path;
tests/pddl/test_fastpath.py proves the two paths agree on every file of the corpus.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass

from pddltools.diagnostics import Source, Span
from pddltools.frozen import fast_constructor
from pddltools.pddl.ast import Atom, Constant, FunctionTerm, InitAssignment, Not, Number, Variable
from pddltools.pddl.numbers import parse_number

_intern = sys.intern
_span = fast_constructor(Span)  # (source, start, length)
_atom = fast_constructor(Atom)
_not = fast_constructor(Not)
_constant = fast_constructor(Constant)
_variable = fast_constructor(Variable)


@dataclass(frozen=True)
class Terminals:
    """The patterns the fast path is assembled from, read off the compiled grammar."""

    name: str
    variable: str
    number: str
    ignored: tuple[str, ...]
    hard_keywords: Collection[str]  # words that are keywords everywhere, never names


Scanner = Callable[[str, int, Source], "tuple[object, int] | None"]


def build_scanners(t: Terminals) -> tuple[Scanner, Scanner]:
    """The scanners for flat literals (preconditions, effects) and for init elements."""
    # Atomic groups (?>...) keep matching linear: without them a failed match would retry every way
    # of splitting a long name into shorter names and whitespace runs into shorter runs.
    name, variable, number = (f"(?>{_noncapturing(p)})" for p in (t.name, t.variable, t.number))
    ignored = "|".join(_noncapturing(p) for p in t.ignored)
    ws = f"(?>(?:{ignored})*)"

    def atom(label: str, arguments: str) -> str:
        return rf"(?P<{label}>\({ws}(?P<{label}_p>{name}){ws}(?P<{label}_a>(?:{arguments}{ws})*)\))"

    term = f"(?:{variable}|{name})"
    # Each element is matched together with the white space and comments before it.
    literal_rx = re.compile(ws + "(?:" + atom("pos", term) + "|" + rf"(?P<not>\({ws}not{ws}{atom('neg', term)}{ws}\)))",
                            re.IGNORECASE)
    init_rx = re.compile(
        ws + "(?:" + atom("pos", name) + "|" + rf"(?P<not>\({ws}not{ws}{atom('neg', name)}{ws}\))"
        + "|" + rf"(?P<eq>\({ws}={ws}{atom('fun', name)}{ws}(?:(?P<number>{number})|(?P<object>{name})){ws}\)))",
        re.IGNORECASE,
    )
    arg_rx = re.compile(rf"{ignored}|({variable}|{name})", re.IGNORECASE)
    hard = frozenset(t.hard_keywords)

    def args(text: str, start: int, end: int, source: Source) -> tuple[Constant | Variable, ...] | None:
        words = text[start:end]
        if ";" in words:
            return commented_args(text, start, end, source)
        out: list[Constant | Variable] = []
        find = text.find
        pos = start
        for word in words.split():
            pos = find(word, pos)
            span = _span(source, pos, len(word))
            pos += len(word)
            word = word.lower()
            if word[0] == "?":
                out.append(_variable(span, _intern(word)))
            elif word in hard:
                return None
            else:
                out.append(_constant(span, _intern(word)))
        return tuple(out)

    def commented_args(text: str, start: int, end: int, source: Source) -> tuple[Constant | Variable, ...] | None:
        out: list[Constant | Variable] = []
        for m in arg_rx.finditer(text, start, end):
            word = m.group(1)
            if word is None:
                continue  # a comment inside the atom
            word = word.lower()
            span = _span(source, m.start(), m.end() - m.start())
            if word[0] == "?":
                out.append(_variable(span, _intern(word)))
            elif word in hard:
                return None
            else:
                out.append(_constant(span, _intern(word)))
        return tuple(out)

    def scanner(rx: re.Pattern[str], assignments: bool) -> Scanner:
        match = rx.match
        g = rx.groupindex
        pos_, pos_p, pos_a = g["pos"], g["pos_p"], g["pos_a"]
        not_, neg, neg_p, neg_a = g["not"], g["neg"], g["neg_p"], g["neg_a"]
        if assignments:
            eq, fun, fun_p, fun_a, num, obj = g["eq"], g["fun"], g["fun_p"], g["fun_a"], g["number"], g["object"]

        def atom_at(m: re.Match[str], whole: int, p: int, a: int, text: str, source: Source) -> Atom | None:
            predicate = m.group(p).lower()
            if predicate in hard:
                return None
            start, end = m.span(a)
            arguments = args(text, start, end, source) if start != end else ()
            if arguments is None:
                return None
            return _atom(_length_span(source, m, whole), _intern(predicate), arguments)

        def scan(text: str, pos: int, source: Source) -> tuple[object, int] | None:
            found: list[object] = []
            end = pos
            while True:
                m = match(text, end)
                if m is None:
                    break
                node: object
                if m.start(pos_) >= 0:
                    node = atom_at(m, pos_, pos_p, pos_a, text, source)
                elif m.start(not_) >= 0:
                    inner = atom_at(m, neg, neg_p, neg_a, text, source)
                    node = None if inner is None else _not(_length_span(source, m, not_), inner)
                else:
                    node = assignment(m, text, source)
                if node is None:
                    break
                found.append(node)
                end = m.end()
            return (tuple(found), end) if found else None

        def assignment(m: re.Match[str], text: str, source: Source) -> InitAssignment | None:
            fluent = atom_at(m, fun, fun_p, fun_a, text, source)
            if fluent is None:
                return None
            value: Number | Constant
            if m.start(num) >= 0:
                value = Number(parse_number(m.group(num)), span=_length_span(source, m, num))
            else:
                word = m.group(obj).lower()
                if word in hard:
                    return None
                value = _constant(_length_span(source, m, obj), _intern(word))
            term = FunctionTerm(fluent.predicate, fluent.args, span=fluent.span)
            return InitAssignment(term, value, span=_length_span(source, m, eq))

        return scan

    return scanner(literal_rx, False), scanner(init_rx, True)


def _length_span(source: Source, m: re.Match[str], group: int) -> Span:
    start, end = m.span(group)
    return _span(source, start, end - start)


def _noncapturing(pattern: str) -> str:
    """The same regular expression with its capturing groups made non-capturing."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", pattern)
