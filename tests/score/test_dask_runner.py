"""The runner on a real Dask cluster (scheduler in this process, workers in processes of their own): a
worker that keeps dying does not end the campaign, and a runner that dies takes its runs with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pddltools.score.limits import MB, Limits
from pddltools.score.runner import DaskExecutor, Job, Planner, problem_set, run_jobs, rundir_for
from pddltools.score.store import Store
from tests.score.processes import all_gone

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

ROOT = Path(__file__).resolve().parents[2]
PLANNERS = ROOT / "corpus" / "score" / "planners"
LINE = ROOT / "corpus" / "score" / "line"
PY = sys.executable

# Kills the Dask worker it runs under, as the OOM killer would: the worker is its supervisor's parent.
WORKER_KILLER = (
    "import os, signal, time; "
    "stat = open('/proc/%d/stat' % os.getppid()).read(); "
    "os.kill(int(stat.rsplit(')', 1)[1].split()[1]), signal.SIGKILL); "
    "time.sleep(30)"
)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    # Dask gives up on a task after its workers died twice while running it (allowed-failures 1).
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local


def test_a_task_whose_worker_keeps_dying_is_a_crash_and_the_campaign_goes_on(tmp_path: Path, cluster: Any) -> None:
    limits = Limits(wall=20, cpu=20, memory=500 * MB)
    killer = Planner("killer", f"{PY} -c \"{WORKER_KILLER}\"")
    walker = Planner("walker", f"{PY} {PLANNERS / 'walker.py'} {{problem}} {{plan}}")
    pairs = problem_set([LINE])[:4]
    jobs = [Job(p, "t", "baseline", str(d), str(q), limits, rundir_for(tmp_path, p.name, "baseline", d, q))
            for p, pairs_of in ((killer, pairs[:1]), (walker, pairs)) for d, q in pairs_of]
    with distributed.Client(cluster) as client, Store.open(tmp_path / "r.sqlite") as store:
        runs = run_jobs(jobs, store, DaskExecutor(client=client), None)
        stored = {(r.planner, r.problem): r for r in store.runs()}
    assert len(runs) == 5 and len(stored) == 5
    crash = stored["killer", "line-01"]
    assert crash.status == "crash" and "Dask worker died each of the 2 times" in crash.reason, crash
    assert all(stored["walker", f"line-0{i}"].status == "solved" for i in range(1, 5))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL])
def test_a_runner_killed_mid_campaign_stops_its_runs_on_the_workers(tmp_path: Path, cluster: Any, sig: int) -> None:
    runs = tmp_path / "runs"
    argv = [PY, "-m", "pddltools.cli", "run", str(LINE), "--planner",
            f"forker={PY} {PLANNERS / 'forker.py'} {{rundir}}/pids", "--db", str(tmp_path / "r.sqlite"),
            "--workdir", str(runs), "--dask", cluster.scheduler_address, "--wall", "60", "--memory", "500",
            "--no-validate"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    errors = tmp_path / "runner-stderr.txt"
    with errors.open("wb") as sink:
        runner = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=sink)
    deadline = time.monotonic() + 60
    while len(files := list(runs.rglob("pids"))) < 2 and time.monotonic() < deadline:
        assert runner.poll() is None, errors.read_text()
        time.sleep(0.05)
    pids = [int(p) for f in files for p in f.read_text().split()]
    assert len(pids) == 8  # two runs in flight, each a planner and three children (one in its own session)
    runner.send_signal(sig)
    runner.wait(timeout=30)
    # Well before the runs' 60 s limit: the runs were cancelled on the workers and their trees killed.
    assert all_gone(pids, within=15), errors.read_text()
    with distributed.Client(cluster) as client:
        assert not any(client.processing().values())  # both workers are free for a `--resume`
    if sig == signal.SIGTERM:
        assert runner.returncode == 128 + signal.SIGTERM, errors.read_text()
