"""Linear forms over fluents, and the stretches of time in which every rate is constant.

Most PDDL+ domains change fluents at rates that the stretch does not change (a constant, or a fluent no
running process changes), and compare fluents linearly (`(>= (level) (capacity))`). Then, over a
stretch, a changing fluent is `x + r t` and a comparison's `left - right` is `a + b t`, where `a` is
the form's value in the state at the stretch's start and `b` the dot product of its coefficients with
the rates: no polynomial is built from the syntax tree at every stretch, and the first crossing is one
division (`polynomial.line_root`). Each comparison and each rate is turned into its form once per task
(`linear`); what is not linear (a product of fluents, a division by one, an object fluent's argument)
has no form, and its stretches go through `continuous.Motion`, the general path that this one must
agree with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from pddltools.pddl import ast
from pddltools.semantics.errors import SemanticsError
from pddltools.semantics.evaluate import Evaluator
from pddltools.semantics.grounding import Binding
from pddltools.semantics.polynomial import Number, line_at, parts, ratio
from pddltools.semantics.state import FluentValue, GroundFluent, State


@dataclass(frozen=True, slots=True)
class Linear:
    """`constant + sum(coefficient * fluent)`, one term per fluent, no zero coefficient."""

    constant: Number
    terms: tuple[tuple[GroundFluent, Number], ...]

    @property
    def fluents(self) -> frozenset[GroundFluent]:
        return frozenset(f for f, _ in self.terms)

    def value(self, values: Mapping[GroundFluent, FluentValue]) -> Number | None:
        """The value in a state's `values`, or None when a fluent it reads is undefined or an object
        (the general path then says which)."""
        found = self.value_parts(values)
        return None if found is None else ratio(*found)

    def value_parts(self, values: Mapping[GroundFluent, FluentValue]) -> tuple[int, int] | None:
        """`value` as a numerator and a positive denominator, not reduced: summed over integers, since
        `Fraction` operations cost microseconds each and this is asked at every stretch."""
        n, d = parts(self.constant)
        for fluent, coefficient in self.terms:
            x = values.get(fluent)
            if type(x) is int:
                xn, xd = x, 1
            elif type(x) is Fraction:
                xn, xd = x.numerator, x.denominator
            else:
                return None  # undefined, or an object
            cn, cd = parts(coefficient)
            n, d = n * cd * xd + cn * xn * d, d * cd * xd
        return n, d

    def fold(self, known: Mapping[GroundFluent, Number]) -> Linear:
        """The form with the fluents of `known` (those nothing changes) replaced by their values."""
        if not any(f in known for f, _ in self.terms):
            return self
        constant: Number = self.constant
        terms = []
        for fluent, coefficient in self.terms:
            value = known.get(fluent)
            if value is None:
                terms.append((fluent, coefficient))
            else:
                constant += coefficient * value
        return Linear(_whole(constant), tuple(terms))

    def slope(self, rates: Mapping[GroundFluent, Number]) -> Number:
        """How fast the value changes when the fluents change at `rates` (the others stand still)."""
        total: Number = 0
        for fluent, coefficient in self.terms:
            rate = rates.get(fluent)
            if rate:
                total += coefficient * rate
        return total


def _combine(forms: list[tuple[Linear, Number]]) -> Linear:
    """`sum(factor * form)`, terms of one fluent merged and zero terms dropped."""
    constant: Number = 0
    terms: dict[GroundFluent, Number] = {}
    for form, factor in forms:
        constant += factor * form.constant
        for fluent, coefficient in form.terms:
            terms[fluent] = terms.get(fluent, 0) + factor * coefficient
    return Linear(_whole(constant), tuple((f, _whole(c)) for f, c in terms.items() if c))


def _whole(x: Number) -> Number:
    return x.numerator if isinstance(x, Fraction) and x.denominator == 1 else x


def _constant(value: Number) -> Linear:
    return Linear(_whole(value), ())


def linear(ev: Evaluator, expr: ast.Expression, b: Binding, state: State) -> Linear | None:
    """`expr` as a linear form over fluents, or None when it is not one (or cannot be grounded here:
    the general path reports that in its own words). `state` only grounds nothing: a fluent's
    arguments must be variables and constants, so which fluent it is does not depend on the state."""
    if isinstance(expr, ast.Number):
        return _constant(expr.value)
    if isinstance(expr, ast.FunctionTerm):
        if any(not isinstance(a, ast.Variable | ast.Constant) for a in expr.args):
            return None
        try:
            key = ev.fluent(expr, b, state) if expr.args else (expr.function,)
        except SemanticsError:
            return None
        return Linear(0, ((key, 1),))
    if isinstance(expr, ast.Constant):
        return Linear(0, (((expr.name,), 1),)) if expr.name in ev.constant_functions else None
    if isinstance(expr, ast.Variable):
        value = b.get(expr.name)
        return _constant(value) if isinstance(value, int | Fraction) else None
    if not isinstance(expr, ast.Arithmetic):
        return None
    args = [linear(ev, a, b, state) for a in expr.args]
    if any(a is None for a in args):
        return None
    forms = [a for a in args if a is not None]
    if expr.op == "+":
        return _combine([(a, 1) for a in forms])
    if expr.op == "-":
        return _combine([(forms[0], -1)]) if len(forms) == 1 else _combine(
            [(forms[0], 1), *((a, -1) for a in forms[1:])])
    if expr.op == "*":
        varying = [a for a in forms if a.terms]
        if len(varying) > 1:
            return None  # a product of fluents: not linear
        factor: Number = 1
        for a in forms:
            if not a.terms:
                factor *= a.constant
        return _combine([(varying[0] if varying else _constant(1), factor)])
    result = forms[0]
    for a in forms[1:]:
        if a.terms or not a.constant:
            return None  # by a fluent, or by zero: the general path says why
        result = _combine([(result, Fraction(1) / a.constant)])
    return result


def difference(ev: Evaluator, comparison: ast.Comparison, b: Binding, state: State) -> Linear | None:
    """`left - right` of a comparison as a linear form: its truth changes only where this is 0."""
    left, right = linear(ev, comparison.left, b, state), linear(ev, comparison.right, b, state)
    if left is None or right is None:
        return None
    return _combine([(left, 1), (right, -1)])


class Drift:
    """The state `t` after a stretch's start, the fluents of `rates` changing at those constant rates
    (the same values as `continuous.Motion.at` over the same stretch); `t` counts units of 1/`per`."""

    __slots__ = ("per", "rates", "state")

    def __init__(self, state: State, rates: dict[GroundFluent, Number], per: int = 1) -> None:
        self.state = state
        self.rates = rates
        self.per = per

    def at(self, t: Number) -> State:
        start = self.state.values
        values: dict[GroundFluent, FluentValue] = dict(start)
        for fluent, rate in self.rates.items():
            x = start[fluent]
            assert not isinstance(x, str)  # checked when the rates were found
            values[fluent] = line_at(x, rate, t, self.per)
        return State(self.state.atoms, values)  # the atoms are shared: time changes only fluents

    def advance(self, t: Number) -> State:
        """`at(t)`, written into the start state's own set and dict (a thawed state, `State.thaw`) by
        `State.advance`: for a loop that keeps no state behind it. The start state is not to be used
        afterwards."""
        start = self.state.values
        values: dict[GroundFluent, FluentValue] = {}
        for fluent, rate in self.rates.items():
            x = start[fluent]
            assert not isinstance(x, str)  # checked when the rates were found
            values[fluent] = line_at(x, rate, t, self.per)
        return self.state.advance((), (), values)


def drifted(state: State, rates: dict[GroundFluent, Number], t: Number, per: int = 1) -> State | None:
    """`Drift(state, rates, per).advance(t)` (the start state not to be used again), or None when a
    changing fluent has no numeric value: for a caller that hands such a stretch to another path."""
    values = state.values
    moved: dict[GroundFluent, FluentValue] = {}
    for fluent, rate in rates.items():
        x = values.get(fluent)
        if x is None or isinstance(x, str):
            return None
        moved[fluent] = line_at(x, rate, t, per)
    return state.advance((), (), moved)
