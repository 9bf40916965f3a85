"""The runner's and the results store's reproducers of ../shared/fuzz/turn3 (issue 30), each doing what the
folder's README says it must: a planner's hostile plan files end as `crash` rows with their reason, the
runner stops on a signal even with a worker stuck, campaigns share a work folder, a damaged or foreign
database is refused with an S-code and left unchanged, a deeply nested results line is a located S041.

The commands run in a child process (`commands_child.py`) under an address-space cap, with a timeout,
as `tests/test_fuzz_reproducers.py` runs its reproducers: a regression to a hang or to unbounded memory
fails here instead of stalling CI. The assertions are on what happened (rows, reasons, exit statuses,
processes left), never on how long it took: benchmarks/runner_limits.py measures that.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pddltools.score.store import Run, Store
from tests.fuzzing import TURN3, child_env, hostile_planners

from .processes import all_gone

CHILD = Path(__file__).with_name("commands_child.py")
PY = sys.executable
CAP_MB = 2048  # the child's address space: the runner, its threads, the validator's imports
HANG = 300  # seconds: a child still running after this is hung (each finishes in a few seconds)

pytestmark = pytest.mark.skipif(not TURN3.is_dir(), reason=f"the reproducers are not at {TURN3}")


def reproducer(name: str, tmp: Path) -> Path:
    """A writable copy of the reproducer's folder (the shared one is read-only)."""
    folder = tmp / name
    shutil.copytree(TURN3 / name, folder)
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return folder


def commands(cwd: Path, *argvs: list[str]) -> list[dict[str, Any]]:
    """Run pddltools commands in one child process under the caps; what each one did."""
    done = subprocess.run([PY, str(CHILD), str(CAP_MB), json.dumps(list(argvs))], cwd=cwd, env=child_env(),
                          capture_output=True, text=True, timeout=HANG)
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == len(argvs), done.stderr[-3000:]
    for result in results:
        assert "Traceback" not in result["err"], result["err"]
    return results


def rows(db: Path) -> dict[str, sqlite3.Row]:
    connection = sqlite3.connect(db)
    connection.row_factory = sqlite3.Row
    try:
        return {row["planner"]: row for row in connection.execute("SELECT * FROM runs")}
    finally:
        connection.close()


# ---------------------------------------------------------------------------------------------------
# The planner's files: run-plan-symlink, run-plan-fifo-hang, run-plan-size-memory

def test_hostile_planners_each_end_as_a_crash_row_with_its_reason(tmp_path: Path) -> None:
    root = tmp_path / "campaign"
    root.mkdir()
    secret = hostile_planners(root, "root:$6$SECRET-HASH-LINE:19000:0:99999:7:::\n")
    planners = {
        "leak": f"symfile.py {{problem}} {{plan}} {secret}",
        "zero": "symzero.py {problem} {plan}",
        "fifo": "fifo.py {problem} {plan}",
        "folder": "plandir.py {problem} {plan}",
        "steps": "bigsteps.py {problem} {plan} 100",  # 100 MB of steps
        "pad": "bigplan.py {problem} {plan} 20",  # a valid plan and 20 MB of comments
        "many": "manyplans.py {problem} {plan} 300 0",  # 300 anytime plans
        "filler": "filler.py",  # fills its folder
    }
    argv = ["run", "line/line-01.pddl", "--domain", "line/domain.pddl", "--db", "r.db", "--workdir", "runs",
            "--wall", "30", "--memory", "512", "--disk", "150", "--jobs", "2"]
    for name, command in planners.items():
        argv += ["--planner", f"{name}={PY} {command}"]
    ran, reported = commands(root, argv, ["report", "r.db", "-o", "r.html"])
    assert ran["status"] == 0 and reported["status"] == 0, ran["err"]
    found = rows(root / "r.db")
    reasons = {name: row["reason"] for name, row in found.items()}
    assert {name: row["status"] for name, row in found.items()} == {**dict.fromkeys(planners, "crash"),
                                                                    "many": "solved"}, reasons
    assert "is a symbolic link" in reasons["leak"] and "is a symbolic link (to /dev/zero)" in reasons["zero"]
    assert "is a named pipe" in reasons["fifo"] and "is a directory" in reasons["folder"]
    assert "has 100.0 MB, over the 16.0 MB a plan may have" in reasons["steps"]
    assert "has 20.0 MB, over the 16.0 MB" in reasons["pad"]
    assert "over the 150 MB it may use (--disk)" in reasons["filler"]
    # only the newest anytime plan is read, and it is the one stored
    assert found["many"]["plan_text"] == "(walk p0 p1)\n"
    assert all(row["plan_text"] is None for name, row in found.items() if name != "many")
    assert all(row["plan_limit"] == 16 << 20 and row["disk_limit"] == 150 << 20 for row in found.values())
    # nothing of the secret reached the database or the report; the report says the caps
    assert b"SECRET-HASH" not in (root / "r.db").read_bytes()
    html = (root / "r.html").read_text()
    assert "SECRET-HASH" not in html and "plan file (MB)" in html
    # what was over the disk budget, and the plans over the size cap, were removed; the runner stayed small
    assert not list((root / "runs").rglob("fill-*"))
    assert reasons["steps"].endswith("; removed") and not list((root / "runs" / "steps").rglob("plan"))
    assert ran["peak_mb"] < 200, ran["peak_mb"]


BLOCKED = """
import os, sys, threading
from pathlib import Path
from pddltools.score import runner
from pddltools.score.limits import Limits
from pddltools.score.store import Store

read_end, write_end = os.pipe()

def stuck(job, cpus=None, cancel=None):
    Path(sys.argv[2]).write_text("started")
    os.read(read_end, 1)  # a system call nothing will ever end

runner.execute = stuck
domain, problem = sys.argv[3], sys.argv[4]
job = runner.Job(runner.Planner("p", "true"), "", "baseline", domain, problem, Limits(wall=5),
                 str(Path(sys.argv[1]) / "runs" / "p"))
with Store.open(Path(sys.argv[1]) / "r.db") as store:
    runner.run_jobs([job], store, runner.LocalExecutor(1, stop_wait=0.2), None)
"""


def test_one_sigterm_stops_the_runner_while_a_worker_is_blocked(tmp_path: Path) -> None:
    """run-plan-fifo-hang: one SIGTERM ended nothing while a worker was blocked in a system call."""
    line = TURN3 / "run-plan-fifo-hang" / "line"
    started = tmp_path / "started"
    env = child_env()
    process = subprocess.Popen([PY, "-c", BLOCKED, str(tmp_path), str(started), str(line / "domain.pddl"),
                                str(line / "line-01.pddl")], env=env, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(6000):  # until the worker is in its system call (a hang guard, not a timing)
            if started.exists() or process.poll() is not None:
                break
            subprocess.run(["sleep", "0.01"])
        assert started.exists(), process.stderr.read() if process.stderr else ""
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=HANG)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert status == 128 + signal.SIGTERM
    assert all_gone([process.pid])


# ---------------------------------------------------------------------------------------------------
# run-concurrent-same-workdir


def test_four_campaigns_at_once_on_one_database_and_work_folder(tmp_path: Path) -> None:
    folder = reproducer("run-concurrent-same-workdir", tmp_path)
    argv = [PY, str(CHILD), str(CAP_MB)]
    problems = [f"line/line-0{i}.pddl" for i in range(1, 5)]
    # --resume, as a campaign started on several machines at once is: one that starts after another has
    # stored every run keeps them (without it, S024 refuses to replace them, which is right on its own)
    run = ["run", *problems, "--domain", "line/domain.pddl", "--db", "conc.db", "--workdir", "runs-conc",
           "--wall", "30", "--memory", "512", "--jobs", "2", "--no-validate", "--resume"]
    for k in range(2):
        run += ["--planner", f"P{k}={PY} planners/slow_walker.py {{problem}} {{plan}} 0.0{k}"]
    env = child_env()
    campaigns = [subprocess.Popen([*argv, json.dumps([run])], cwd=folder, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = []
    for campaign in campaigns:
        out, err = campaign.communicate(timeout=HANG)
        (result,) = [json.loads(line) for line in out.splitlines()] or [{"status": None, "err": err, "out": ""}]
        results.append(result)
    assert [r["status"] for r in results] == [0] * 4, [r["err"][-2000:] for r in results]
    assert not any("Traceback" in r["err"] for r in results)
    connection = sqlite3.connect(folder / "conc.db")
    stored = connection.execute("SELECT planner, problem_path, status, reason FROM runs").fetchall()
    connection.close()
    assert len(stored) == 8 and {s[2] for s in stored} == {"solved"}, stored
    assert len({(s[0], s[1]) for s in stored}) == 8
    # each run was run once, by one of the campaigns; the others left it to it
    ran = [int(r["out"].split(" run")[0].split()[-1]) for r in results]
    assert sum(ran) == 8, [r["out"] for r in results]


# ---------------------------------------------------------------------------------------------------
# run-resume-corrupt-db, report-writes-foreign-db, results-deep-json


def _results_database(path: Path, line: Path) -> None:
    """An 80-run results database (the reproducer's results.db, which is not in the shared folder)."""
    with Store.open(path) as store:
        for k in range(10):
            for i in range(1, 9):
                problem = line / f"line-0{i}.pddl"
                store.add(Run(planner=f"P{k}", track="", config="baseline", domain="line",
                              domain_path=str(line / "domain.pddl"), domain_hash="-", problem_path=str(problem),
                              problem_hash="-", status="solved", wall=0.1 * i, cpu=0.1 * i, peak_memory=1,
                              plan_text="(walk p0 p1)\n" * i, length=i, value=float(i)))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_damaged_and_foreign_databases_are_refused_and_left_unchanged(tmp_path: Path) -> None:
    folder = reproducer("run-resume-corrupt-db", tmp_path)
    _results_database(folder / "results.db", (folder / "line").resolve())
    damaged = folder / "mid.db"
    shutil.copy(folder / "results.db", damaged)
    with open(damaged, "r+b") as handle:  # 4 KB of noise over page 3 (an index), as cmd.sh does
        handle.seek(8192)
        handle.write(random.Random(3).randbytes(4096))
    foreign = folder / "other.db"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE notes(x)")
    connection.commit()
    connection.close()
    before = {path: _digest(path) for path in (damaged, foreign)}
    resume = ["run", "line", "--planner", f"P0={PY} planners/slow_walker.py {{problem}} {{plan}} 0", "--wall", "10",
              "--workdir", "runs", "--resume"]
    intact = _digest(folder / "results.db")
    *results, scored, selected = commands(
        folder, ["score", "mid.db", "--rules", "ipc2008-sat"], ["report", "mid.db", "-o", "r.html"],
        [*resume, "--db", "mid.db"], ["report", "other.db", "-o", "o.html"], ["score", "other.db", "--rules",
                                                                               "ipc2008-sat"],
        [*resume, "--db", "other.db"], ["select", "other.db"],
        # the intact database still reads, by each reading command, without being written to
        ["score", "results.db", "--rules", "ipc2008-sat", "--format", "json"], ["select", "results.db", "--size", "2"])
    codes = [(r["status"], r["err"].split("[")[1].split("]")[0] if "[" in r["err"] else r["err"]) for r in results]
    assert codes == [(2, "S004")] * 3 + [(2, "S001")] * 4
    # the noise is over page 3: depending on what the schema put there, SQLite finds it reading the schema
    # or quick_check does; either way S004 names the file and nothing is read from it
    assert "mid.db is damaged" in results[0]["err"]
    assert "another program" in results[3]["err"] and "left unchanged" in results[3]["err"]
    assert {path: _digest(path) for path in (damaged, foreign)} == before  # nothing written to either
    assert not (folder / "runs").exists()  # run --resume ran nothing
    assert scored["status"] == 0 and selected["status"] == 0
    assert json.loads(scored["out"])["summary"]["runs"] == 80
    assert _digest(folder / "results.db") == intact


def test_a_results_line_nested_100000_deep_is_a_located_s041(tmp_path: Path) -> None:
    folder = reproducer("results-deep-json", tmp_path)
    # and (the same child) results lines naming a named pipe and /dev/zero as their plan file
    shutil.copytree(TURN3 / "run-plan-symlink" / "line", folder / "line")
    os.mkfifo(folder / "p.fifo")
    line = {"planner": "A", "domain": "line/domain.pddl", "problem": "line/line-01.pddl", "time": 1,
            "status": "solved", "config": "baseline"}
    (folder / "fifo.jsonl").write_text(json.dumps({**line, "plan": "p.fifo"}) + "\n")
    (folder / "zero.jsonl").write_text(json.dumps({**line, "plan": "/dev/zero"}) + "\n")
    *deep, fifo, zero = commands(folder, ["score", "deepjson.jsonl", "--rules", "ipc2008-sat"],
                                 ["report", "deepjson.jsonl", "-o", "out.html"],
                                 ["select", "deepjson.jsonl", "--size", "2"],
                                 ["score", "fifo.jsonl", "--rules", "ipc2008-sat"],
                                 ["score", "zero.jsonl", "--rules", "ipc2008-sat"])
    for result in deep:
        assert result["status"] == 1
        assert result["err"].startswith("deepjson.jsonl:1:1: error[S041]: JSON nested deeper"), result["err"][:300]
        assert "RecursionError" not in result["err"]
    assert not (folder / "out.html").exists()
    assert fifo["status"] == 2 and "error[S044]: the plan file p.fifo is a named pipe" in fifo["err"]
    assert zero["status"] == 2 and "error[S044]: the plan file zero is a character device" in zero["err"]
