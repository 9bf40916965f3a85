"""PDDL+ stretches at constant rates go through the linear path (`semantics.linear`), with times in
integer ticks and one state changed in place; every report is the one the general path gives (and the
one a trace's run gives, which keeps every state). Here a rate is a fluent that actions change, so it
is read again at each stretch, and the plan's times have several denominators."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.validate import pddlplus, validate_plan
from pddltools.validate.report import PlanReport
from pddltools.validate.trace import Trace

DOMAIN = """(define (domain heat) (:requirements :fluents :time :negative-preconditions)
  (:predicates (on) (alarm))
  (:functions (temp) (power) (limit) (spare))
  (:action switch_on :parameters () :precondition (and (not (on))) :effect (and (on)))
  (:action switch_off :parameters () :precondition (and (on)) :effect (and (not (on))))
  (:action boost :parameters () :precondition (and) :effect (and (increase (power) 1)))
  (:action check :parameters () :precondition (and (<= (temp) (- (limit) (spare)))) :effect (and))
  (:process heating :parameters () :precondition (and (on))
    :effect (and (increase (temp) (* #t (* 2 (power))))))
  (:event overheat :parameters () :precondition (and (on) (>= (+ (temp) 1) (limit)))
    :effect (and (not (on)) (alarm))))"""
PROBLEM = """(define (problem p) (:domain heat)
  (:init (= (temp) 0) (= (power) 1) (= (limit) 10) (= (spare) 1.5)) (:goal (and (>= (temp) 5))))"""
UNDEFINED = PROBLEM.replace("(= (limit) 10)", "")  # read by the event: the general path says so

PLANS = {
    # temp 3 at 1.5 (rate 2), then rate 4: 5 at 2
    "valid": "0: (switch_on)\n1.5: (boost)\n2: (switch_off)\n",
    # rate 4 from 1 (temp 2): temp + 1 reaches 10 at 2.75, the event switches off, and the step at 3 fails
    "event": "0: (switch_on)\n1: (boost)\n3: (switch_off)\n",
    # times of several denominators (ticks of 1/8); the checks read temp 4.25 and 7.25, under 8.5
    "mixed": "0.25: (switch_on)\n1.125: (boost)\n1.75: (check)\n2.5: (check)\n2.5: (switch_off)\n",
    # temp 8.8 at 2.7, above limit - spare = 8.5 (and the event waits for 9)
    "late-check": "0: (switch_on)\n1: (boost)\n2.7: (check)\n",
    "goal": "0: (switch_on)\n0.5: (switch_off)\n",
}


def judge(problem: str) -> dict[str, PlanReport]:
    task = GroundedTask(parse_domain(DOMAIN), parse_problem(problem))
    return {name: validate_plan(task, text) for name, text in PLANS.items()}


def fields(report: PlanReport) -> tuple[object, ...]:
    return report.verdict, report.reason, report.value, report.failed_time, report.failed_step, report.message


@pytest.mark.parametrize("problem", [PROBLEM, UNDEFINED])
def test_linear_path_reports_what_the_general_path_reports(problem: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = judge(problem)
    monkeypatch.setattr(pddlplus, "static_reads", lambda *_: None)  # no linear forms: the general path
    general = judge(problem)
    for name in PLANS:
        assert fields(fast[name]) == fields(general[name]), name


def test_the_linear_path_takes_every_stretch_and_finds_the_crossings(monkeypatch: pytest.MonkeyPatch) -> None:
    def general_path(*args: object) -> None:
        raise AssertionError("a stretch took the general path")

    monkeypatch.setattr(pddlplus, "Motion", general_path)
    reports = judge(PROBLEM)
    assert reports["valid"].valid and reports["valid"].value == 2
    event = reports["event"]
    assert (event.reason, event.failed_step, event.failed_time) == ("precondition", 3, 3)
    assert event.advice == ("make (on) true before time 3",)  # the event switched it off at 2.75
    assert reports["mixed"].valid, reports["mixed"].message
    late = reports["late-check"]
    assert late.reason == "precondition" and late.failed_time == Fraction(27, 10)
    assert "(temp) was last changed by the process (heating)" in late.message
    assert reports["goal"].reason == "goal"


def test_a_traced_run_keeps_its_states_and_reports_the_same() -> None:
    task = GroundedTask(parse_domain(DOMAIN), parse_problem(PROBLEM))
    for name, text in PLANS.items():
        trace = Trace(task)
        assert fields(validate_plan(task, text, recorder=trace)) == fields(validate_plan(task, text)), name
    trace = Trace(task)
    validate_plan(task, PLANS["event"], recorder=trace)
    assert trace.changes  # the states it was given were not changed afterwards (no error reading them)


DERIVED = """(define (domain heatd) (:requirements :fluents :time :negative-preconditions :derived-predicates)
  (:predicates (on) (hot))
  (:functions (temp))
  (:derived (hot) (>= (temp) 5))
  (:action switch_on :parameters () :precondition (and (not (on))) :effect (and (on)))
  (:action switch_off :parameters () :precondition (and (on)) :effect (and (not (on))))
  (:action touch :parameters () :precondition (and (not (hot))) :effect (and))
  (:process heating :parameters () :precondition (and (on)) :effect (and (increase (temp) (* #t 2)))))"""


def test_a_state_changed_in_place_is_not_taken_for_its_predecessor() -> None:
    # the evaluator keeps derived atoms per state object: (hot), false at 1, must be derived again at
    # 4 (temp 8), after the stretch has changed the one state the loop holds
    task = GroundedTask(parse_domain(DERIVED), parse_problem(
        "(define (problem p) (:domain heatd) (:init (= (temp) 0)) (:goal (and (>= (temp) 1))))"))
    report = validate_plan(task, "0: (switch_on)\n1: (touch)\n4: (touch)\n5: (switch_off)\n")
    assert (report.reason, report.failed_step, report.failed_time) == ("precondition", 3, 4)
    assert fields(validate_plan(task, "0: (switch_on)\n1: (touch)\n4: (touch)\n5: (switch_off)\n",
                                recorder=Trace(task))) == fields(report)
