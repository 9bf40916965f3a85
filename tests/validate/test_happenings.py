"""`--tolerance T` is VAL's `-t T`: durations within T of their constraint, and the events at most T/10
after the first of a happening (in VAL's doubles) one happening, where interfering events are a fault.
A Kairos-like plan (durations 10/3 printed 3.333333, the next action 0.000667 after) is valid at
`--tolerance 0.001` as VAL's `-t 0.001` reads it, and invalid at the default 0.01; every verdict says
both numbers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from pddltools.cli import main
from pddltools.diagnostics import Source
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from pddltools.validate.happenings import clock, one_happening
from pddltools.validate.planfile import read_plan

DOMAIN = """(define (domain relay)
  (:requirements :durative-actions :typing :fluents)
  (:types station)
  (:predicates (ready ?s - station) (sent ?s - station))
  (:functions (transfer-time))
  (:durative-action send :parameters (?from ?to - station)
    :duration (= ?duration (/ (transfer-time) 3))
    :condition (at start (ready ?from))
    :effect (and (at start (not (ready ?from))) (at end (sent ?to)) (at end (ready ?to)))))
"""
PROBLEM = """(define (problem three) (:domain relay)
  (:objects a b c - station)
  (:init (ready a) (= (transfer-time) 10))
  (:goal (and (sent b) (sent c))))
"""
# what a planner that computes 10/3 in doubles and separates dependent actions by 0.001 of its own prints
KAIROS = "0.000: (send a b) [3.333333]\n3.334: (send b c) [3.333333]\n"


@pytest.fixture(scope="module")
def task() -> GroundedTask:
    return GroundedTask(parse_domain(DOMAIN, "relay.pddl"), parse_problem(PROBLEM, "three.pddl"))


def test_kairos_like_plan_is_valid_at_val_t_0_001(task: GroundedTask) -> None:
    report = validate_plan(task, KAIROS, tolerance=Fraction("0.001"))
    # 3.333333 is 1/3000000 from 10/3 (< 0.001); the events 0.000667 apart are two happenings (> 0.0001)
    assert report.valid and report.value == report.makespan == Fraction("6.667333")
    assert (report.tolerance, report.happening_window) == (Fraction("0.001"), Fraction("0.0001"))


def test_the_same_plan_is_one_happening_too_many_at_val_t_0_01(task: GroundedTask) -> None:
    report = validate_plan(task, KAIROS)  # VAL's default -t 0.01: events within 0.001 are one happening
    assert (report.verdict, report.reason, report.failed_step) == ("invalid", "epsilon", 2)
    assert "only 0.000667 apart: events at most 0.001 apart (a tenth of the tolerance 0.01" in report.message
    # an explicit --epsilon still separates interfering events of different happenings
    strict = validate_plan(task, KAIROS, tolerance=Fraction("0.001"), epsilon=Fraction("0.001"))
    assert (strict.reason, strict.failed_step) == ("epsilon", 2) and "at least 0.001 apart" in strict.message


def test_the_text_verdict_states_both_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, text in (("domain.pddl", DOMAIN), ("problem.pddl", PROBLEM), ("plan.txt", KAIROS)):
        (tmp_path / name).write_text(text)
    files = [str(tmp_path / n) for n in ("domain.pddl", "problem.pddl", "plan.txt")]
    assert main(["validate", *files, "--tolerance", "0.001"]) == 0
    assert "makespan 6.667333, duration tolerance 0.001, happenings within 0.0001)" in capsys.readouterr().out
    assert main(["validate", *files, "--tolerance", "0.001", "--format", "json"]) == 0
    plan = json.loads(capsys.readouterr().out)["files"][2]
    assert (plan["tolerance"], plan["happening_window"]) == (0.001, 0.0001)


def test_happenings_are_grouped_in_vals_doubles() -> None:
    # 8.094 + 0.001 is 8.094999999999999: an event at 8.095 is a happening of its own (VAL: separate);
    # 5.171 + 0.001 is 5.172000000000001: an event at 5.172 joins the one at 5.171
    assert not one_happening(6.074 + 2.020, 8.095, Fraction("0.01"))
    assert one_happening(0.301 + 4.870, 5.172, Fraction("0.01"))
    step = read_plan(Source("6.074: (a) [2.020]\n", "p")).steps[0]
    end = SimpleNamespace(kind="end", step=step, time=Fraction("8.094"))  # exact, but VAL adds doubles
    assert clock(end) == 6.074 + 2.020 and clock(SimpleNamespace(kind="til", step=None, time=Fraction(5))) == 5.0
