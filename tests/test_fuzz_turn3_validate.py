"""The validator's hostile inputs of ../shared/fuzz/turn3 (plan-time-lax, validate-float-overflow,
view-float-overflow), run as their cmd.sh runs them, each command under an alarm, so that a regression
to a hang fails here instead of stalling CI; each must end in a located verdict or an exact result,
never a traceback (see that folder's README for what each must do).

- plan-time-lax: plan times are decimals, as VAL's plan grammar reads them: `1_0.5`, Arabic-Indic
  digits, `21/2`, `[1_0]`, `[3/1]` are V001 at the number, and a negative time is V001 too.
- validate-float-overflow: past 1.8e308 the value, makespan and failure time are exact, in text and in
  JSON (a string there, which the schema allows, where a double would be infinite).
- view-float-overflow: a fluent past 1.8e308 is drawn clamped, its exact value kept in the table.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.schemas import schema
from tests.fuzzing import REPO, TURN3, alarm

CAR = REPO / "corpus" / "plans" / "pddl+" / "car"
TEMPORAL = REPO / "corpus" / "plans" / "temporal"
NUMERIC = REPO / "corpus" / "plans" / "numeric"
#: seconds a command may take: generous (CI machines are slow and shared); each takes well under one
TIMEOUT = 30


@pytest.fixture
def pddltools(capsys: pytest.CaptureFixture[str]) -> Any:
    def run(*args: str | Path, cwd: Path) -> tuple[int, str, str]:
        here = Path.cwd()
        os.chdir(cwd)
        try:
            with alarm(TIMEOUT):
                code = main([str(a) for a in args])
        finally:
            os.chdir(here)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err, err
        return code, out, err
    return run


def plans(output: str) -> list[dict[str, Any]]:
    data = json.loads(output)
    jsonschema.validate(data, schema("validate"), cls=jsonschema.Draft202012Validator)
    return [f for f in data["files"] if f["kind"] == "plan"]


@pytest.fixture(scope="module")
def turn3() -> Path:
    if not TURN3.is_dir():
        pytest.skip(f"the fuzz reproducers are not at {TURN3}")
    return TURN3


def test_plan_time_lax(turn3: Path, pddltools: Any) -> None:
    folder = turn3 / "plan-time-lax"
    names = ("underscore", "arabic-digits", "fraction", "negative")
    code, out, _ = pddltools("validate", "--format", "json", CAR / "domain.pddl", CAR / "problem.pddl",
                             *(f"{n}.plan" for n in names), cwd=folder)
    assert code == 1
    found = {Path(p["plan"]).stem: p for p in plans(out)}
    for name in names:
        plan = found[name]
        assert (plan["verdict"], plan["reason"]) == ("error", "syntax"), name
        [diagnostic] = plan["diagnostics"]
        assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("V001", 2, 1), name
    assert "'1_0.5' is not a number: plan times and durations are decimals" in found["underscore"]["message"]
    assert "'\u0661\u0660' is not a number" in found["arabic-digits"]["message"]
    assert "'21/2' is not a number" in found["fraction"]["message"]
    assert found["negative"]["message"] == "the step time -5 is negative: a plan starts at time 0"
    code, out, _ = pddltools("validate", TEMPORAL / "domain.pddl", TEMPORAL / "problem.pddl", "temporal-lax.plan",
                             cwd=folder)
    assert code == 1 and "temporal-lax.plan:2:24: error[V001]: the duration '1_0' is not a number" in out


def test_validate_float_overflow(turn3: Path, tmp_path: Path, pddltools: Any) -> None:
    folder = turn3 / "validate-float-overflow"
    # the reproducers as written: 1e309 is not a plan number (decimals only), located, no traceback
    code, out, _ = pddltools("validate", "--format", "json", "wait-domain.pddl", "wait-problem.pddl",
                             "wait-big-frac.plan", cwd=folder)
    assert code == 1 and plans(out)[0]["diagnostics"][0]["code"] == "V001"
    code, out, _ = pddltools("validate", "wait-domain.pddl", "wait-problem3.pddl", "wait-big.plan", cwd=folder)
    assert code == 1 and "wait-big.plan:1:12: error[V001]: the duration '1e309' is not a number" in out
    code, out, _ = pddltools("validate", "--format", "json", CAR / "domain.pddl", CAR / "problem.pddl",
                             "pddlplus-1e309.plan", cwd=folder)
    assert code == 1 and plans(out)[0]["reason"] == "syntax"
    # the same magnitudes written as decimals: exact values in JSON and in text
    huge = "1" + "0" * 320
    (tmp_path / "frac.plan").write_text(f"0.5: (wait) [{huge}]\n")
    (tmp_path / "whole.plan").write_text(f"0: (wait) [{huge}]\n")
    (tmp_path / "car.plan").write_text(f"0: (start_car)\n{huge}.5: (accelerate)\n")
    code, out, _ = pddltools("validate", "--format", "json", folder / "wait-domain.pddl",
                             folder / "wait-problem.pddl", "frac.plan", cwd=tmp_path)
    [plan] = plans(out)
    assert code == 0 and plan["valid"] and plan["value"] == plan["makespan"] == huge + ".5"  # exact, a string
    code, out, _ = pddltools("validate", folder / "wait-domain.pddl", folder / "wait-problem3.pddl", "whole.plan",
                             cwd=tmp_path)
    assert code == 0 and "valid, value 3.333333333e+319 (length 1, cost 1, makespan " + huge + "," in out
    code, out, _ = pddltools("validate", "--format", "json", CAR / "domain.pddl", CAR / "problem.pddl", "car.plan",
                             cwd=tmp_path)
    [plan] = plans(out)
    assert code == 1 and plan["reason"] == "goal" and plan["failed_time"] == huge + ".5"


def test_view_float_overflow(turn3: Path, tmp_path: Path, pddltools: Any) -> None:
    folder = turn3 / "view-float-overflow"
    code, out, _ = pddltools("validate", NUMERIC / "domain.pddl", "problem.pddl", "hp.plan", cwd=folder)
    assert code == 0 and "hp.plan: valid, value 4" in out
    page = tmp_path / "out.html"
    code, out, _ = pddltools("view", NUMERIC / "domain.pddl", "problem.pddl", "hp.plan", "-o", page, "--force",
                             cwd=folder)
    assert code == 0 and page.is_file()
    html = page.read_text()
    numbers = [float(n) for n in re.findall(r'(?:points|x|y|x1|x2|y1|y2|width|height)="([-0-9., e+]+)"', html)
               for n in n.replace(",", " ").split()]
    assert numbers and all(abs(n) < 1e6 for n in numbers)  # every coordinate on the page, finite
    assert ">1e+300</text>" in html  # the axis ends at the clamp
    assert "1" + "0" * 309 in html  # (level a) = 1e309, exactly, in the table
