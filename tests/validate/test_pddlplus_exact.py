"""The fast paths of PDDL+ validation give the exact values of the general path: `Poly` keeps whole
coefficients as `int` (checked here against plain `Fraction` arithmetic over random rationals, and
never a float); the validator solves only the comparisons over fluents that change, and finds a
process's continuous effects once (checked on a task with a constant comparison beside the changing
one, and on the whole PDDL+ corpus against the general path)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask, polynomial
from pddltools.semantics.polynomial import Poly, first_root
from pddltools.validate import pddlplus, validate_plan
from pddltools.validate.report import PlanReport
from tests.validate.conftest import OWN, REPO, manifest

F = Fraction
# whole numbers half the time (the int path), other rationals otherwise (the Fraction path)
rational = st.one_of(st.integers(-50, 50), st.fractions(max_denominator=40).filter(lambda x: abs(x) <= 50))
coefficients = st.lists(rational, max_size=4)


def reference(c: list[Fraction | int], t: Fraction) -> Fraction:
    return sum((F(x) * t**i for i, x in enumerate(c)), F(0))


def exact(x: object) -> bool:
    """An exact number, and an `int` when it is whole: what the fast path promises."""
    return type(x) is int or (type(x) is Fraction and x.denominator != 1)


@settings(max_examples=100, deadline=None)
@given(coefficients, coefficients, rational, rational)
def test_arithmetic_matches_fractions(a: list[Fraction | int], b: list[Fraction | int], t: Fraction,
                                      start: Fraction) -> None:
    p, q = Poly.of(a), Poly.of(b)
    assert all(exact(x) for x in (*p.c, *(p * q).c, *(p + q).c, *p.integral(start).c))
    assert p.at(t) == reference(a, t) and exact(p.at(t))
    assert (p + q).at(t) == reference(a, t) + reference(b, t)
    assert (p - q).at(t) == reference(a, t) - reference(b, t)
    assert (p * q).at(t) == reference(a, t) * reference(b, t)
    assert p.scaled(t).at(t) == reference(a, t) * t
    # the antiderivative: start at 0, and its derivative is p again
    assert p.integral(start).at(0) == start and p.integral(start).derivative() == p


@settings(max_examples=100, deadline=None)
@given(rational, rational, rational, rational)
def test_linear_and_quadratic_roots_are_exact(r1: Fraction, r2: Fraction, k: Fraction, hi: Fraction) -> None:
    if not k:
        return
    top = abs(hi) + 1
    inside = sorted(r for r in (r1, r2) if 0 < r <= top)
    line = Poly.of((-k * r1, k))                             # k (t - r1)
    assert first_root(line, F(0), top) == (r1 if 0 < r1 <= top else None)
    quadratic = Poly.of((k * r1 * r2, -k * (r1 + r2), k))    # k (t - r1)(t - r2): rational roots
    root = first_root(quadratic, F(0), top)
    assert root == (inside[0] if inside else None)
    assert root is None or exact(root)


DOMAIN = """(define (domain pipes)
  (:requirements :fluents :time :typing)
  (:types tank)
  (:predicates (open ?t - tank))
  (:functions (level ?t - tank) (rate ?t - tank) (limit))
  (:action open :parameters (?t - tank) :precondition (and (not (open ?t))) :effect (and (open ?t)))
  (:action close :parameters (?t - tank) :precondition (and (open ?t) (<= (level ?t) (limit)))
    :effect (and (not (open ?t))))
  (:process fill :parameters (?t - tank) :precondition (and (open ?t) (> (limit) 0))
    :effect (and (increase (level ?t) (* #t (rate ?t)))))
  (:event full :parameters (?t - tank) :precondition (and (>= (level ?t) (limit)))
    :effect (and (not (open ?t)) (decrease (level ?t) 1))))"""
PROBLEM = """(define (problem p) (:domain pipes) (:objects a b - tank)
  (:init (= (level a) 0) (= (level b) 0.5) (= (rate a) 0.375) (= (rate b) 2) (= (limit) 5))
  (:goal (and (>= (level a) 3) (>= (level b) 4))))"""


def test_only_changing_comparisons_solved_still_finds_events_and_values() -> None:
    task = GroundedTask(parse_domain(DOMAIN), parse_problem(PROBLEM))
    # a fills at 3/8 for 8 (level 3); b, from 0.5 at 2, reaches 5 at 2.75 (opened at 0.5), where the
    # event fires (level 4, valve shut); `(> (limit) 0)` never changes and is never solved
    report = validate_plan(task, "0: (open a)\n0.5: (open b)\n8: (close a)\n", recorder=None)
    assert report.valid, report.message
    late = validate_plan(task, "0: (open a)\n0.5: (open b)\n6: (close a)\n6.5: (close b)\n")
    assert late.reason == "precondition" and late.failed_time == F(13, 2)   # b was shut by the event
    assert "(level b) was last changed by the event (full b)" in late.message


ROWS = manifest(OWN / "pddl+" / "manifest.tsv")


def test_the_fast_paths_judge_the_corpus_as_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # `static_reads` returning None is the general path: every comparison solved at every stretch, every
    # process's effects walked again, nothing filtered; the reports must be the same, field by field
    def judge_all() -> list[PlanReport]:
        tasks: dict[tuple[str, str], GroundedTask] = {}
        out = []
        for row in ROWS:
            key = (row["domain"], row["problem"])
            task = tasks.setdefault(key, GroundedTask.load(REPO / row["domain"], REPO / row["problem"]))
            out.append(validate_plan(task, OWN / "pddl+" / row["plan"]))
        return out

    fast = judge_all()
    monkeypatch.setattr(pddlplus, "static_reads", lambda *_: None)
    general = judge_all()
    assert len(fast) == len(ROWS) > 20
    for row, a, b in zip(ROWS, fast, general, strict=True):
        assert (a.verdict, a.value, a.failed_time, a.message) == (b.verdict, b.value, b.failed_time, b.message), \
            row["id"]


@settings(max_examples=300, deadline=None)
@given(rational, rational, rational, rational, st.fractions(min_value=F(1, 1000), max_value=60, max_denominator=1000))
def test_a_quadratics_irrational_root_is_bracketed_as_the_bisection_does(
        c: Fraction, b: Fraction, a: Fraction, lo: Fraction, length: Fraction) -> None:
    """A falling ball's height is a quadratic in time whose roots are irrational as a rule: their bracket is
    computed in closed form (one integer square root) and must be the very cell the bisection ends in."""
    p = Poly.of((c, b, a))
    discriminant = F(b) ** 2 - 4 * F(a) * F(c)
    if a == 0 or discriminant <= 0 or polynomial._square_root(discriminant) is not None:
        return  # no root, or rational roots: found exactly elsewhere
    hi = F(lo) + length
    assert polynomial.quadratic_bracket(p, lo, hi) == polynomial.bisection_bracket(p, polynomial._sturm(p), lo, hi)


def test_the_ball_lands_just_past_its_irrational_root() -> None:
    # h = 10 - 4.905 t²: the root √(10 / 4.905) = 1.42784312292706... is irrational; the time reported is
    # the shortest decimal past it within the bracket, as before the bracket was computed in closed form
    p = Poly.of((10, 0, F(-4905, 1000)))
    root = first_root(p, 0, 2)
    assert root == F("1.427843122927065")
    assert root * root * F("4.905") > 10 > (root - polynomial.PRECISION) ** 2 * F("4.905")
