"""The lexer's fast path for the long flat lists that make up most of a PDDL file.

Most of the bytes of a problem are its `:init` (ground atoms and `(= (f o) 3)`), and most of a
grounded domain are conjunctions of argument-free literals. Feeding those token by token through the
LALR machinery costs a dozen Python calls per atom; here one regular expression matches a whole
element and the AST node is built directly. The lexer tries a scanner only where the grammar accepts
its declared terminal (GD_LITERALS, EFFECT_LITERALS, INIT_ELEMENTS), so the grammar still decides
where a fast path applies; the regular expressions are assembled from the grammar's own NAME,
VARIABLE, NUMBER and %ignore terminals. A scanner accepts exactly what the grammar path would parse
into the same nodes and declines (returns None) on anything else, which then takes the grammar path;
tests/pddl/test_corpus.py proves the two paths agree on every file of the corpus.

The scanners of flat literals and init elements, most of the work, also exist compiled
(`pddltools.syntax._speedups.FlatScanner`), and are used where that module is built. The compiled scanner
reads characters by class: `character_classes` computes the classes from the same grammar terminals
and checks that they describe them exactly (else the Python scanners run). It hands anything outside
ASCII to the Python scanner.
"""

from __future__ import annotations

import marshal
import os
import re
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from pddltools.diagnostics import Source, Span
from pddltools.pddl.ast import (
    Action,
    And,
    AndEffect,
    Assign,
    Atom,
    Constant,
    Expression,
    FunctionTerm,
    InitAssignment,
    Not,
    Number,
    Timed,
    TypedName,
    TypeName,
    Variable,
)
from pddltools.pddl.exact_numbers import NumberOutOfRange, parse_number
from pddltools.syntax.frozen import Anchors, fast_constructor, speedups
from pddltools.syntax.frozen import new_span as _span
from pddltools.syntax.larkcache import user_cache_file
from pddltools.syntax.lexing import CASELESS, LazyPattern, lazy_pattern

_intern = sys.intern
_atom = fast_constructor(Atom)
_not = fast_constructor(Not)
_constant = fast_constructor(Constant)
_variable = fast_constructor(Variable)


@dataclass(frozen=True)
class Words:
    """The literal words of the constructs the fast paths cover, read off the grammar's rules
    (`parser._words`): the scanners, Python and compiled, hold none of their own."""

    open: str  # LPAR
    close: str  # RPAR
    negation: str  # (not ATOM)
    equals: str  # (= (f o) value) in :init
    conjunction: str  # (and ...)
    at: str  # (at start L)
    over: str  # (over all L)
    over_all: str
    time_points: frozenset[str]  # start, end
    action: str  # :action and its parts
    parameters: str
    precondition: str
    effect: str
    assign_ops: frozenset[str]  # assign, increase, ...
    durative_action: str  # :durative-action and its parts
    duration: str
    condition: str
    da_effect: str
    comparison_ops: frozenset[str]  # = < <= ...
    arithmetic_ops: frozenset[str]  # + * / (not the minus: the builder writes its own)


@dataclass(frozen=True)
class Terminals:
    """The patterns the fast path is assembled from, read off the compiled grammar."""

    name: str
    variable: str
    number: str
    ignored: tuple[str, ...]
    hard_keywords: Collection[str]  # words that are keywords everywhere, never names
    words: Words


Scanner = Callable[[str, int, Source], "tuple[object, int] | None"]


def build_scanners(t: Terminals, *, compiled: bool = True, gaps: Gaps | None = None
                   ) -> tuple[Scanner, Scanner, Scanner, Scanner, Scanner, Scanner]:
    """The scanners for flat literals (preconditions, effects), init elements, simple actions, timed
    flat literals in durative conditions and effects, and simple durative actions
    (`fastpath_durative`); `compiled=False` keeps to the Python ones. `gaps`: `gaps_of(t)`, kept."""
    # Atomic groups (?>...) keep matching linear: without them a failed match would retry every way
    # of splitting a long name into shorter names and whitespace runs into shorter runs.
    name, variable, number = (f"(?>{_noncapturing(p)})" for p in (t.name, t.variable, t.number))
    ignored = "|".join(_noncapturing(p) for p in t.ignored)
    ws = f"(?>(?:{ignored})*)"
    w = t.words
    gaps = gaps or gaps_of(t)
    o, c, neg = re.escape(w.open), re.escape(w.close), re.escape(w.negation)

    def atom(label: str, arguments: str) -> str:
        return rf"(?P<{label}>{o}{ws}(?P<{label}_p>{name}){ws}(?P<{label}_a>(?:{arguments}{ws})*){c})"

    # A term must not run into a variable (`a?x` is two tokens to the grammar, one word to `args`).
    term = rf"(?:{variable}|{name})(?!\?)"
    # Each element is matched together with the white space and comments before it.
    negation = rf"(?P<not>{o}{ws}{neg}{ws}{atom('neg', term)}{ws}{c})"
    literal_rx = LazyPattern(ws + "(?:" + atom("pos", term) + "|" + negation + ")", CASELESS)
    eq = re.escape(w.equals)
    init_rx = LazyPattern(
        ws + "(?:" + atom("pos", name) + "|" + rf"(?P<not>{o}{ws}{neg}{ws}{atom('neg', name)}{ws}{c})"
        + "|" + rf"(?P<eq>{o}{ws}{eq}{ws}{atom('fun', name)}{ws}(?:(?P<number>{number})|(?P<object>{name})){ws}{c}))",
        CASELESS,
    )
    arg_rx = re.compile(rf"{ignored}|({variable}|{name})", CASELESS)
    hard = frozenset(t.hard_keywords)
    unsplittable = re.compile(f"[{re.escape(gaps.unsplittable)}]").search if gaps.unsplittable else None

    def args(text: str, start: int, end: int, anchors: Anchors) -> tuple[Constant | Variable, ...] | None:
        """The arguments between `start` and `end`, their positions anchored in `anchors`."""
        words = text[start:end]
        if unsplittable is not None and unsplittable(words):  # a comment: str.split cannot read it
            return commented_args(text, start, end, anchors)
        out: list[Constant | Variable] = []
        append = out.append
        find = text.find
        at = anchors.at
        pos = start
        for word in words.split():
            pos = find(word, pos)
            size = len(word)
            anchor, offset = at(pos, size)
            pos += size
            word = _intern(word.lower())
            if word[0] == "?":
                append(_variable(anchor, word, offset))
            elif word in hard:
                return None
            else:
                append(_constant(anchor, word, offset))
        return tuple(out)

    def commented_args(text: str, start: int, end: int, anchors: Anchors) -> tuple[Constant | Variable, ...] | None:
        out: list[Constant | Variable] = []
        for m in arg_rx.finditer(text, start, end):
            word = m.group(1)
            if word is None:
                continue  # a comment inside the atom
            word = word.lower()
            anchor, offset = anchors.at(m.start(), m.end() - m.start())
            if word[0] == "?":
                out.append(_variable(anchor, _intern(word), offset))
            elif word in hard:
                return None
            else:
                out.append(_constant(anchor, _intern(word), offset))
        return tuple(out)

    def scanner(rx: LazyPattern, assignments: bool) -> Scanner:
        match = rx.match
        g = rx.groupindex
        pos_, pos_p, pos_a = g["pos"], g["pos_p"], g["pos_a"]
        not_, neg, neg_p, neg_a = g["not"], g["neg"], g["neg_p"], g["neg_a"]
        if assignments:
            eq, fun, fun_p, fun_a, num, obj = g["eq"], g["fun"], g["fun_p"], g["fun_a"], g["number"], g["object"]

        atom_at = _atom_builder(hard, args)

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
                    node = None if inner is None else _not(*_anchored(source, m, not_, inner))
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
                number = _number_or_none(m.group(num))
                if number is None:
                    return None
                value = Number(number, span=_length_span(source, m, num))
            else:
                word = m.group(obj).lower()
                if word in hard:
                    return None
                value = _constant(*_anchored(source, m, obj, _intern(word)))
            term = FunctionTerm(fluent.predicate, fluent.args, span=fluent.span)
            return InitAssignment(term, value, span=_length_span(source, m, eq))

        return scan

    classes = cached_character_classes(t) if compiled and speedups is not None else None
    if classes is not None:  # the Python scanners only read what the compiled ones hand on (non-ASCII)
        scan_literals = _compiled_scanner(classes, w, hard, False, lazy_scanner(lambda: scanner(literal_rx, False)))
        scan_init = _compiled_scanner(classes, w, hard, True, lazy_scanner(lambda: scanner(init_rx, True)))
    else:
        scan_literals, scan_init = scanner(literal_rx, False), scanner(init_rx, True)
    end_word = _word_end(t.name)
    # A timed literal is read in three steps: its head up to the time, the one flat literal (by the
    # literal scanner, compiled where built: the literal was most of the cost), and its closing.
    timed_head = lazy_pattern(
        rf"{ws}(?P<whole>{o}){ws}(?:{re.escape(w.at)}{end_word}{ws}(?P<at>{name})|{re.escape(w.over)}{end_word}{ws}"
        rf"(?P<over>{name}))", CASELESS)
    timed_close = LazyPattern(rf"{ws}{c}", 0)

    name_rest = _name_rest(t.name)

    def timed_scanner(times: frozenset[object]) -> Scanner:
        """`(at start L)`, `(at end L)` and (in conditions) `(over all L)` for flat literals L."""
        g = timed_head.groupindex
        whole, at, over = g["whole"], g["at"], g["over"]
        head = timed_head.match
        close = timed_close.match
        closer, closer_size = w.close, len(w.close)
        # Each head as written, white space before it included: its time (None where it is none of
        # `times`: `(over start`) and where its parenthesis is. Grounded domains write a few heads
        # thousands of times, so the last one is tried with `startswith` before the regular expression.
        heads: dict[str, tuple[str | None, int]] = {}

        def read_head(m: re.Match[str]) -> tuple[str | None, int]:
            word: str | None = m.group(at)
            key: object = word.lower() if word is not None else (OVER, m.group(over).lower())
            time = None if key not in times else word.lower() if word is not None else m.group(over).lower()
            found = (time, m.start(whole) - m.start())
            if len(heads) < 512:  # white space with comments varies without bound
                heads[m.group()] = found
            return found

        def scan(text: str, pos: int, source: Source) -> tuple[object, int] | None:
            found: list[Timed] = []
            append = found.append
            startswith = text.startswith
            end = pos
            last, size, time, offset = "", 0, None, 0
            while True:
                # the same head again, its time word not running on into a longer name
                if not (size and startswith(last, end) and text[end + size:end + size + 1] not in name_rest):
                    m = head(text, end)
                    if m is None:
                        break
                    last = m.group()
                    size = len(last)
                    time, offset = heads.get(last) or read_head(m)
                if time is None:
                    break
                inner = scan_literals(text, end + size, source)
                if inner is None:
                    break
                nodes, literal_end = inner
                if len(nodes) != 1:  # type: ignore[arg-type]
                    break
                if startswith(closer, literal_end):  # the usual `...))`: no expression needed
                    stop = literal_end + closer_size
                elif (closing := close(text, literal_end)) is not None:
                    stop = closing.end()
                else:
                    break
                begin = end + offset
                append(_timed(_span(source, begin, stop - begin), time, nodes[0]))  # type: ignore[index]
                end = stop
            return (tuple(found), end) if found else None

        return scan

    parts = _action_parts(t, ws, gaps, name, variable, number, term, hard, scan_literals, timed_head, args)
    conditions = frozenset({*w.time_points, (OVER, w.over_all)})
    # Made at their first use, as only durative actions need them (start-up)
    scan_conditions = lazy_scanner(lambda: timed_scanner(conditions))
    scan_effects = lazy_scanner(lambda: timed_scanner(frozenset(w.time_points)))
    durative_header = LazyPattern(rf"{ws}{o}{ws}{re.escape(w.durative_action)}{end_word}", CASELESS)

    def durative_scanner() -> Scanner:
        from pddltools.pddl.fastpath_durative import durative_action_scanner  # it builds on this module's parts

        return durative_action_scanner(parts, w, variable, scan_conditions, scan_effects, conditions)

    durative = lazy_scanner(durative_scanner, durative_header)
    return (scan_literals, scan_init, _action_scanner(parts, w), scan_conditions, scan_effects, durative)


def lazy_scanner(build: Callable[[], Scanner], header: LazyPattern | None = None) -> Scanner:
    """The scanner `build()` makes, made at its first use: the durative actions' scanner compiles a fifth
    of the parser's regular expressions, which a domain without durative actions never runs (start-up).
    Where the text at a position does not begin with `header`, the scanner declines without being made
    (an `(:action` is offered to the durative actions' scanner too, when the action's own declines)."""
    made: list[Scanner] = []

    def scan(text: str, pos: int, source: Source) -> tuple[object, int] | None:
        if not made:
            if header is not None and header.match(text, pos) is None:
                return None
            made.append(build())
        return made[0](text, pos, source)

    return scan


def _atom_builder(hard: frozenset[str], args: Callable[[str, int, int, Anchors],
                                                         tuple[Constant | Variable, ...] | None]
                  ) -> Callable[[re.Match[str], int, int, int, str, Source], Atom | None]:
    def atom_at(m: re.Match[str], whole: int, p: int, a: int, text: str, source: Source) -> Atom | None:
        predicate = m.group(p).lower()
        if predicate in hard:
            return None
        begin, finish = m.span(whole)
        anchors = Anchors.of(source)
        anchor, offset = anchors.at(begin, finish - begin)
        start, end = m.span(a)
        arguments = args(text, start, end, anchors) if start != end else ()
        if arguments is None:
            return None
        return _atom(anchor, _intern(predicate), arguments, offset)

    return atom_at


_typed_name = fast_constructor(TypedName)
_VARIABLE, _TYPE, _DASH = 1, 2, 3  # the kinds of a parameter list's words
#: marks `(over all L)` among the times of timed literals (the others are the grammar's time points)
OVER = "over"


def run_scanner(read: Callable[[str, int, Source], tuple[object, int] | None]) -> Scanner:
    """The scanner of a run of what `read` reads (an action, a durative action): the nodes and the end
    of the last, or None where `read` takes none."""

    def scan(text: str, pos: int, source: Source) -> tuple[object, int] | None:
        found: list[object] = []
        end = pos
        while (next_one := read(text, end, source)) is not None:
            found.append(next_one[0])
            end = next_one[1]
        return (tuple(found), end) if found else None

    return scan
_timed = fast_constructor(Timed)
_type_name = fast_constructor(TypeName)


@dataclass(frozen=True)
class ActionParts:
    """The pieces the scanners of actions and of durative actions share: patterns assembled from the
    grammar's terminals and words, and readers of an action's parts. Each reader takes (text, pos,
    source) and returns (node, end) or None (the scanner declines)."""

    ws: str  # white space and comments, possibly none
    open: str  # the parenthesis, escaped for a pattern
    close: str  # the closing parenthesis, as written
    conjunction: str  # `and`, as written
    name: str
    number: str
    end_word: str  # a keyword ends here (`_word_end`)
    hard: frozenset[str]
    parameters: re.Pattern[str]  # `:parameters (...)`, the list's text in group `params`
    typed_parameters: Callable[[str, int, int, Source], tuple[TypedName, ...] | None]
    function_term: Callable[[re.Match[str], str, str, Source], FunctionTerm | None]
    fluent: str  # a flat fluent's pattern, `{0}` standing for its groups' label
    effect_assignment: Callable[[str, int, Source], tuple[Assign, int] | None]
    closing: re.Pattern[str]  # white space, then the closing parenthesis
    scan_literals: Scanner
    timed_head: re.Pattern[str]  # `(at TIME` or `(over TIME`, the time word in group `at` or `over`

    def header(self, keyword: str) -> re.Pattern[str]:
        """`(keyword NAME`, the parenthesis in group `open`, the name in `name` (compiled if matched with:
        the scanners take its `pattern` into theirs)."""
        pattern = (rf"{self.ws}(?P<open>{self.open}){self.ws}{re.escape(keyword)}"
                   rf"{self.end_word}{self.ws}(?P<name>{self.name}){self.ws}")
        return lazy_pattern(pattern, CASELESS)

    def head(self, m: re.Match[str], text: str, source: Source) -> tuple[int, str, tuple[TypedName, ...]] | None:
        """Where an action starts, its name and its parameters, from a match of `header` followed by an
        optional `parameters`; None where the name is a keyword or the parameters are not plain."""
        name = m.group("name").lower()
        if name in self.hard:
            return None
        params: tuple[TypedName, ...] = ()
        if (start := m.start("params")) >= 0 and (end := m.end("params")) != start:
            found = self.typed_parameters(text, start, end, source)
            if found is None:
                return None
            params = found
        return m.start("open"), _intern(name), params

    def opening(self, x: str) -> str:
        """A conjunction's opening `(and` (the parenthesis in group `x`, the rest in `x_and`) or an empty
        formula `()` (the closing parenthesis in `x_empty`)."""
        return (rf"(?P<{x}>{self.open}){self.ws}(?:(?P<{x}_and>{re.escape(self.conjunction)}{self.end_word}{self.ws})"
                rf"|(?P<{x}_empty>{re.escape(self.close)}))")

    def part(self, word: str, label: str) -> str:
        """An action's part: its keyword (in group `label`) and the opening of its formula (`opening`) in
        group `{label[0]}`, where it opens so."""
        return rf"{self.ws}(?P<{label}>{re.escape(word)}{self.end_word}{self.ws})(?:{self.opening(label[0])})?"


def _action_parts(t: Terminals, ws: str, gaps: Gaps, name: str, variable: str, number: str, term: str,
                  hard: frozenset[str], scan_literals: Scanner, timed_head: re.Pattern[str],
                  args: Callable[[str, int, int, Anchors], tuple[Constant | Variable, ...] | None]) -> ActionParts:
    end_word = _word_end(t.name)
    w = t.words
    o, c = re.escape(w.open), re.escape(w.close)
    # A parameter list holding a comment (which may hold a parenthesis) is left to the grammar.
    plain = f"[^{o}{c}{re.escape(gaps.commenting)}]*"
    parameters = re.compile(rf"{re.escape(w.parameters)}{end_word}{ws}{o}(?P<params>{plain}){c}{ws}", CASELESS)
    fluent = rf"{o}{ws}(?P<{{0}}_p>{name}){ws}(?P<{{0}}_a>(?:{term}{ws})*){c}"
    assignment = lazy_pattern(  # compiled at the first effect that assigns (start-up)
        rf"{ws}(?P<whole>{o}{ws}(?P<op>{name}){ws}(?P<f>{fluent.format('f')}){ws}"
        rf"(?:(?P<num>{number})|(?P<v>{fluent.format('v')})){ws}{c})", CASELESS)
    assign_ops = w.assign_ops
    variable_rx = re.compile(variable, CASELESS)
    space = re.compile(ws).fullmatch
    name_rx = re.compile(name, CASELESS)
    # a word: up to white space, a comment or a parenthesis (the grammar's, see `gaps_of`)
    word_at = re.compile(rf"{ws}([^{re.escape(gaps.starts + w.open + w.close)}]+)").match

    # `str.split` finds the words of a list whose gaps are only white space it splits at and the grammar
    # ignores: ASCII, without a character `split` cuts at that the grammar does not ignore (`\v`) nor
    # one of the grammar's gaps that `split` does not cut at (a comment's mark). Else a regular expression.
    odd = {c for c in _ASCII if c.isspace() and not space(c)} | set(gaps.unsplittable)
    unsplittable = re.compile(f"[{re.escape(''.join(sorted(odd)))}]").search if odd else None
    # what each word of a parameter list is, looked up once: (VARIABLE, TYPE, DASH or None, lowered)
    kinds: dict[str, tuple[int | None, str]] = {}

    def kind_of(word: str) -> tuple[int | None, str]:
        lowered = _intern(word.lower())
        kind = (_DASH if word == "-" else _VARIABLE if variable_rx.fullmatch(word)
                else _TYPE if lowered not in hard and name_rx.fullmatch(word) else None)
        if len(kinds) < 4096:
            kinds[word] = (kind, lowered)
        return kind, lowered

    def words_of(text: str, start: int, end: int) -> list[tuple[str, int]] | None:
        chunk = text[start:end]
        if chunk.isascii() and (unsplittable is None or unsplittable(chunk) is None):
            found = []
            pos = 0
            for word in chunk.split():
                pos = chunk.find(word, pos)
                found.append((word, start + pos))
                pos += len(word)
            return found
        found = []
        pos = start
        while (m := word_at(text, pos, end)) is not None:
            found.append((m.group(1), m.start(1)))
            pos = m.end(1)
        return found if space(text, pos, end) else None

    def typed_parameters(text: str, start: int, end: int, source: Source) -> tuple[TypedName, ...] | None:
        words = words_of(text, start, end)
        if words is None:
            return None
        out: list[TypedName] = []
        pending: list[tuple[str, int]] = []
        expect_type = False
        for word, begin in words:
            kind, lowered = kinds.get(word) or kind_of(word)
            if expect_type:
                if kind is not _TYPE:
                    return None
                finish = begin + len(word)
                at = Anchors.of(source).at
                anchor, offset = at(begin, len(word))
                type_ = _type_name(anchor, lowered, offset)
                for v, p in pending:
                    anchor, offset = at(p, finish - p)
                    out.append(_typed_name(anchor, v, type_, offset))
                pending = []
                expect_type = False
            elif kind is _DASH:
                if not pending:
                    return None  # a type for no names: the grammar path warns
                expect_type = True
            elif kind is _VARIABLE:
                pending.append((lowered, begin))
            else:
                return None
        if expect_type:
            return None
        at = Anchors.of(source).at
        for v, p in pending:
            anchor, offset = at(p, len(v))
            out.append(_typed_name(anchor, v, None, offset))
        return tuple(out)

    def function_term(m: re.Match[str], label: str, text: str, source: Source) -> FunctionTerm | None:
        function = m.group(label + "_p").lower()
        if function in hard:
            return None
        span = _length_span(source, m, label)
        start, end = m.span(label + "_a")
        arguments = args(text, start, end, Anchors.of(source)) if start != end else ()
        if arguments is None:
            return None
        return FunctionTerm(_intern(function), arguments, span=span)

    def effect_assignment(text: str, pos: int, source: Source) -> tuple[Assign, int] | None:
        m = assignment.match(text, pos)
        if m is None:
            return None
        op = m.group("op").lower()
        target = function_term(m, "f", text, source)
        if op not in assign_ops or target is None:
            return None
        value: Expression | None
        if m.start("num") >= 0:
            number = _number_or_none(m.group("num"))
            if number is None:
                return None
            value = Number(number, span=_length_span(source, m, "num"))
        else:
            value = function_term(m, "v", text, source)
        if value is None:
            return None
        return Assign(op, target, value, span=_length_span(source, m, "whole")), m.end()  # type: ignore[arg-type]

    return ActionParts(ws, o, w.close, w.conjunction, name, number, end_word, hard, parameters, typed_parameters,
                       function_term, fluent, effect_assignment, re.compile(rf"{ws}{c}"), scan_literals,
                       timed_head)


_and, _and_effect, _action = fast_constructor(And), fast_constructor(AndEffect), fast_constructor(Action)
#: reads one element at a position: (node, end), or None where it is not of the shape read
Reader = Callable[[str, int, Source], "tuple[object, int] | None"]
#: reads a formula from a match of `ActionParts.opening` (see `formula_reader`)
FormulaReader = Callable[[re.Match[str] | None, str, int, str, Source], "tuple[object, int] | None"]


def _nothing(text: str, pos: int, source: Source) -> None:
    return None


def formula_reader(closing: re.Pattern[str], kind: Callable[[Span, tuple[object, ...]], object],
                   literals: Scanner, other: Reader) -> FormulaReader:
    """A reader of a condition or effect that is empty `()`, one element, or `(and ...)` of elements,
    the elements being runs of what `literals` reads and single ones `other` reads; the conjunction
    is a `kind` (And or AndEffect). It is given a match `m` of `ActionParts.opening(label)` at `pos`
    (None, or the group unmatched, where the formula does not open so)."""

    def read(m: re.Match[str] | None, label: str, pos: int, text: str, source: Source) -> tuple[object, int] | None:
        if m is None or (begin := m.start(label)) < 0:
            single = literals(text, pos, source)
            if single is not None:
                return (single[0][0], single[1]) if len(single[0]) == 1 else None  # type: ignore[arg-type,index]
            return other(text, pos, source)
        if (end := m.end(label + "_empty")) >= 0:
            return kind(_span(source, begin, end - begin), ()), end
        found: list[object] = []
        end = m.end(label + "_and")
        while True:
            run = literals(text, end, source)
            if run is not None:
                found.extend(run[0])  # type: ignore[arg-type]
                end = run[1]
            if (close := closing.match(text, end)) is not None:
                break
            element = other(text, end, source)
            if element is None:
                return None
            found.append(element[0])
            end = element[1]
        end = close.end()
        return kind(_span(source, begin, end - begin), tuple(found)), end

    return read


def optional_part(m: re.Match[str] | None, label: str, reader: FormulaReader, text: str, end: int,
                  source: Source) -> tuple[object, int] | None:
    """The formula of the action's part that `m` (a match of `ActionParts.part(word, label)`) found,
    read by `reader`, and where it ends; (None, end) where `m` found no such part; None where the
    formula is not of the shape `reader` reads."""
    if m is None or m.start(label) < 0:
        return None, end
    return reader(m, label[0], m.end(label), text, source)


def _action_scanner(parts: ActionParts, w: Words) -> Scanner:
    """A run of simple actions, the bulk of grounded domains: parameters without `either`, and a
    precondition and an effect that are each empty, one flat literal, or a conjunction of flat literals
    (and, in effects, assignments of a flat fluent to a number or a flat fluent). Anything else is left
    to the grammar, action by action."""
    # The header, the parameters and the precondition's opening in one match, as for durative actions
    header = re.compile(rf"{parts.header(w.action).pattern}(?:{parts.parameters.pattern})?"
                        rf"(?:{parts.part(w.precondition, 'precondition')})?", CASELESS)
    effect = lazy_pattern(parts.part(w.effect, "effect"), CASELESS)  # at its first use
    head, closing = parts.head, parts.closing
    precondition_at = formula_reader(closing, _and, parts.scan_literals, _nothing)
    effect_at = formula_reader(closing, _and_effect, parts.scan_literals, parts.effect_assignment)

    def action_at(text: str, pos: int, source: Source) -> tuple[Action, int] | None:
        m = header.match(text, pos)
        if m is None or (named := head(m, text, source)) is None:
            return None
        start, action_name, params = named
        end = m.end()
        if (found := optional_part(m, "precondition", precondition_at, text, end, source)) is None:
            return None
        pre, end = found
        if (found := optional_part(effect.match(text, end), "effect", effect_at, text, end, source)) is None:
            return None
        eff, end = found
        close = closing.match(text, end)
        if close is None:
            return None
        end = close.end()
        return _action(_span(source, start, end - start), action_name, params, pre, eff, ()), end

    return run_scanner(action_at)


@dataclass(frozen=True)
class Gaps:
    """What the Python scanners need to know of the text the grammar ignores between tokens (its
    %ignore'd terminals: white space, comments), as characters: `starts` those that begin it;
    `unsplittable` those of them `str.split` does not split at (a comment's mark); `commenting` those
    that begin an ignored text which may hold a parenthesis (a comment)."""

    starts: str
    unsplittable: str
    commenting: str


def gaps_of(t: Terminals) -> Gaps:
    """`Gaps` read off the grammar's ignored terminals by probing the characters up to U+00FF, alone
    and doubled (a comment may open with two: `//`)."""
    ignored = [re.compile(p, CASELESS) for p in t.ignored]
    parens = (t.words.open, t.words.close)

    def begins(c: str) -> bool:
        return any((m := rx.match(probe)) is not None and m.end() > 0 for rx in ignored for probe in (c, c + c))

    starts = [c for c in map(chr, range(256)) if begins(c)]
    commenting = [c for c in starts
                  if any(rx.fullmatch(lead + p) for rx in ignored for lead in (c, c + c) for p in parens)]
    return Gaps("".join(starts), "".join(c for c in starts if not c.isspace()), "".join(commenting))


@dataclass(frozen=True)
class CharacterClasses:
    """What the compiled scanner needs to know of the grammar's terminals: a class mask per ASCII
    character, the comment's first and last characters, the variable prefix, and NUMBER."""

    table: bytes
    comment_start: str
    comment_end: str
    variable_prefix: str
    number: re.Pattern[str]


NAME_FIRST, NAME_REST, SPACE, VAR_FIRST, VAR_REST, NUMBER_START = 1, 2, 4, 8, 16, 32
_ASCII = [chr(c) for c in range(128)]


def character_classes(t: Terminals) -> CharacterClasses | None:
    """The character classes of the terminals, or None where the terminals do not have the shapes the
    compiled scanner reads: a name is one character of a class followed by any of another; a variable
    a fixed prefix followed by such a name; white space a run of single characters; a comment runs
    from one character to the end of the line. Each shape is checked against the regular expressions
    on probes: every ASCII string of one and two characters, for names the three-character ones
    starting with a name's first character and ending with a name character or a delimiter, and long
    runs of the name characters."""
    w = t.words
    if len(w.open) != 1 or len(w.close) != 1 or not (w.open + w.close + w.negation + w.equals).isascii():
        return None  # the compiled scanner reads one-character parentheses and ASCII keywords
    flags = CASELESS
    name = re.compile(t.name, flags)
    variable = re.compile(t.variable, flags)
    number = re.compile(t.number, flags)
    word = _word_classes(name, "")
    if word is None:
        return None
    prefixes = [c for c in _ASCII if any(variable.fullmatch(c + d) for d in _ASCII)]
    if len(prefixes) != 1 or variable.fullmatch(prefixes[0]):
        return None
    var_word = _word_classes(variable, prefixes[0])
    ignored = [re.compile(p, flags) for p in t.ignored]
    spaces = [p for p in ignored if p.fullmatch(" ")]
    comments = [p for p in ignored if p not in spaces]
    if var_word is None or len(spaces) != 1 or len(comments) != 1:
        return None
    space = {c for c in _ASCII if spaces[0].fullmatch(c)}
    if not spaces[0].fullmatch("".join(sorted(space))) or any(spaces[0].fullmatch(a + b) for a in _ASCII
                                                              for b in _ASCII if not {a, b} <= space):
        return None
    comment = comments[0]
    starts = [c for c in _ASCII if comment.fullmatch(c)]
    ends = [c for c in _ASCII if starts and not comment.fullmatch(starts[0] + c)]
    if len(starts) != 1 or len(ends) != 1 or comment.fullmatch(starts[0] + ends[0] + "a"):
        return None
    if not comment.fullmatch(starts[0] + "é" + "".join(c for c in _ASCII if c != ends[0])):
        return None
    number_start = {c for c in _ASCII if any(number.match(c + d) for d in "0123456789")}
    first, rest = word
    if number_start & first or {starts[0], t.words.open, t.words.close} & (first | rest | space) or prefixes[0] in rest:
        return None
    table = bytearray(128)
    for c in _ASCII:
        table[ord(c)] = ((NAME_FIRST if c in first else 0) | (NAME_REST if c in rest else 0)
                         | (SPACE if c in space else 0) | (VAR_FIRST if c in var_word[0] else 0)
                         | (VAR_REST if c in var_word[1] else 0) | (NUMBER_START if c in number_start else 0))
    return CharacterClasses(bytes(table), starts[0], ends[0], prefixes[0], number)


def cached_character_classes(t: Terminals) -> CharacterClasses | None:
    """`character_classes(t)`, kept in the user's cache folder beside Lark's: the probes take some 50 ms,
    a quarter of building the parser. The file is keyed by the terminals' patterns."""
    shapes = (t.name, t.variable, t.number, t.ignored, t.words.open, t.words.close)
    key = repr(shapes)  # compared whole: no digest (and no hashlib to import at start-up)
    where = user_cache_file("pddl-character-classes-1.data")
    if where is not None:
        try:
            with open(where, "rb") as f:
                saved = marshal.load(f)  # not json: marshal is built in, json an import at start-up
            if saved["key"] == key:
                if saved["classes"] is None:
                    return None
                table, start, end, prefix = saved["classes"]
                return CharacterClasses(bytes.fromhex(table), start, end, prefix, re.compile(t.number, CASELESS))
        except (OSError, EOFError, ValueError, KeyError, TypeError):
            pass  # no cache yet, or not one this version wrote: compute it
    classes = character_classes(t)
    if where is not None:
        found = None if classes is None else [classes.table.hex(), classes.comment_start, classes.comment_end,
                                              classes.variable_prefix]
        try:  # written aside and renamed, so that a parallel process never reads half a file
            partial = f"{where}.{os.getpid()}"
            with open(partial, "wb") as f:
                marshal.dump({"key": key, "classes": found}, f)
            os.replace(partial, where)
        except OSError:
            pass  # a read-only cache folder only costs the probes next time
    return classes


def kept_terminals(language: str, key: str, read: Callable[[], Terminals]) -> tuple[Terminals, Gaps]:
    """`read()` and `gaps_of` it, kept in the user's cache folder (a file per language) under `key` (what
    they are read off: the parser image's key, and the modules that read them): reading the grammar's
    rules and probing its ignored terminals cost a fresh process about a millisecond and a half."""
    key += "|" + "|".join(_stamp(path) for path in (__file__, sys.modules[read.__module__].__file__))
    where = user_cache_file(f"{language}-terminals-1.data")
    if where is not None:
        try:
            with open(where, "rb") as f:
                saved = marshal.load(f)
            if saved["key"] == key:
                name, variable, number, ignored, hard, words = saved["terminals"]
                return Terminals(name, variable, number, ignored, hard, Words(*words)), Gaps(*saved["gaps"])
        except (OSError, EOFError, ValueError, KeyError, TypeError):
            pass  # none kept yet, or not by this version: read them
    t = read()
    gaps = gaps_of(t)
    if where is not None:
        words = tuple(getattr(t.words, name) for name in Words.__dataclass_fields__)
        kept = (t.name, t.variable, t.number, t.ignored, t.hard_keywords, words)
        try:  # written aside and renamed, so that a parallel process never reads half a file
            partial = f"{where}.{os.getpid()}"
            with open(partial, "wb") as f:
                marshal.dump({"key": key, "terminals": kept, "gaps": (gaps.starts, gaps.unsplittable,
                                                                       gaps.commenting)}, f)
            os.replace(partial, where)
        except (OSError, ValueError):  # ValueError: a value marshal cannot keep
            pass
    return t, gaps


def _stamp(path: str | None) -> str:
    try:
        status = os.stat(path) if path else None
    except OSError:
        status = None
    return f"{status.st_mtime_ns}:{status.st_size}" if status else "-"


def _word_classes(rx: re.Pattern[str], prefix: str) -> tuple[set[str], set[str]] | None:
    """(first, rest) if `rx` matches exactly `prefix` + one character of first + any of rest."""
    first = {c for c in _ASCII if rx.fullmatch(prefix + c)}
    if not first:
        return None
    lead = min(first)
    rest = {c for c in _ASCII if rx.fullmatch(prefix + lead + c)}

    def described(word: str) -> bool:
        return bool(rx.fullmatch(prefix + word)) == (word[0] in first and all(c in rest for c in word[1:]))

    probes = (a + b for a in _ASCII for b in _ASCII)
    # A character allowed only between others (`a-b`), or a bounded length, shows in longer words.
    longer = (lead + b + c for b in _ASCII for c in sorted(rest | set(" ()?:-.")))
    ordered = "".join(sorted(rest))
    runs = (lead + c * n for c in rest for n in (3, 8, 40))
    mixed = (lead + ordered * 3, lead + ordered[::-1] * 3)
    if not all(map(described, (*probes, *longer, *runs, *mixed))):
        return None
    return first, rest


def _compiled_scanner(classes: CharacterClasses, words: Words, hard: frozenset[str], init_mode: bool,
                      fallback: Scanner) -> Scanner:
    assert speedups is not None
    number = classes.number

    @lru_cache(maxsize=4096)  # called for every number of an :init: most are repeats
    def number_value(word: str) -> int | Fraction | None:
        return _number_or_none(word) if number.fullmatch(word) else None

    # The same constructors as the Python scanners' (Makers, with the extension built), fields in
    # `frozen.constructor_fields` order; nodes anchored as the Python scanners anchor them.
    return speedups.FlatScanner(
        classes.table, ord(classes.comment_start), ord(classes.comment_end), ord(classes.variable_prefix),
        ord(words.open), ord(words.close), words.negation.lower(), words.equals.lower(), init_mode, hard,
        _span, _atom, _not, _constant, _variable, fast_constructor(FunctionTerm),
        fast_constructor(InitAssignment), fast_constructor(Number), number_value, fallback, Anchors.of)


def _word_end(name: str) -> str:
    """A look-ahead saying that a keyword ends here: no character follows that would continue a NAME."""
    return f"(?![{re.escape(_name_rest(name))}])"


def _name_rest(name: str) -> str:
    """The characters that continue a NAME, read off the grammar's NAME by probing the ASCII characters,
    as `character_classes` does."""
    rx = re.compile(name, CASELESS)
    lead = next(c for c in _ASCII if rx.fullmatch(c))
    return "".join(c for c in _ASCII if rx.fullmatch(lead + c))


def _number_or_none(word: str) -> int | Fraction | None:
    """The value of a NUMBER; None (the scanner declines) past the bound, for the grammar path to
    report it."""
    try:
        return parse_number(word)
    except NumberOutOfRange:
        return None


def _length_span(source: Source, m: re.Match[str], group: int | str) -> Span:
    start, end = m.span(group)
    return _span(source, start, end - start)


def _anchored(source: Source, m: re.Match[str], group: int | str, field: object) -> tuple[Span, object, int]:
    """The arguments of a one-field node's fast constructor at `group`: anchor, field, offset."""
    start, end = m.span(group)
    anchor, offset = Anchors.of(source).at(start, end - start)
    return anchor, field, offset


def _noncapturing(pattern: str) -> str:
    """The same regular expression with its capturing groups made non-capturing."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", pattern)
