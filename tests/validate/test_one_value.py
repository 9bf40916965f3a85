"""One plan, one value: a sequential plan reprinted with time stamps (`0: (a) [1]`) gets the value of the
untimed one. As VAL reads it (`State::evaluate`: total-time is the time only in a durative domain, else
the number of steps; `Validator::finalValue`: the step count without a metric), the metric decides,
never the makespan of time stamps a sequential domain does not have."""

from __future__ import annotations

import re

import pytest

from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from tests.validate.conftest import PLANS, SHARED, manifest

ROW = "elevator08-i1-none"  # Fast Downward's 20 steps on IPC-2008 elevators; VAL: value 66 (total-cost)


@pytest.fixture(scope="module")
def elevator() -> tuple[dict[str, str], str, str, str]:
    if not PLANS.is_dir():
        pytest.skip(f"the shared plans are not at {PLANS}")
    row = next(r for r in manifest(PLANS / "manifest.tsv") if r["id"] == ROW)
    plan = (SHARED / row["plan_file"]).read_text()
    steps = [line for line in plan.splitlines() if line.strip() and not line.startswith(";")]
    timed = "".join(f"{i}: {step} [1]\n" for i, step in enumerate(steps))
    return row, (SHARED / row["domain_path"]).read_text(), (SHARED / row["problem_path"]).read_text(), timed


@pytest.mark.parametrize(("metric", "value"), [
    ("(:metric minimize (total-cost))", 66),  # as VAL's manifest says
    ("(:metric minimize (total-time))", 20),  # the number of steps, in a domain without durative actions
    ("(:metric minimize (+ (total-cost) (* 2 (total-time))))", 66 + 2 * 20),
    ("", 20),  # no metric: the number of steps
])
def test_timed_and_untimed_get_one_value(elevator: tuple[dict[str, str], str, str, str], metric: str,
                                         value: int) -> None:
    row, domain, problem, timed = elevator
    problem = re.sub(r"\(:metric minimize \(total-cost\)\)", metric, problem)
    task = GroundedTask(parse_domain(domain, row["domain_path"]), parse_problem(problem, row["problem_path"]))
    untimed = validate_plan(task, SHARED / row["plan_file"])
    stamped = validate_plan(task, timed)
    assert untimed.valid and stamped.valid
    assert untimed.value == stamped.value == value
    assert stamped.makespan == 19 and stamped.cost == untimed.cost == 66  # the time stamps are shown, not counted


def test_a_durative_domain_keeps_its_makespan() -> None:
    domain = parse_domain("""(define (domain d) (:requirements :durative-actions) (:predicates (done))
      (:durative-action work :parameters () :duration (= ?duration 2.5) :condition (and)
        :effect (at end (done))))""")
    problem = "(define (problem p) (:domain d) (:goal (done)){})"
    for metric in ("", " (:metric minimize (total-time))"):
        report = validate_plan(GroundedTask(domain, parse_problem(problem.format(metric))), "0.5: (work) [2.5]\n")
        assert report.valid and report.value == report.makespan == 3
