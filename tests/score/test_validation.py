"""The adapter to `pddltools.validate`: one task load per (domain, problem), verdicts, broken tasks.

The validator's contract (GroundedTask.load, validate_plan -> PlanReport) is played here by small stand-ins
put in place of the two names the adapter imports, so that loads and verdicts can be counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pddltools.diagnostics import Error, Source, error
from pddltools.score import validation
from pddltools.score.validation import Validator, count_actions

LINE = Path(__file__).resolve().parents[2] / "corpus" / "score" / "line"


@dataclass(frozen=True)
class Report:
    valid: bool
    value: float | None
    length: int
    reason: str


def fake_validate(loads: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class Task:
        def __init__(self, problem: str) -> None:
            self.goal_steps = int(Path(problem).stem.split("-")[1])

        @classmethod
        def load(cls, domain: str, problem: str) -> Task:
            loads.append(problem)
            if "broken" in problem:
                raise Error([error("E100", "undefined predicate")])
            return cls(problem)

    def validate_plan(task: Task, plan: Source) -> Report:
        steps = count_actions(plan.text)
        ok = steps == task.goal_steps
        return Report(ok, None, steps, "" if ok else "goal not reached")

    monkeypatch.setattr(validation, "GroundedTask", Task)
    monkeypatch.setattr(validation, "validate_plan", validate_plan)


def test_tasks_are_loaded_once_and_verdicts_passed_on(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    loads: list[str] = []
    fake_validate(loads, monkeypatch)
    check = Validator()
    domain, problem = str(LINE / "domain.pddl"), str(LINE / "line-02.pddl")
    good = check(domain, problem, (LINE / "line-02.plan").read_text())
    bad = check(domain, problem, "(walk p0 p1)\n")
    assert (good.valid, good.length, good.value) == (True, 2, None)
    assert (bad.valid, bad.reason) == (False, "goal not reached")
    assert loads == [problem]
    broken = tmp_path / "broken-1.pddl"
    broken.write_text("(define")
    for _ in range(2):
        verdict = check(domain, str(broken), "(a)\n")
        assert not verdict.valid and "undefined predicate" in verdict.reason
    assert loads == [problem, str(broken)]  # a task that does not load is not tried again


def test_count_actions_skips_comments_and_blank_lines() -> None:
    assert count_actions("(a)\n\n; cost = 2\n(b) ; second\n") == 2
