"""Durations within a tolerance (VAL's `-t`): plans with rounded durations for IPC-2002 time domains are
judged as VAL judges them, values and failing steps included (and the conditions their rounded
durations feed, within VAL's fixed 0.0001); the numbers are shown as written and as
required, exactly; every temporal verdict says the tolerance; `--tolerance` and `--epsilon` stay apart."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.diagnostics import read_source
from pddltools.semantics.temporal import duration_meets
from pddltools.validate import GroundedTask, read_plan, validate_plan
from pddltools.validate.report import decimal, exact
from tests.validate.conftest import OWN, SHARED, manifest

ROUNDED = OWN / "rounded"
ROWS = manifest(ROUNDED / "manifest.tsv")
# VAL at -t 0.01 makes events at most 0.001 apart one happening (see rounded/README.md), and so does
# pddltools: these rows, where an action starts 0.001 after the one before ends, fail at that happening.
GROUPED_BY_VAL = {"optic-driverlog-i1@0.01", "optic-rovers-i1@0.01", "rovers-recharge-up@0.01",
                  "rovers-recharge-down@0.01", "rovers-recharge-4dec@0.01", "rovers-recharge-5dec@0.01"}
ZENO = SHARED / "corpus/pddl/ipc-2002/zenotravel-time-automatic"


def _grouped(plan: Path, tolerance: Fraction) -> bool:
    """Whether two distinct event times of the plan are within VAL's happening window (tolerance / 10)."""
    steps = read_plan(read_source(plan)).steps
    times = sorted({t for s in steps if s.time is not None for t in (s.time, s.time + (s.duration or 0))})
    return any(b - a <= tolerance / 10 for a, b in itertools.pairwise(times))


@pytest.fixture(scope="module")
def tasks() -> dict[tuple[str, str], GroundedTask]:
    if not SHARED.is_dir():
        pytest.skip("the shared IPC corpus is not beside the repository")
    return {}


def test_the_grouped_rows_are_the_ones_with_events_within_a_tenth_of_the_tolerance() -> None:
    grouped = {r["id"] for r in ROWS if _grouped(ROUNDED / r["plan"], Fraction(r["tolerance"]))}
    assert grouped >= GROUPED_BY_VAL and all(i.endswith("@0.01") for i in grouped)


@pytest.mark.corpus
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_judged_as_val_judges(row: dict[str, str], tasks: dict[tuple[str, str], GroundedTask]) -> None:
    key = (row["domain"], row["problem"])
    if key not in tasks:
        tasks[key] = GroundedTask.load(SHARED / row["domain"], SHARED / row["problem"])
    report = validate_plan(tasks[key], ROUNDED / row["plan"], tolerance=Fraction(row["tolerance"]))
    assert report.tolerance == Fraction(row["tolerance"])
    assert report.verdict == row["val_verdict"], report.message
    if row["val_verdict"] == "valid":
        assert report.value is not None
        # VAL prints about seven significant digits of a double
        assert float(report.value) == pytest.approx(float(row["val_value"]), rel=1e-7)
        return
    if row["val_failed"] == "-":
        assert report.reason == "goal" and "Goal not satisfied" in row["val_says"]
        return
    action, when, _, time = row["val_failed"].rsplit(" ", 3)
    step = read_plan(read_source(ROUNDED / row["plan"])).steps[(report.failed_step or 0) - 1]
    assert str(step) == action and when == "start"
    assert step.time is not None and abs(step.time - Fraction(time)) <= Fraction(1, 1000)  # VAL: the happening
    if "Failed duration constraint in" in row["val_says"] or "Tolerance of" in row["val_says"]:
        assert report.reason == "duration"


def test_duration_shown_as_written_and_as_required_exactly() -> None:
    if not ZENO.is_dir():
        pytest.skip("the shared IPC corpus is not beside the repository")
    task = GroundedTask.load(ZENO / "domain.pddl", ZENO / "instances/instance-1.pddl")
    report = validate_plan(task, ROUNDED / "zenotravel-i1-3.4253.plan", tolerance=Fraction("0.001"))
    assert report.reason == "duration" and report.failed_step == 1
    assert "the duration 3.4253 does not meet" in report.message and "within the tolerance 0.001" in report.message
    assert report.unsatisfied == ("(= ?duration (/ (distance city0 city1) (slow-speed plane1))) "
                                  "(?duration is 3.4253, required = 113/33 (3.4242424242\u2026), "
                                  "difference 349/330000 (0.0010575758\u2026))",)
    # VAL says "Tolerance of 0.001057575758 required" (rounded/manifest.tsv)
    val = next(r["val_says"] for r in ROWS if r["id"] == "zenotravel-i1-3.4253@0.001")
    assert "Tolerance of 0.001057575758 required" in val
    # a duration written with fifteen decimals is kept to the last one
    long = validate_plan(task, "0.000: (fly plane1 city0 city1) [3.424242424242424]\n")
    assert long.valid and long.makespan == Fraction("3.424242424242424")
    assert decimal(long.value or 0) == "27.256969696969696"  # 4 * 3.424242424242424 + 0.005 * 2712, exactly


@pytest.mark.parametrize(("op", "given", "required", "ok"), [
    ("=", "3.424", "113/33", True), ("=", "3.4253", "113/33", False), ("=", "3.001", "3", False),
    ("<=", "3.001", "3", True), ("<=", "3.0011", "3", False), (">=", "2.999", "3", True),
    (">=", "2.9989", "3", False), ("<", "3", "3", False), ("<", "2.9999", "3", True), (">", "3", "3", False),
])
def test_duration_meets_reads_each_operator_as_val(op: str, given: str, required: str, ok: bool) -> None:
    assert duration_meets(op, Fraction(given), Fraction(required), Fraction("0.001")) is ok


def test_exact_numbers() -> None:
    assert [exact(Fraction(v)) for v in ("3.424", "-0.125", "7", "0.001")] == ["3.424", "-0.125", "7", "0.001"]
    assert exact(Fraction(678, 198)) == "113/33 (3.4242424242\u2026)"


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["validate", str(ZENO / "domain.pddl"), str(ZENO / "instances/instance-1.pddl"), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_tolerance_is_in_every_temporal_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    if not ZENO.is_dir():
        pytest.skip("the shared IPC corpus is not beside the repository")
    plan = str(ROUNDED / "zenotravel-i1-3.42.plan")
    code, out, _ = _cli(capsys, plan)
    assert code == 0 and ("valid, value 27.24 (length 1, cost 1, makespan 3.42, duration tolerance 0.01, "
                          "happenings within 0.001)") in out
    code, out, _ = _cli(capsys, plan, "--tolerance", "0.001")
    assert code == 1 and "the duration 3.42 does not meet the action's duration constraint within the tolerance " \
        "0.001" in out
    # epsilon separates events; it does not loosen durations
    code, out, _ = _cli(capsys, plan, "--tolerance", "0.001", "--epsilon", "0.01")
    assert code == 1
    code, out, _ = _cli(capsys, plan, "--format", "json", "--tolerance", "1/1000")
    assert code == 1 and json.loads(out)["files"][2]["tolerance"] == 0.001
    with pytest.raises(SystemExit) as usage:
        _cli(capsys, plan, "--tolerance", "0")
    assert usage.value.code == 2 and "the tolerance must be positive" in capsys.readouterr().err


def test_a_condition_a_rounded_duration_feeds_is_read_within_vals_slack() -> None:
    """Recharging 3.45454 for 38/11 leaves (energy rover0) at 7.99994 ten navigations later: VAL's
    `(>= (energy rover0) 8)` passes within its 0.0001 (the plan then misses the goal); 3.4545 leaves
    7.9995, which fails (rounded/manifest.tsv)."""
    rovers = SHARED / "corpus/pddl/ipc-2002/rovers-time-automatic"
    if not rovers.is_dir():
        pytest.skip("the shared IPC corpus is not beside the repository")
    task = GroundedTask.load(rovers / "domain.pddl", rovers / "instances/instance-1.pddl")
    close = validate_plan(task, ROUNDED / "rovers-recharge-5dec.plan", tolerance=Fraction("0.001"))
    assert close.reason == "goal"
    far = validate_plan(task, ROUNDED / "rovers-recharge-4dec.plan", tolerance=Fraction("0.001"))
    assert far.reason == "precondition" and far.failed_step == 12
    assert far.unsatisfied == ("(>= (energy rover0) 8) ((energy rover0) = 7.9995)",)


def test_loosened_widens_numeric_comparisons_only() -> None:
    from pddltools.pddl import ast
    from pddltools.semantics.temporal import loosened

    fuel, x, y = ast.FunctionTerm("fuel"), ast.Variable("?x"), ast.Variable("?y")
    formula = ast.And((ast.Comparison(">=", fuel, ast.Number(8)), ast.Comparison("=", x, y),
                       ast.Not(ast.Comparison("=", fuel, ast.Number(0)))))
    out = loosened(formula, lambda e: not isinstance(e, ast.Variable), Fraction(1, 10000))
    assert str(out) == ("(and (>= (+ (fuel) 0.0001) 8) (= ?x ?y) "
                        "(not (and (< (fuel) (+ 0 0.0001)) (> (+ (fuel) 0.0001) 0))))")
