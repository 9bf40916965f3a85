"""Linear change with constant coefficients in closed form: exponential polynomials, their values and
their first roots (Rolle's theorem and bisection), against values computed by hand with `math`."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.semantics.continuous import Ground, flows, ground_all
from pddltools.semantics.exponential import ExpMotion, ExpPoly, NotLinear, first_exp_root
from pddltools.semantics.polynomial import PRECISION, Poly

F = Fraction


def exp_term(coefficient: Fraction, rate: Fraction) -> ExpPoly:
    return ExpPoly({rate: Poly.const(coefficient)})


def test_e_to_the_t_minus_3t_has_two_roots_found_in_order() -> None:
    f = exp_term(F(1), F(1)) - ExpPoly.poly(Poly.of((0, 3)))
    first = first_exp_root(f, 0, 10)
    assert first is not None and float(first) == pytest.approx(0.6190612867359451, abs=1e-14)
    second = first_exp_root(f, first, 10)
    assert second is not None and float(second) == pytest.approx(1.5121345516578424, abs=1e-14)
    assert first_exp_root(f, second, 10) is None
    # reported on the far side of the root, within PRECISION: the sign has already changed there
    assert f.sign(first) < 0 and f.sign(first - PRECISION) > 0


def test_two_bodies_cooling_at_different_rates_meet_once() -> None:
    # 80 e^(-t/10) = 100 e^(-t/5): t = 10 ln 1.25
    f = exp_term(F(80), F(-1, 10)) - exp_term(F(100), F(-1, 5))
    root = first_exp_root(f, 0, 100)
    assert root is not None and float(root) == pytest.approx(10 * math.log(1.25), abs=1e-13)


DOMAIN = """(define (domain d) (:requirements :fluents :time) (:functions (x) (y) (room))
  (:action go :parameters () :precondition (and) :effect (and))
  (:process relax :parameters () :precondition (and) :effect (and
     (decrease (x) (* #t (* 0.5 (- (x) 6))))
     (increase (y) (* #t (- (x) (y)))))))"""


def motion(domain: str = DOMAIN, init: str = "(= (x) 2) (= (y) 0)") -> ExpMotion:
    task = GroundedTask(parse_domain(domain), parse_problem(
        f"(define (problem p) (:domain d) (:init {init} (= (room) 20)) (:goal (and)))"))
    state = task.initial_state()
    process: Ground = ground_all(task.evaluator, task.domain.processes)[0]
    return ExpMotion(task.evaluator, state, flows(task.evaluator, process, state))


def test_a_chain_of_linear_rates_is_solved_in_closed_form() -> None:
    # x' = -(x - 6)/2 from 2: x = 6 - 4 e^(-t/2); y' = x - y from 0: y = 6 - 8 e^(-t/2) + 2 e^(-t)
    found = motion()
    for t in (F(0), F(1, 3), F(2), F(7)):
        x, y = found.polys[("x",)].at(t), found.polys[("y",)].at(t)
        assert float(x) == pytest.approx(6 - 4 * math.exp(-t / 2), abs=1e-14)
        assert float(y) == pytest.approx(6 - 8 * math.exp(-t / 2) + 2 * math.exp(-t), abs=1e-14)
    assert found.at(F(2)).values[("room",)] == 20


def test_what_is_not_linear_with_constant_coefficients_is_refused() -> None:
    with pytest.raises(NotLinear):
        motion(DOMAIN.replace("(* 0.5 (- (x) 6))", "(* (x) (- (x) 6))"))        # x^2
    with pytest.raises(NotLinear):
        motion(DOMAIN.replace("(- (x) (y))", "(- (x) (* (x) (y)))"))            # a factor that changes


def test_coupled_linear_systems_with_rational_eigenvalues_are_solved() -> None:
    # two connected tanks: x' = (y - x) / 2, y' = (x - y) / 2 from 10 and 0 (eigenvalues 0 and -1):
    # x = 5 + 5 e^(-t), y = 5 - 5 e^(-t)
    tanks = DOMAIN.replace("(decrease (x) (* #t (* 0.5 (- (x) 6))))", "(increase (x) (* #t (/ (- (y) (x)) 2)))") \
        .replace("(increase (y) (* #t (- (x) (y))))", "(increase (y) (* #t (/ (- (x) (y)) 2)))")
    found = motion(tanks, "(= (x) 10) (= (y) 0)")
    for t in (F(0), F(1, 2), F(3)):
        assert float(found.polys[("x",)].at(t)) == pytest.approx(5 + 5 * math.exp(-t), abs=1e-14)
        assert float(found.polys[("y",)].at(t)) == pytest.approx(5 - 5 * math.exp(-t), abs=1e-14)
    # an oscillator, x' = y and y' = -x: eigenvalues ±i, no closed form here (--delta)
    spring = DOMAIN.replace("(decrease (x) (* #t (* 0.5 (- (x) 6))))", "(increase (x) (* #t (y)))") \
        .replace("(increase (y) (* #t (- (x) (y))))", "(decrease (y) (* #t (x)))")
    with pytest.raises(NotLinear, match="not rational"):
        motion(spring, "(= (x) 1) (= (y) 0)")
