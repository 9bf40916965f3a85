"""`total-cost` without an initial value (IPC-2018 agricola and settlers, IPC-2014 tetris) starts at 0,
as Fast Downward and VAL read it, when the domain only increases it and the metric minimises it; the
checker says so (I604) instead of W601's "no action assigns it"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pddltools.check import check_files
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from tests.validate.conftest import PLANS, SHARED, manifest

ELEVATOR = "elevator08-i1"  # Fast Downward's plan of an IPC-2008 elevators problem: VAL says 66


def _without_cost_init(problem: str) -> str:
    text, count = re.subn(r"\(\s*=\s*\(\s*total-cost\s*\)\s*0\s*\)", "", problem)
    assert count == 1
    return text


@pytest.fixture(scope="module")
def elevator() -> dict[str, dict[str, str]]:
    if not PLANS.is_dir():
        pytest.skip(f"the shared plans are not at {PLANS}")
    return {r["mutation"]: r for r in manifest(PLANS / "manifest.tsv") if r["id"].startswith(ELEVATOR + "-")}


def _task(row: dict[str, str], problem: str | None = None) -> GroundedTask:
    domain_text = (SHARED / row["domain_path"]).read_text()
    problem_text = problem if problem is not None else (SHARED / row["problem_path"]).read_text()
    return GroundedTask(parse_domain(domain_text, row["domain_path"]), parse_problem(problem_text, "problem.pddl"))


def test_a_real_plan_keeps_its_value_without_the_initial_cost(elevator: dict[str, dict[str, str]]) -> None:
    row = elevator["none"]
    silent = _task(row, _without_cost_init((SHARED / row["problem_path"]).read_text()))
    report = validate_plan(silent, SHARED / row["plan_file"])
    assert report.valid and report.value == report.cost == int(row["val_value"]) == 66
    assert report == validate_plan(_task(row), SHARED / row["plan_file"])  # as with (= (total-cost) 0)
    broken = elevator["drop"]
    dropped = validate_plan(silent, SHARED / broken["plan_file"])
    assert (dropped.verdict, dropped.failed_step) == ("invalid", int(broken["val_failed_step"]))


DOMAIN = """(define (domain d)
  (:requirements :strips :action-costs)
  (:predicates (done))
  (:functions (total-cost))
  (:action a :parameters () :precondition (and{pre})
    :effect (and (done) ({op} (total-cost) 2))))
"""
PROBLEM = "(define (problem p) (:domain d) (:init) (:goal (done)){metric})\n"
METRIC = " (:metric minimize (total-cost))"


@pytest.mark.parametrize(("pre", "op", "metric", "reason"), [
    ("", "increase", METRIC, None),
    ("", "increase", " (:metric minimize total-cost)", None),  # the bare name of the 0-ary function
    ("", "increase", "", "undefined"),  # no metric: nothing says it is the plan's cost
    ("", "increase", " (:metric maximize (total-cost))", "undefined"),
    ("", "decrease", METRIC, "undefined"),  # not a counter of costs
    (" (< (total-cost) 10)", "increase", METRIC, "precondition"),  # read: PDDL's undefined value, false
])
def test_the_counter_starts_at_zero_only_when_it_is_one(pre: str, op: str, metric: str, reason: str | None) -> None:
    task = GroundedTask(parse_domain(DOMAIN.format(pre=pre, op=op)), parse_problem(PROBLEM.format(metric=metric)))
    report = validate_plan(task, "(a)\n")
    if reason is None:
        assert report.valid and report.value == report.cost == 2
    else:
        assert (report.verdict, report.reason) == ("invalid", reason)


def _check(tmp_path: Path, domain: str, problem: str) -> dict[str, str]:
    (tmp_path / "domain.pddl").write_text(domain)
    (tmp_path / "problem.pddl").write_text(problem)
    report = check_files(str(tmp_path / "domain.pddl"), [str(tmp_path / "problem.pddl")])
    return {f.code: f.message for f in report.findings if f.code in ("W601", "I604")}


def test_check_says_it_starts_at_zero(tmp_path: Path) -> None:
    found = _check(tmp_path, DOMAIN.format(pre="", op="increase"), PROBLEM.format(metric=METRIC))
    assert list(found) == ["I604"] and "read as 0" in found["I604"]


def test_w601_does_not_say_no_action_assigns_what_actions_increase(tmp_path: Path) -> None:
    found = _check(tmp_path, DOMAIN.format(pre="", op="increase"), PROBLEM.format(metric=""))
    assert list(found) == ["W601"] and "no action assigns" not in found["W601"]
    assert "the actions that change it (increase, decrease, scale) need a value" in found["W601"]
    never = _check(tmp_path, DOMAIN.format(pre=" (< (total-cost) 10)", op="increase").replace(
        "(increase (total-cost) 2)", ""), PROBLEM.format(metric=""))
    assert "no action assigns it" in never["W601"]
