"""`pddltools test SUITE.toml`: a domain's expectations, with exit codes, JSON (its schema) and GitHub
annotations."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.schemas import schema

ROADS = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "suites" / "roads"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["test", *argv])
    return code, capsys.readouterr().out


def test_the_roads_suite_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, str(ROADS / "suite.toml"))
    assert code == 0 and out.count("PASS") == 4 and "4 passed, 0 failed" in out


def test_each_broken_expectation_is_an_e861_at_its_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("domain.pddl", "problem.pddl", "unbuilt.pddl", "drive.plan", "wrong-order.plan"):
        shutil.copy(ROADS / name, tmp_path / name)
    (tmp_path / "suite.toml").write_text(
        'domain = "domain.pddl"\n\n'
        '[[test]]\nname = "wrong value"\nproblem = "problem.pddl"\nplan = "drive.plan"\nvalue = 11\n\n'
        '[[test]]\nname = "wrong step"\nproblem = "problem.pddl"\nplan = "wrong-order.plan"\nvalid = false\n'
        'fails_at = 2\n\n'
        '[[test]]\nname = "wrong reach"\nproblem = "unbuilt.pddl"\nrelaxed_solvable = true\n'
        'reachable = ["(road y z)"]\n')
    code, out = _run(capsys, str(tmp_path / "suite.toml"), "--format", "json")
    data = json.loads(out)
    jsonschema.validate(data, schema("test"), cls=jsonschema.Draft202012Validator)
    assert code == 1 and data["summary"]["failed"] == 3
    failures = [f for t in data["tests"] for f in t["failures"]]
    assert "drive.plan has value 12, expected 11" in failures
    assert "wrong-order.plan fails at step 1, expected step 2" in failures
    assert "the goal is unreachable even under the delete relaxation" in failures
    assert any(f.startswith("(road y z) is unreachable: ") for f in failures)
    lines = [d["line"] for d in data["files"][0]["diagnostics"]]
    assert lines == [3, 9, 16, 16]  # each at its [[test]]
    code, out = _run(capsys, str(tmp_path / "suite.toml"), "--format", "github")
    assert code == 1 and out.count("::error file=") == 4 and "title=E861" in out


def test_a_suite_that_cannot_be_read_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "suite.toml").write_text('domain = "d.pddl"\n[[test]]\nproblem = "p.pddl"\nsolved = true\n')
    code = main(["test", str(tmp_path / "suite.toml"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 2 and data["files"][0]["diagnostics"][0]["code"] == "E862"
    (tmp_path / "bad.toml").write_text("[[test]\n")
    assert main(["test", str(tmp_path / "bad.toml")]) == 2
    assert main(["test", str(tmp_path / "missing.toml")]) == 2
