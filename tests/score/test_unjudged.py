"""A plan the validator cannot judge (verdict `error`, reason `unsupported`) is stored as `unjudged`:
listed among the report's unexplained errors, worth no points, and never voiding a domain the way an
invalid plan does under the IPC-2023 numeric rules."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.score.store import MIGRATIONS, SCHEMA_VERSION, Store
from pddltools.score.validation import Validator

# dx/dt = x² has no closed form the validator solves (and no --delta is given): p1 cannot be judged
DOMAIN = """(define (domain grow)
  (:requirements :time :numeric-fluents)
  (:functions (x))
  (:action stop :parameters () :precondition (and) :effect (and))
  (:action bump :parameters () :precondition (and) :effect (increase (x) 1)))
"""
GROWING = DOMAIN.replace("(increase (x) 1)))", "(increase (x) 1))\n  (:process grow :parameters () :precondition "
                                               "(and) :effect (increase (x) (* #t (* (x) (x))))))")
PROBLEM = "(define (problem {name}) (:domain grow) (:init (= (x) 1)) (:goal (>= (x) 2)) (:metric minimize (x)))\n"


@pytest.fixture
def results(tmp_path: Path) -> Path:
    for folder, text in (("grow", GROWING), ("calm", DOMAIN)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "domain.pddl").write_text(text)
        for name in ("p1", "p2"):
            (tmp_path / folder / f"{name}.pddl").write_text(PROBLEM.format(name=name))
    (tmp_path / "growing.plan").write_text("0: (bump)\n1: (stop)\n")  # x grows from 0 to 1: unjudged
    (tmp_path / "instant.plan").write_text("0: (bump)\n")  # ends at 0, before x can grow: valid
    (tmp_path / "plain.plan").write_text("(bump)\n")
    runs = [("A", "grow", "p1", "growing.plan"), ("A", "grow", "p2", "instant.plan"),
            ("B", "grow", "p2", "instant.plan"), ("A", "calm", "p2", "plain.plan"), ("B", "calm", "p2", "plain.plan")]
    lines = [json.dumps({"planner": who, "config": "c", "domain": f"{folder}/domain.pddl",
                         "problem": f"{folder}/{name}.pddl", "status": "solved", "time": 1.0, "plan": plan})
             for who, folder, name, plan in runs]
    (tmp_path / "runs.jsonl").write_text("\n".join(lines) + "\n")
    return tmp_path


def test_the_validator_adapter_says_unjudged(results: Path) -> None:
    verdict = Validator()(str(results / "grow/domain.pddl"), str(results / "grow/p1.pddl"), "0: (bump)\n1: (stop)\n")
    assert (verdict.valid, verdict.judged, verdict.status) == (False, False, "unjudged")
    assert verdict.reason.startswith("unsupported: cannot judge this plan") and "domain.pddl:6:81" in verdict.reason
    calm = Validator()(str(results / "calm/domain.pddl"), str(results / "calm/p1.pddl"), "(stop)\n")
    assert (calm.valid, calm.judged, calm.status) == (False, True, "invalid-plan")  # the goal is not met


def test_score_does_not_void_the_domain(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(results / "runs.jsonl"), "--rules", "ipc2023-numeric-sat", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # grow/p2 and calm/p2: both solve them, 1 point each. A's unjudged grow/p1 scores nothing, and does
    # not void A's grow (an invalid plan would: A would keep 1 point, from calm)
    assert {name: e["total"] for name, e in data["planners"].items()} == {"A": 2.0, "B": 2.0}
    assert data["voided"] == [] and len(data["ignored"]) == 1


def test_the_report_lists_it_among_the_unexplained_errors(results: Path) -> None:
    out = results / "report.html"
    assert main(["report", str(results / "runs.jsonl"), "--rules", "ipc2023-numeric-sat", "-o", str(out)]) == 0
    html = out.read_text()
    errors = html[html.index('id="errors"'):html.index("</table>", html.index('id="errors"'))]
    assert errors.count('class="name unjudged">unjudged<') == 1 and "cannot judge this plan" in errors
    assert "cannot judge</td>" in html  # the instances table's verdict


def test_a_version_3_database_migrates_and_stores_unjudged_runs(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("".join(MIGRATIONS[:3]) + "PRAGMA user_version = 3;")
    db.execute("INSERT INTO runs (planner, track, config, domain_path, domain_hash, problem_path, problem_hash, "
               "status, wall, cpu, peak_memory, finished_at, domain, wall_limit) VALUES ('A', 't', 'c', "
               "'/c/d/domain.pddl', '1', '/c/d/p1.pddl', '2', 'invalid-plan', 1, 1, 0, 0, 'd', 60)")
    db.commit()
    db.close()
    with Store.open(path) as store:
        assert store.version == SCHEMA_VERSION == 4
        [old] = store.runs()
        assert (old.status, old.domain, old.wall_limit) == ("invalid-plan", "d", 60)
        store.add(old.__class__(**{**old.to_json(), "problem_path": "/c/d/p2.pddl", "status": "unjudged"}))
        assert [r.status for r in store.runs()] == ["invalid-plan", "unjudged"]
