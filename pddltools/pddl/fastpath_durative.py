"""The fast path for runs of simple durative actions, the bulk of grounded temporal domains.

Each `(:durative-action ...)` fed token by token through the LALR machinery costs its header, its
`:duration (= ?duration 1.0)` and a dozen builder callbacks on top of its timed literals. Here a
durative action is read with regular expressions and the timed-literal scanners of `fastpath.py`, and
its node built directly, when it has the shape most of the corpus writes:

- parameters without `either` (read as the action scanner reads them);
- a duration `(OP VARIABLE E)`, OP one of the grammar's comparison words, E a simple expression;
- a condition that is empty, one timed element, or `(and ...)` of timed elements: timed flat literals
  (`(at start L)`, `(at end L)`, `(over all L)`) and timed comparisons of two simple expressions;
- an effect that is empty, one timed element, or `(and ...)` of timed elements: timed flat literals
  and timed assignments of a flat fluent to a number or a flat fluent.

A simple expression is a NUMBER, a VARIABLE, a flat fluent `(f a ?x)`, or `(OP x y)` with OP one of the
grammar's arithmetic words and x, y of the first three kinds. Every word comes from the grammar (`Words`,
read off its rules); anything else declines (returns None) and the grammar reads that action.
tests/pddl/test_corpus.py proves the nodes equal to the grammar path's on every file of the corpus.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Collection

from pddltools.diagnostics import Source
from pddltools.pddl.ast import Arithmetic, Comparison, DurativeAction, Expression, Variable
from pddltools.pddl.ast import Number as NumberNode
from pddltools.pddl.fastpath import (
    OVER,
    ActionParts,
    Reader,
    Scanner,
    Words,
    _and,
    _and_effect,
    _number_or_none,
    _timed,
    formula_reader,
    optional_part,
    run_scanner,
)
from pddltools.syntax.frozen import fast_constructor
from pddltools.syntax.frozen import new_span as _span
from pddltools.syntax.lexing import CASELESS

# built without the frozen __init__, fields in `fields(cls)` order: span first
_arithmetic, _comparison = fast_constructor(Arithmetic), fast_constructor(Comparison)
_durative_action, _number = fast_constructor(DurativeAction), fast_constructor(NumberNode)
_variable = fast_constructor(Variable)


def durative_action_scanner(parts: ActionParts, w: Words, variable: str, scan_conditions: Scanner,
                            scan_effects: Scanner, condition_times: Collection[object]) -> Scanner:
    """A scanner of a run of simple durative actions (see the module's docstring). `variable` is the
    grammar's VARIABLE pattern; `scan_conditions` and `scan_effects` the timed-literal scanners;
    `condition_times` the times conditions take (`over all` marked with OVER)."""
    ws, o, c, end_word = parts.ws, parts.open, re.escape(w.close), parts.end_word
    head, closing = parts.head, parts.closing

    def words(found: Collection[str]) -> str:
        # the longest first, so that `<=` is not read as `<` followed by `=`
        return "|".join(re.escape(x) for x in sorted(found, key=lambda x: (-len(x), x)))

    # An operator word must end where the grammar's lexer ends it: no NAME character may follow.
    comparison_ops = words(w.comparison_ops)
    condition = re.compile(parts.part(w.condition, "condition"), CASELESS)
    effect = re.compile(parts.part(w.da_effect, "effect"), CASELESS)
    duration = re.compile(rf"{ws}{re.escape(w.duration)}{end_word}{ws}", CASELESS)
    # The usual beginning in one match: the header, the parameters, a duration `(= ?duration NUMBER)`
    # and the condition's opening. Each part is optional; one not matched here is read on its own.
    prelude = re.compile(
        rf"{parts.header(w.durative_action).pattern}(?:{parts.parameters.pattern})?"
        rf"(?:{ws}{re.escape(w.duration)}{end_word}{ws}(?P<dur>{o}{ws}(?P<dop>{comparison_ops}){end_word}{ws}"
        rf"(?P<dvar>{variable}){ws}(?P<dnum>{parts.number}){ws}{c}))?(?:{parts.part(w.condition, 'condition')})?",
        CASELESS)
    effect_times = frozenset(t for t in condition_times if not isinstance(t, tuple))

    comparison_head = re.compile(rf"{ws}(?P<whole>{o}){ws}(?P<op>{comparison_ops}){end_word}", CASELESS)
    fluent = parts.fluent.format("f")
    operand = re.compile(rf"{ws}(?:(?P<num>{parts.number})|(?P<var>{variable})|(?P<f>{fluent})|"
                         rf"(?P<arith>{o}){ws}(?P<op>{words(w.arithmetic_ops)}){end_word})", CASELESS)
    g = operand.groupindex
    num_, var_, arith_, op_ = g["num"], g["var"], g["arith"], g["op"]
    function_term = parts.function_term

    def expression(text: str, pos: int, source: Source, nested: bool = False) -> tuple[Expression, int] | None:
        """A simple expression at `pos`; `nested`: inside an arithmetic one, which is not read again."""
        m = operand.match(text, pos)
        if m is None:
            return None
        begin, end = m.span()
        if m.start(num_) >= 0:
            begin = m.start(num_)
            value = _number_or_none(m.group(num_))
            return None if value is None else (_number(_span(source, begin, end - begin), value), end)
        if m.start(var_) >= 0:
            begin = m.start(var_)
            return _variable(_span(source, begin, end - begin), sys.intern(m.group(var_).lower())), end
        if m.start(arith_) < 0:
            term = function_term(m, "f", text, source)
            return None if term is None else (term, end)
        if nested:
            return None
        begin = m.start(arith_)
        first = expression(text, end, source, True)
        if first is None:
            return None
        second = expression(text, first[1], source, True)
        if second is None or (close := closing.match(text, second[1])) is None:
            return None
        end = close.end()
        return _arithmetic(_span(source, begin, end - begin), m.group(op_).lower(), (first[0], second[0])), end

    def comparison(text: str, pos: int, source: Source) -> tuple[Comparison, int] | None:
        m = comparison_head.match(text, pos)
        if m is None:
            return None
        left = expression(text, m.end(), source)
        if left is None:
            return None
        right = expression(text, left[1], source)
        if right is None or (close := closing.match(text, right[1])) is None:
            return None
        begin, end = m.start("whole"), close.end()
        return _comparison(_span(source, begin, end - begin), m.group("op").lower(), left[0], right[0]), end

    timed_head = parts.timed_head

    def timed(times: Collection[object], inner: Reader) -> Reader:
        """`(at start X)` and the like, for X read by `inner` (a comparison, an assignment)."""

        def read(text: str, pos: int, source: Source) -> tuple[object, int] | None:
            m = timed_head.match(text, pos)
            if m is None:
                return None
            at = m.group("at")
            time = at.lower() if at is not None else (OVER, m.group("over").lower())
            if time not in times:
                return None
            found = inner(text, m.end(), source)
            if found is None or (close := closing.match(text, found[1])) is None:
                return None
            begin, end = m.start("whole"), close.end()
            word = time[1] if isinstance(time, tuple) else time
            return _timed(_span(source, begin, end - begin), word, found[0]), end

        return read

    timed_comparison = timed(condition_times, comparison)
    timed_assignment = timed(effect_times, parts.effect_assignment)

    condition_at = formula_reader(closing, _and, scan_conditions, timed_comparison)
    effect_at = formula_reader(closing, _and_effect, scan_effects, timed_assignment)

    def action_at(text: str, pos: int, source: Source) -> tuple[DurativeAction, int] | None:
        m = prelude.match(text, pos)
        if m is None or (named := head(m, text, source)) is None:
            return None
        start, action_name, params = named
        end = m.end()
        value: object = None
        if (begin := m.start("dur")) >= 0:  # `(= ?duration NUMBER)`, read whole by the prelude
            number = _number_or_none(m.group("dnum"))
            if number is None:
                return None
            var_start, var_end = m.span("dvar")
            num_start, num_end = m.span("dnum")
            value = _comparison(_span(source, begin, m.end("dur") - begin), m.group("dop").lower(),
                                _variable(_span(source, var_start, var_end - var_start),
                                          sys.intern(m.group("dvar").lower())),
                                _number(_span(source, num_start, num_end - num_start), number))
        elif (k := duration.match(text, end)) is not None:
            read = comparison(text, k.end(), source)
            if read is None:
                return None
            value, end = read
        c_match = m if m.start("condition") >= 0 else condition.match(text, end)
        if (found := optional_part(c_match, "condition", condition_at, text, end, source)) is None:
            return None
        condition_value, end = found
        if (found := optional_part(effect.match(text, end), "effect", effect_at, text, end, source)) is None:
            return None
        effect_value, end = found
        close = closing.match(text, end)
        if close is None:
            return None
        end = close.end()
        return _durative_action(_span(source, start, end - start), action_name, params, value,
                                condition_value, effect_value), end

    return run_scanner(action_at)
