"""Every plan of ../shared/plans against VAL's verdict, failing step and value.

Agreement with `manifest.tsv` is complete: verdict, value and failing step. One difference in kind, not
in verdict: for a plan file that is not a plan (VAL's "bad plan description" / "bad operator"), VAL
names no step, while pddltools names the step and line at fault; those rows have `-` as VAL's step
and are compared on the verdict only.

`manifest_extra.tsv` holds the cases where VAL is wrong or crashes; there we match `expected_verdict`
and the `sim_check` verdict/reason, and check the line of the fault against the note. VAL's bugs, each
explained where the row is checked:
- arity_short / arity_long: VAL segfaults (typed domains), or in untyped gripper accepts a step with
  an extra argument as valid. A step with the wrong number of arguments is not an action of the
  domain: an error at that step.
- unknown_object in untyped gripper: VAL reports an unsatisfied precondition; the object does not
  exist, which is an error in the plan file.
- syntax_missing_open_paren / syntax_extra_close_paren: VAL silently drops the rest of the plan and
  reports the goal as unsatisfied; it is a syntax error at that line.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.validate import GroundedTask, PlanReport, validate_plan
from tests.validate.conftest import PLANS, SHARED, manifest

pytestmark = pytest.mark.corpus

_TASKS: dict[tuple[str, str], GroundedTask] = {}


def _validate(row: dict[str, str]) -> PlanReport:
    key = (row["domain_path"], row["problem_path"])
    if key not in _TASKS:
        _TASKS[key] = GroundedTask.load(SHARED / key[0], SHARED / key[1])
    return validate_plan(_TASKS[key], Path(SHARED / row["plan_file"]))


def _rows(name: str) -> list[dict[str, str]]:
    path = PLANS / name
    return manifest(path) if path.is_file() else []


@pytest.fixture(scope="module", autouse=True)
def _shared() -> None:
    if not PLANS.is_dir():
        pytest.skip(f"the shared plans are not at {PLANS}")


_VAL_REASON = {"unsatisfied_precondition": "precondition", "goal_not_satisfied": "goal",
               "bad_plan_description": {"syntax", "bad-action"}, "bad_operator": {"bad-action", "arity", "type",
                                                                                   "unknown-object"}}


@pytest.mark.parametrize("row", _rows("manifest.tsv"), ids=lambda r: r["id"])
def test_agrees_with_val(row: dict[str, str]) -> None:
    report = _validate(row)
    assert report.verdict == row["val_verdict"], report.message
    if row["val_failed_step"] != "-":
        assert report.failed_step == int(row["val_failed_step"])
    if row["val_value"] != "-":
        assert report.value == Fraction(row["val_value"])
    expected = _VAL_REASON.get(row["val_reason"])
    if isinstance(expected, str):
        assert report.reason == expected
    elif expected is not None:
        assert report.reason in expected
        # VAL names no step for a bad plan file; pddltools names the step and its line
        assert report.failed_step is not None and report.line is not None
    if row["val_verdict"] == "valid":
        assert report.length is not None and report.unsatisfied == ()
    if row["val_reason"] == "unsatisfied_precondition":
        assert report.unsatisfied and report.advice and report.action
    if row["val_reason"] == "goal_not_satisfied":
        assert report.unsatisfied and report.failed_step is None


_STEP = re.compile(r"(?:after )?step (\d+)")


@pytest.mark.parametrize("row", _rows("manifest_extra.tsv"), ids=lambda r: r["id"])
def test_where_val_is_wrong(row: dict[str, str]) -> None:
    report = _validate(row)
    assert report.verdict == row["expected_verdict"], report.message
    verdict, reason = row["sim_check"].split("/")
    assert report.verdict == verdict
    assert (report.reason or "valid") == reason
    if row["flag"]:
        # VAL crashed or was wrong here (see the module docstring); ours is the expected verdict
        assert row["val_verdict"] != row["expected_verdict"] or row["val_rc"] == "-11"
    found = _STEP.search(row["note"])
    if report.verdict == "error" and found:
        plan_lines = (SHARED / row["plan_file"]).read_text().splitlines()
        step = int(found.group(1))
        # the fault is reported on the line of the step the note names (with no comment lines before it)
        step_lines = [i for i, text in enumerate(plan_lines, 1) if text.split(";")[0].strip()]
        assert report.line == step_lines[step - 1]
        assert report.diagnostics and report.diagnostics[0].span is not None
