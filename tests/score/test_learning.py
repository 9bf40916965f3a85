"""The IPC-2011 learning-track workflow through the CLI: training set from a generator, learning under
limits, the knowledge hash and its reproduction, then test runs with and without the knowledge."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.score.learning import folder_hash
from pddltools.score.store import Store

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "score"
PLANNERS = CORPUS / "planners"
LINE = CORPUS / "line"
PY = sys.executable


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out) if out.strip().startswith("{") else {}


def test_folder_hash_sees_names_and_bytes(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "k.txt").write_text("1")
    first = folder_hash(tmp_path / "a")
    (tmp_path / "a" / "k.txt").write_text("2")
    assert folder_hash(tmp_path / "a") != first
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "j.txt").write_text("1")
    assert folder_hash(tmp_path / "b") != first


def test_learn_reproduce_and_measure_the_impact(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.sqlite")
    code, learned = run_cli(
        capsys, "learn", str(LINE / "domain.pddl"), "--planner", "knowing",
        "--learner", f"{PY} {PLANNERS / 'learn_line.py'} {{domain}} {{training}} {{dck}}",
        "--generator", f"{PY} {PLANNERS / 'gen_line.py'} {{seed}} {{problem}}", "--seeds", "1-5",
        "--out", str(tmp_path / "learning"), "--db", db, "--reproduce", "2", "--wall", "20", "--memory", "500",
        "--format", "json")
    assert code == 0, learned
    assert learned["training_problems"] == 5 and learned["status"] == "learned" and learned["reproduced"] is True
    dck = Path(learned["dck"])
    assert (dck / "knowledge.txt").read_text() == "longest 6\n"  # seed 5: 6 links
    assert learned["reproduction_hashes"] == [learned["content_hash"]] * 2
    with Store.open(db) as store:
        assert [k.attempt for k in store.knowledge("knowing")] == [0, 1, 2]

    # The same learner, but one that writes the time: not reproduced, exit 1.
    code, noisy = run_cli(
        capsys, "learn", str(LINE / "domain.pddl"), "--planner", "noisy",
        "--learner", f"{PY} {PLANNERS / 'learn_line.py'} {{domain}} {{training}} {{dck}} --noisy",
        "--training", str(tmp_path / "learning" / "training"), "--out", str(tmp_path / "noisy"), "--db", db,
        "--format", "json")
    assert code == 1 and noisy["reproduced"] is False

    problems = [str(LINE / f"line-0{i}.pddl") for i in (1, 2, 3)]
    code, ran = run_cli(
        capsys, "run", *problems, "--planner",
        f"knowing={PY} {PLANNERS / 'knowing_walker.py'} {{problem}} {{plan}} {{dck}}",
        "--dck", str(dck), "--db", db, "--workdir", str(tmp_path / "runs"), "--track", "learning",
        "--limits", "ipc2011-learning", "--wall", "20", "--memory", "500", "--no-validate", "--format", "json")
    assert code == 0 and ran["ran"] == 6 and ran["statuses"] == {"solved": 6}
    code, ran = run_cli(
        capsys, "run", *problems, "--planner", f"winner={PY} {PLANNERS / 'walker.py'} {{problem}} {{plan}}",
        "--db", db, "--workdir", str(tmp_path / "runs"), "--no-validate", "--format", "json")
    assert code == 0 and ran["statuses"] == {"solved": 3}

    code, scores = run_cli(capsys, "score", db, "--rules", "ipc2011-time", "--learning-impact",
                           "--sequential-winner", "winner", "--format", "json")
    assert code == 0
    assert set(scores["planners"]) == {"knowing (baseline)", "knowing (dck)", "winner"}
    impact = scores["learning_impact"]["planners"]["knowing"]
    # With knowledge every run is under 1 s (score 1 each, 3 in all); without, each takes 1.5 s or more,
    # T* = 1 s (the floor), so each scores at most 1/(1+log10(1.5)) = 0.85.
    assert impact["dck"] == pytest.approx(3.0)
    assert impact["baseline"] < 3 * 0.851 and impact["delta"] > 0.4
    assert impact["pareto_rank"] == 1
    # The winner also scores 3 (all under 1 s): with knowledge 'knowing' ties it, it does not beat it.
    assert scores["learning_impact"]["sequential_winner_score"] == pytest.approx(3.0)
    assert impact["special_award"] is False
