"""`pddltools score|select|report` on a JSON-lines results file, and their errors."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

import pytest

from pddltools.cli import main

RESULTS = Path(__file__).resolve().parents[2] / "corpus" / "score" / "results" / "line.jsonl"

def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_score_json_unvalidated(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "score", str(RESULTS), "--rules", "ipc2011-time", "--no-validate", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "ipc2011-time"
    # Taken at their word: A solves all 8 (fastest on each: 8 points); B solves 1-4 at four times A's
    # time: p1 T* = 1 (0.5 s raised to 1 s), B 2 s: 1/(1+log10 2); p2-p4 B/A = 4: 1/(1+log10 4) each.
    assert data["planners"]["A"]["total"] == pytest.approx(8)
    b = 1 / (1 + math.log10(2)) + 3 / (1 + math.log10(4))
    assert data["planners"]["B"]["total"] == pytest.approx(b)
    assert data["planners"]["B"]["solved"] == 4 and data["planners"]["B"]["domains"] == {"line": pytest.approx(b)}


def test_score_validates_every_plan(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "score", str(RESULTS), "--rules", "ipc2011-time", "--format", "json")
    assert code == 0
    data = json.loads(out)
    # A's plan for line-08 and B's for line-02 are invalid: line-08 is solved by nobody (ignored), A
    # gets 7; B keeps p1 (1/(1+log10 2)), p3 and p4 (1/(1+log10 4) each).
    assert data["planners"]["A"]["total"] == pytest.approx(7) and data["planners"]["A"]["solved"] == 7
    assert data["planners"]["B"]["total"] == pytest.approx(1 / (1 + math.log10(2)) + 2 / (1 + math.log10(4)))
    assert [Path(p).name for p in data["ignored"]] == ["line-08.pddl"]
    statuses = {(p["entrant"], Path(p["problem"]).name): p["status"] for p in data["problems"]}
    assert statuses["B", "line-02.pddl"] == "invalid-plan"


def test_score_csv_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "score", str(RESULTS), "--rules", "ipc2008-sat", "--no-validate", "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == ["rank", "planner", "total", "solved", "line"]
    assert rows[1] == ["1", "A", "8.0000", "8", "8.0000"] and rows[2] == ["2", "B", "4.0000", "4", "4.0000"]
    code, out, _ = cli(capsys, "score", str(RESULTS), "--rules", "ipc2008-opt", "--no-validate")
    assert code == 0 and "ipc2008-opt" in out and "8.00" in out


def test_select_and_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = cli(capsys, "select", str(RESULTS), "--no-validate", "--size", "4", "--min-solved", "2",
                       "--format", "json")
    [domain] = json.loads(out)["domains"]
    # 8 candidates, all solved by A, 1-4 also by B. Trivial (both within 5 s): 1 and 2. More than 4 solved:
    # drop the trivial 1 and 2, nothing is too hard, then the easiest left, 3 and 4 (two planners); 5-8 stay.
    assert code == 0 and domain["verdict"] == "selected"
    assert [Path(p).name for p in domain["kept"]] == [f"line-0{i}.pddl" for i in (5, 6, 7, 8)]
    report = tmp_path / "r.html"
    code, out, _ = cli(capsys, "report", str(RESULTS), "--no-validate", "--rules", "ipc2011-time", "-o", str(report),
                       "--format", "json")
    assert code == 0 and json.loads(out)["runs"] == 16
    assert report.read_text().count("<svg") == 3


def test_bad_results_are_located_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"planner": "A"}\n')
    code, _, err = cli(capsys, "score", str(bad), "--rules", "ipc2008-sat", "--no-validate")
    assert code == 1 and "bad.jsonl:1:1" in err and "'domain'" in err
    bad.write_text(RESULTS.read_text().splitlines()[0].replace('"solved"', '"great"') + "\n")
    code, _, err = cli(capsys, "score", str(bad), "--rules", "ipc2008-sat", "--no-validate")
    assert code == 1 and "unknown status 'great'" in err
    code, _, err = cli(capsys, "score", str(tmp_path / "missing.jsonl"), "--rules", "ipc2008-sat")
    assert code == 2 and "no such file" in err
    (tmp_path / "x.jsonl").write_text("{nope\n")
    code, _, err = cli(capsys, "score", str(tmp_path / "x.jsonl"), "--rules", "ipc2008-sat", "--no-validate")
    assert code == 1 and "not JSON" in err
    code, _, err = cli(capsys, "run", str(RESULTS.parent.parent / "line"), "--planner", "x=plan {domian}",
                       "--db", str(tmp_path / "r.sqlite"))
    assert code == 2 and "unknown field {domian}" in err
