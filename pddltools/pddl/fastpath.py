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
_span = fast_constructor(Span)
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
    literal_rx = re.compile(atom("pos", term) + "|" + rf"\({ws}not{ws}{atom('neg', term)}{ws}\)")
    init_rx = re.compile(
        atom("pos", name) + "|" + rf"\({ws}not{ws}{atom('neg', name)}{ws}\)"
        + "|" + rf"\({ws}={ws}{atom('fun', name)}{ws}(?:(?P<number>{number})|(?P<object>{name})){ws}\)"
    )
    skip = re.compile(ws).match
    arg_rx = re.compile(rf"{ignored}|({variable}|{name})")
    hard = frozenset(t.hard_keywords)

    def args(text: str, start: int, end: int, source: Source) -> tuple[Constant | Variable, ...] | None:
        if start == end:
            return ()
        words = text[start:end]
        if ";" in words:
            return commented_args(text, start, end, source)
        out: list[Constant | Variable] = []
        find = text.find
        pos = start
        for word in words.split():
            pos = find(word, pos)
            span = _span(source, pos, pos + len(word))
            pos += len(word)
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
            span = _span(source, m.start(), m.end())
            if word[0] == "?":
                out.append(_variable(span, _intern(word)))
            elif word in hard:
                return None
            else:
                out.append(_constant(span, _intern(word)))
        return tuple(out)

    def atom_of(m: re.Match[str], label: str, text: str, source: Source) -> Atom | None:
        predicate = m.group(label + "_p")
        if predicate in hard:
            return None
        arguments = args(text, m.start(label + "_a"), m.end(label + "_a"), source)
        if arguments is None:
            return None
        return _atom(_span(source, m.start(label), m.end(label)), _intern(predicate), arguments)

    def literal(m: re.Match[str], text: str, source: Source) -> Atom | Not | None:
        if m.start("pos") >= 0:
            return atom_of(m, "pos", text, source)
        inner = atom_of(m, "neg", text, source)
        return None if inner is None else _not(_span(source, m.start(), m.end()), inner)

    def init_element(m: re.Match[str], text: str, source: Source) -> Atom | Not | InitAssignment | None:
        if m.start("fun") < 0:
            return literal(m, text, source)
        fluent = atom_of(m, "fun", text, source)
        if fluent is None:
            return None
        value: Number | Constant
        if m.start("number") >= 0:
            value = Number(parse_number(m.group("number")), span=Span(source, m.start("number"), m.end("number")))
        else:
            word = m.group("object")
            if word in hard:
                return None
            value = Constant(_intern(word), span=Span(source, m.start("object"), m.end("object")))
        term = FunctionTerm(fluent.predicate, fluent.args, span=fluent.span)
        return InitAssignment(term, value, span=Span(source, m.start(), m.end()))

    def scanner(rx: re.Pattern[str], element: Callable[[re.Match[str], str, Source], object | None]) -> Scanner:
        match = rx.match

        def scan(text: str, pos: int, source: Source) -> tuple[object, int] | None:
            found: list[object] = []
            end = pos
            while True:
                m = match(text, pos)
                if m is None:
                    break
                node = element(m, text, source)
                if node is None:
                    break
                found.append(node)
                end = m.end()
                pos = skip(text, end).end()
            return (tuple(found), end) if found else None

        return scan

    return scanner(literal_rx, literal), scanner(init_rx, init_element)


def _noncapturing(pattern: str) -> str:
    """The same regular expression with its capturing groups made non-capturing."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", pattern)
