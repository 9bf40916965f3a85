"""corpus/plans: a plan for every semantic rule, with its verdict, reason, failing step and value."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.validate import GroundedTask, validate_plan
from pddltools.validate.report import ERROR_REASONS, INVALID_REASONS
from tests.validate.conftest import OWN, manifest

ROWS = manifest(OWN / "manifest.tsv")


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_expected_verdict(row: dict[str, str]) -> None:
    task = GroundedTask.load(OWN / row["domain"], OWN / row["problem"])
    report = validate_plan(task, Path(OWN / row["plan"]))
    assert report.verdict == row["verdict"], report.message
    assert (report.reason or "-") == (row["reason"] if row["reason"] != "-" else "-"), report.message
    assert report.failed_step == (None if row["failed_step"] == "-" else int(row["failed_step"]))
    assert report.value == (None if row["value"] == "-" else Fraction(row["value"]))
    if report.verdict != "valid":
        assert report.reason in (INVALID_REASONS if report.verdict == "invalid" else ERROR_REASONS)
    if report.verdict == "invalid" and report.reason in ("precondition", "goal", "invariant"):
        assert report.unsatisfied and report.advice


def test_every_plan_is_in_the_manifest() -> None:
    listed = {row["plan"] for row in ROWS}
    # fd/ and rounded/ have manifests of their own, for tasks of ../shared; pddl+/ and continuous/ ones
    # with VAL's verdicts
    on_disk = {str(p.relative_to(OWN)) for p in OWN.rglob("*.plan")
               if p.relative_to(OWN).parts[0] not in ("fd", "rounded", "pddl+", "continuous")}
    assert on_disk == listed
