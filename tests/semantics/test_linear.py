"""The linear path of PDDL+ stretches (`semantics.linear`) gives what the general polynomial path
(`continuous.Motion`, `polynomial.first_root`) gives, on random rational inputs: a comparison's value,
the fluents' values at a time, and the first crossing."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.pddl import ast
from pddltools.pddl.changes import static_functions
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.semantics.continuous import Motion, comparisons, flows, ground_all
from pddltools.semantics.linear import Drift, difference, linear
from pddltools.semantics.polynomial import first_root, line_at, line_is_zero, line_root, line_root_parts, parts

rational = st.one_of(st.integers(-30, 30), st.fractions(max_denominator=25).filter(lambda x: abs(x) <= 30))
# an initial value is a decimal in PDDL: hundredths (a coefficient in the domain is any rational)
decimal = st.integers(-3000, 3000).map(lambda n: Fraction(n, 100))


def pddl(x: Fraction | int) -> str:
    """A rational in PDDL, whose numbers are decimals: a division, read back exactly."""
    x = Fraction(x)
    return f"(/ {x.numerator} {x.denominator})"


def task(a: Fraction, b: Fraction, k: Fraction, x: Fraction, y: Fraction, r: Fraction) -> GroundedTask:
    domain = f"""(define (domain d) (:requirements :fluents :time)
      (:functions (x) (y) (r))
      (:process p :parameters () :precondition (and)
        :effect (and (increase (x) (* #t (* 2 (r)))) (decrease (y) (* (r) #t))))
      (:event e :parameters () :precondition (and (>= (- (+ (* {pddl(a)} (x)) (* (y) {pddl(b)})) {pddl(k)}) 0))
        :effect (and)))"""
    problem = f"""(define (problem q) (:domain d)
      (:init (= (x) {float(x)}) (= (y) {float(y)}) (= (r) {float(r)})) (:goal (and)))"""
    return GroundedTask(parse_domain(domain), parse_problem(problem))


@settings(max_examples=60, deadline=None)
@given(rational, rational, rational, decimal, decimal, decimal, rational.filter(lambda t: t > 0))
def test_linear_path_agrees_with_the_polynomial_path(a: Fraction, b: Fraction, k: Fraction, x: Fraction,
                                                     y: Fraction, r: Fraction, t: Fraction) -> None:
    grounded = task(a, b, k, x, y, r)
    ev, state = grounded.evaluator, grounded.initial_state()
    (process,) = ground_all(ev, grounded.domain.processes)
    (event,) = ground_all(ev, grounded.domain.events)
    ((comparison, binding),) = comparisons(ev, event.schema.precondition, event.binding)
    form = difference(ev, comparison, binding, state)
    assert form is not None
    left, right = ev.number(comparison.left, binding, state), ev.number(comparison.right, binding, state)
    assert form.value(state.values) == left - right

    moving = flows(ev, process, state)
    motion = Motion(ev, state, moving)
    rates = {}
    for flow in moving:
        rate = linear(ev, flow.rate, flow.binding, state)
        assert rate is not None
        value = rate.value(state.values)
        assert value is not None
        rates[flow.fluent] = rates.get(flow.fluent, 0) + flow.sign * value
    assert Drift(state, rates).at(t).values == motion.at(t).values

    polynomial = motion.difference(comparison, binding)
    start, slope = form.value(state.values), form.slope(rates)
    assert start is not None
    assert (start, slope) == (*polynomial.c, 0, 0)[:2]  # the zero polynomial is ()
    if slope:
        assert line_root(start, slope, 0, t) == first_root(polynomial, 0, t)
    # the integer forms the validator uses: a root, and a zero, in ticks of 1/per
    (n0, d0), (n1, d1) = parts(start), parts(slope)
    for per in (1, 8):
        assert line_at(start, slope, t, per) == polynomial.at(Fraction(t) / per)
        assert line_is_zero(n0, d0, n1, d1, t, per) == (polynomial.at(Fraction(t) / per) == 0)
        if slope:
            root = line_root_parts(n0, d0, n1, d1, 0, t, per)
            assert root == (None if (real := first_root(polynomial, 0, Fraction(t) / per)) is None else real * per)
            if root is not None:
                assert line_is_zero(n0, d0, n1, d1, root, per)


def test_unchanged_functions_fold_into_constants() -> None:
    grounded = task(Fraction(1), Fraction(2), Fraction(3), Fraction(4), Fraction(5), Fraction(1, 2))
    ev, state = grounded.evaluator, grounded.initial_state()
    assert static_functions(grounded.domain) == {"r"}  # x and y change, r never does
    rate = linear(ev, ast.Arithmetic("*", (ast.Number(2), ast.FunctionTerm("r", ()))), {}, state)
    assert rate is not None and rate.fold({("r",): Fraction(1, 2)}).terms == ()
    assert rate.fold({("r",): Fraction(1, 2)}).constant == 1
    # a product of fluents is not linear: the general path takes it
    assert linear(ev, ast.Arithmetic("*", (ast.FunctionTerm("x", ()), ast.FunctionTerm("y", ()))), {}, state) is None
