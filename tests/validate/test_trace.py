"""`validate --trace`: the state changes the validator itself went through, step by step or happening by
happening, in text and JSON, and where a failing plan stopped."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.validate import GroundedTask, PlanReport, validate_plan
from pddltools.validate.trace import Trace
from tests.validate.conftest import OWN


def traced(area: str, plan: str) -> tuple[Trace, PlanReport]:
    task = GroundedTask.load(OWN / area / "domain.pddl", OWN / area / "problem.pddl")
    trace = Trace(task)
    report = validate_plan(task, Path(OWN / area / plan), recorder=trace)
    return trace, report


def test_numeric_steps_record_every_fluent_change_in_order() -> None:
    trace, report = traced("numeric", "valid.plan")
    assert report.valid
    assert [c.step for c in trace.changes] == [1, 2, 3, 4]
    # the plan's own comment: a=3 b=0 -> pour: a=2 b=1 -> swap: a=1 b=2 -> double b: b=4 (pumped 3) -> halve b: b=2
    shown = [[f.show() for f in c.fluents] for c in trace.changes]
    assert shown[0] == ["(level a): 3 -> 2", "(level b): 0 -> 1", "(pumped): 0 -> 1"]
    assert shown[1] == ["(level a): 2 -> 1", "(level b): 1 -> 2"]
    assert shown[2] == ["(level b): 2 -> 4", "(pumped): 1 -> 3"]
    assert shown[3] == ["(level b): 4 -> 2"]
    assert trace.initial_values["(level a)"] == 3 and trace.failed_at is None


def test_derived_atoms_that_change_are_listed_apart_from_the_step_effects() -> None:
    trace, _ = traced("derived", "valid.plan")
    second = trace.changes[1]
    assert second.added == ("(edge n3 n4)",)
    assert "(reachable n3 n4)" in second.derived_added and second.derived_deleted == ("(isolated n4)",)
    assert trace.changes[0].derived_added == ()


def test_failing_sequential_plan_stops_at_the_reported_step() -> None:
    trace, report = traced("numeric", "capacity.plan")
    assert report.failed_step == 4
    assert len(trace.changes) == 3
    assert trace.failed_at is not None and trace.failed_at.step == 4


def test_temporal_trace_is_per_happening_with_timed_literals() -> None:
    trace, report = traced("temporal", "concurrent.plan")
    assert report.valid
    assert [c.time for c in trace.changes] == [0, 5, 10, 12, Fraction(25, 2), Fraction(31, 2), 30]
    assert trace.changes[0].events == ("step 1 (process a m1) (start)", "step 2 (process b m2) (start)")
    assert trace.changes[0].deleted == ("(free m1)", "(free m2)")
    assert [f.show() for f in trace.changes[1].fluents] == ["(energy): 10 -> 9"]
    assert trace.changes[3].added == ("(daylight)",)


def test_a_happening_that_breaks_an_invariant_is_where_the_trace_stops() -> None:
    trace, report = traced("temporal", "invariant.plan")
    assert report.reason == "invariant"
    assert [c.time for c in trace.changes] == [0]
    assert trace.failed_at is not None and trace.failed_at.time == 2
    assert trace.failed_at.events == ("step 3 (cut-power) (start)",)


def test_cli_trace_text(capsys: pytest.CaptureFixture[str]) -> None:
    area = OWN / "numeric"
    code = main(["validate", str(area / "domain.pddl"), str(area / "problem.pddl"), str(area / "capacity.plan"),
                 "--trace"])
    out = capsys.readouterr().out
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "step 1: (pour a b)"
    assert "  (level a): 3 -> 2" in lines
    assert any(line.startswith("step 4: (double b): the plan fails here") for line in lines)
    assert "invalid at step 4" in out


def test_cli_trace_json(capsys: pytest.CaptureFixture[str]) -> None:
    area = OWN / "temporal"
    code = main(["validate", str(area / "domain.pddl"), str(area / "problem.pddl"), str(area / "concurrent.plan"),
                 "--trace", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["summary"]["plans"] == 1
    trace = data["files"][2]["trace"]
    assert trace["failed_at"] is None
    assert [c["time"] for c in trace["changes"]] == [0, 5, 10, 12, 12.5, 15.5, 30]
    assert trace["changes"][1]["fluents"] == [{"fluent": "(energy)", "before": 10, "after": 9}]
    assert trace["changes"][2]["added"] == ["(done b)", "(free m2)"]


def test_cli_trace_takes_one_plan(capsys: pytest.CaptureFixture[str]) -> None:
    area = OWN / "numeric"
    code = main(["validate", str(area / "domain.pddl"), str(area / "problem.pddl"), str(area / "valid.plan"),
                 str(area / "capacity.plan"), "--trace"])
    assert code == 2 and "--trace shows one plan" in capsys.readouterr().err


def test_cli_trace_is_not_for_batches(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    listing = tmp_path / "list.tsv"
    listing.write_text("a\tb\tc\n", encoding="utf-8")
    assert main(["validate", "--batch", str(listing), "--trace"]) == 2
    assert "not --batch" in capsys.readouterr().err
