"""`pddltools score`'s tables and the report's words: plurals, domains as rows, names left and numbers
right in every table, and limits that a JSON-lines file does not have said to be unknown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pddltools.cli import main

LINE = Path(__file__).resolve().parents[2] / "corpus" / "score" / "line"
RESULTS = LINE.parent / "results" / "line.jsonl"


def one_run(tmp_path: Path) -> Path:
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps({"planner": "solo", "domain": str(LINE / "domain.pddl"),
                                "problem": str(LINE / "line-01.pddl"), "plan": str(LINE / "line-01.plan"),
                                "time": 0.5, "status": "solved", "config": "baseline"}) + "\n")
    return path


def test_one_of_each_is_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(one_run(tmp_path)), "--rules", "ipc2008-sat", "--no-validate"]) == 0
    out = capsys.readouterr().out
    assert "ipc2008-sat: 1 run, 0 problems solved by none" in out
    assert "score per domain (1 domain)" in out
    report = tmp_path / "r.html"
    assert main(["report", str(one_run(tmp_path)), "--no-validate", "-o", str(report)]) == 0
    assert f"wrote {report} (1 run)" in capsys.readouterr().out
    html = report.read_text()
    assert "1 run, 1 planner, 1 domain, 0 problems solved by no planner" in html


def test_score_table_has_domains_as_rows_and_aligns_names_left(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(RESULTS), "--rules", "ipc2008-sat", "--no-validate"]) == 0
    out = capsys.readouterr().out
    assert "16 runs" in out
    lines = out.splitlines()
    ranking = [line for line in lines if line.startswith("│") and ("A" in line or "B" in line)][:2]
    per_domain = [line for line in lines if line.startswith("│ line")]
    # The ranking: rank right-aligned, the planner left-aligned right after its border.
    assert [cell.strip() for cell in ranking[0].strip("│").split("│")] == ["1", "A", "8.00", "8"]
    assert ranking[0].split("│")[2].startswith(" A ") and ranking[0].split("│")[1].endswith(" 1 ")
    # Score per domain: a row per domain, the domain left-aligned, each planner's score right-aligned.
    [row] = per_domain
    cells = row.split("│")[1:-1]
    assert cells[0].startswith(" line ") and [c.strip() for c in cells] == ["line", "8.00", "4.00"]
    assert all(c.endswith(" ") and c[:-1].endswith(c.strip()) for c in cells[1:])


def test_report_of_a_json_lines_file_says_its_limits_are_not_recorded(tmp_path: Path) -> None:
    report = tmp_path / "r.html"
    assert main(["report", str(RESULTS), "--no-validate", "-o", str(report)]) == 0
    html = report.read_text()
    limits = html[html.index('<table id="limits">'):]
    limits = limits[:limits.index("</table>")]
    assert limits.count("not recorded") == 5 and ">16<" in limits and ">A, B<" in limits
    assert "did not keep the limits" in html
    # line-08 has A's plan and B has none: in a JSON-lines file taken at its word, nothing is unexplained.
    assert 'id="no-errors"' in html and '<table id="errors">' not in html
