"""The linear fast path of continuous change (constant rates, linear comparisons, times in integer ticks)
taken by the durative actions' continuous effects and their watched `over all` invariants: every plan of
corpus/plans/continuous, and long generated plans, get exactly the report the general path (`Motion`,
polynomial roots in the plan's time) gives them: verdict, message, failing step and time, value."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest

from pddltools.validate import GroundedTask, validate_plan
from pddltools.validate.pddlplus import _World
from pddltools.validate.report import PlanReport
from tests.validate.conftest import OWN, manifest

CONTINUOUS = OWN / "continuous"
ROWS = manifest(CONTINUOUS / "manifest.tsv")
BATTERY = """(define (problem battery-long) (:domain battery)
  (:objects heater drill - consumer)
  (:init (= (soc) 5) (= (capacity) 20) (= (charge-rate) 4) (= (use-rate heater) 3) (= (use-rate drill) 3))
  (:goal (and (done heater) (>= (soc) 5)))
  (:metric minimize (total-time)))"""


def _shown(report: PlanReport) -> dict[str, object]:
    return {f.name: getattr(report, f.name) for f in fields(report) if f.name != "diagnostics"}


def _both(task_of: object, plan: Path | str, monkeypatch: pytest.MonkeyPatch) -> tuple[PlanReport, PlanReport]:
    """The report with the fast path, and with every stretch taking the general path."""
    task = task_of() if callable(task_of) else task_of
    assert isinstance(task, GroundedTask)
    fast = validate_plan(task, plan)
    with monkeypatch.context() as patched:
        patched.setattr(_World, "_linear_forms", lambda self, initial: None)
        general = validate_plan(task, plan)
    return fast, general


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_the_fast_path_reports_what_the_general_path_does(row: dict[str, str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    task = GroundedTask.load(CONTINUOUS / row["domain"], CONTINUOUS / row["problem"])
    fast, general = _both(task, CONTINUOUS / row["plan"], monkeypatch)
    assert _shown(fast) == _shown(general)


def _battery(cycles: int, last: str) -> str:
    """Charge for 3 and run the heater for 4 in every 10 time units; then `last`."""
    return "".join(f"{10 * i}: (charge) [3]\n{10 * i + 5}: (run heater) [4]\n" for i in range(cycles)) + last


@pytest.mark.parametrize(("last", "verdict"), [
    ("", "valid"),
    ("1000: (run heater) [4]\n1000.5: (run drill) [2]\n", "invalid"),  # two consumers: the charge runs out
    ("1000: (charge) [5]\n", "invalid"),  # 5 + 20 > capacity: the over-all bound is crossed inside the stretch
    ("1000: (charge) [3.333]\n1004: (run heater) [4.1]\n", "valid"),  # rounded times: ticks of 1/1000
    ("1000: (charge) [3.333]\n1004: (run heater) [7.55]\n", "invalid"),  # runs out at 1004 + 18.332/3
])
def test_long_battery_plans_agree(last: str, verdict: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = tmp_path / "problem.pddl"
    problem.write_text(BATTERY)
    task = GroundedTask.load(CONTINUOUS / "battery" / "domain.pddl", problem)
    fast, general = _both(task, _battery(100, last), monkeypatch)
    assert _shown(fast) == _shown(general)
    assert fast.verdict == verdict
