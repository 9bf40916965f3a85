"""PDDL+ semantics in small cases: polynomials' first roots, exact and not; processes that start just
after a happening; processes that cannot settle; what a failure report names."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.semantics.polynomial import PRECISION, Poly, first_root
from pddltools.validate import validate_plan

F = Fraction


@pytest.mark.parametrize(("coefficients", "lo", "hi", "root"), [
    ((-3, 2), 0, 10, F(3, 2)),                 # 2t - 3
    ((-3, 2), F(3, 2), 10, None),              # the root is not after lo
    ((-3, 2), 0, F(3, 2), F(3, 2)),            # hi itself counts
    ((-10, 0, F(49, 10)), 0, 5, F(10, 7)),    # 4.9 t^2 - 10: t^2 = 100/49, rational
    ((6, -11, 6, -1), 0, 10, 1),               # (t-1)(t-2)(t-3), found exactly by bisection
    ((6, -11, 6, -1), 1, 10, 2),
    ((1, 0, 1), 0, 10, None),                  # t^2 + 1: no real root
    ((4, -4, 1), 0, 10, 2),                    # (t-2)^2: a double root touches 0
])
def test_first_root_exact(coefficients: tuple[F, ...], lo: F, hi: F, root: F | None) -> None:
    assert first_root(Poly.of(coefficients), F(lo), F(hi)) == root


def test_irrational_root_is_bracketed_and_on_the_far_side() -> None:
    p = Poly.of((-2, 0, 1))                    # t^2 - 2: root sqrt 2
    r = first_root(p, F(0), F(10))
    assert r is not None and r * r > 2 and (r - PRECISION) ** 2 < 2
    assert len(str(float(r))) <= 18            # the shortest decimal in the bracket
    cubic = first_root(Poly.of((-2, 0, 0, 1)), F(0), F(10))  # 2^(1/3) = 1.2599...
    assert cubic is not None and cubic**3 > 2 and (cubic - PRECISION) ** 3 < 2


def test_sign_after_reads_the_first_derivative_that_is_not_zero() -> None:
    assert Poly.of((0, 0, 1)).sign_after(F(0)) == 1     # t^2 at 0
    assert Poly.of((0, -1)).sign_after(F(0)) == -1      # -t at 0
    assert Poly.of(()).sign_after(F(0)) == 0


DOMAIN = """(define (domain cart)
  (:requirements :fluents :time)
  (:predicates (on))
  (:functions (x) (v) (a))
  (:action start :parameters () :precondition (and (not (on))) :effect (and (on)))
  (:action check :parameters () :precondition (and (>= (x) 9) (<= (x) 9)) :effect (and))
  (:process push :parameters () :precondition (and (on)) :effect (and (increase (v) (* #t (a)))))
  (:process roll :parameters () :precondition (and (> (v) 0)) :effect (and (increase (x) (* #t (v))))))
"""
PROBLEM = "(define (problem c) (:domain cart) (:init (= (x) 0) (= (v) 0) (= (a) 2)) (:goal (and)))"


def task(domain: str = DOMAIN, problem: str = PROBLEM) -> GroundedTask:
    return GroundedTask(parse_domain(domain), parse_problem(problem))


def test_a_process_whose_condition_holds_just_after_the_happening_runs() -> None:
    # At 0, v = 0 and roll's (> (v) 0) is false, but push makes v = 2t at once: roll runs from 0 on and
    # x = t^2, 9 at 3.
    report = validate_plan(task(), "0: (start)\n3: (check)\n")
    assert report.valid, report.message
    late = validate_plan(task(), "0: (start)\n2.5: (check)\n")       # x = 6.25
    assert late.reason == "precondition" and late.failed_time == F(5, 2)
    assert "((x) = 6.25)" in " ".join(late.unsatisfied) and "the process (roll)" in late.message


def test_processes_that_stop_as_soon_as_they_start_are_reported() -> None:
    # drain runs while (>= (x) 0) and lowers x: at x = 0 it runs, and just after it x < 0 and it stops,
    # and then x stays 0 and it runs again: it has no meaning from time 0 on.
    domain = """(define (domain d) (:requirements :fluents :time) (:functions (x))
      (:action go :parameters () :precondition (and) :effect (and))
      (:process drain :parameters () :precondition (and (>= (x) 0)) :effect (and (decrease (x) (* #t 1)))))"""
    problem = "(define (problem p) (:domain d) (:init (= (x) 0)) (:goal (and)))"
    report = validate_plan(task(domain, problem), "1: (go)\n")
    assert report.reason == "unsettled" and report.failed_time == 0 and "(drain)" in report.message


def test_a_timed_initial_literal_switches_a_process_on() -> None:
    # (on) from the literal at 1: push runs from 1, v = 2 (t - 1), roll from just after 1, x = (t - 1)^2,
    # which is 9 at 4; a step at 4 given a duration is read as the instantaneous action it is.
    timed = PROBLEM.replace("(:init", "(:init (at 1 (on))")
    assert validate_plan(task(problem=timed), "4: (check)\n").valid
    assert validate_plan(task(problem=timed), "4: (check) [2]\n").valid
    early = validate_plan(task(problem=timed), "3: (check)\n")       # x = 4
    assert early.reason == "precondition" and early.failed_time == 3
    assert "((x) = 4)" in " ".join(early.unsatisfied) and "the process (roll)" in early.message
