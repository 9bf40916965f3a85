"""End to end: pyperplan and Fast Downward (from up-fast-downward) on small IPC problems under limits,
results stored, every plan validated, scores and the HTML report produced."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.score.store import Store

pytestmark = pytest.mark.corpus

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "pddl"
BLOCKS = SHARED / "ipc-2000" / "blocks-strips-typed" / "instances"
GRIPPER = SHARED / "ipc-1998" / "gripper-round-1-strips" / "instances"


def fast_downward() -> Path | None:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        return None
    script = Path(spec.origin).parent / "downward" / "fast-downward.py"
    return script if script.is_file() else None


def test_two_real_planners_scored_and_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not BLOCKS.is_dir() or not GRIPPER.is_dir():
        pytest.skip(f"the shared IPC corpus is not at {SHARED}")
    pytest.importorskip("pyperplan")
    fd = fast_downward()
    if fd is None:
        pytest.skip("up-fast-downward is not installed")
    problems = [str(BLOCKS / f"instance-{i}.pddl") for i in (1, 2, 3)] + [str(GRIPPER / "instance-1.pddl")]
    db = str(tmp_path / "results.sqlite")
    py = sys.executable
    code = main(["run", *problems,
                 "--planner", f"pyperplan={py} -m pyperplan -s astar -H hmax {{domain}} {{problem}}",
                 "--plan-file", "pyperplan={problem}.soln",
                 "--planner", f"fd={py} {fd} --plan-file {{plan}} {{domain}} {{problem}} --search astar(lmcut())",
                 "--unsolved-codes", "fd=0,11,12",
                 "--db", db, "--workdir", str(tmp_path / "runs"), "--wall", "120", "--memory", "2000",
                 "--jobs", "2", "--format", "json"])
    ran = json.loads(capsys.readouterr().out)
    assert code == 0 and ran["ran"] == 8 and ran["statuses"] == {"solved": 8}
    with Store.open(db) as store:
        runs = store.runs()
    assert all(r.length is not None and r.length > 0 and r.plan_hash and r.peak_memory > 0 for r in runs)
    # Both planners search optimally (A* with an admissible heuristic): the validated lengths agree.
    lengths = {(r.planner, r.problem_path): r.length for r in runs}
    for problem in problems:
        stored = str(Path(problem).resolve())  # the store keeps resolved paths (../shared may be a link)
        assert lengths["fd", stored] == lengths["pyperplan", stored]

    code = main(["score", db, "--rules", "ipc2008-opt", "--format", "json"])
    opt = json.loads(capsys.readouterr().out)
    assert code == 0 and opt["penalties"] == []
    assert opt["planners"]["fd"]["total"] == opt["planners"]["pyperplan"]["total"] == 4
    assert opt["planners"]["fd"]["domains"] == {"blocks-strips-typed": 3, "gripper-round-1-strips": 1}
    code = main(["score", db, "--rules", "ipc2011-time", "--format", "json"])
    timed = json.loads(capsys.readouterr().out)
    assert code == 0 and all(0 < p["total"] <= 4 for p in timed["planners"].values())
    assert max(p["total"] for p in timed["planners"].values()) > 3  # on each problem somebody is fastest

    report = tmp_path / "report.html"
    code = main(["report", db, "--rules", "ipc2011-time", "-o", str(report)])
    capsys.readouterr()
    html = report.read_text()
    assert code == 0 and html.count("<svg") == 3 and "gripper-round-1-strips" in html
