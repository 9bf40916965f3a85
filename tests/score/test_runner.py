"""The runner: run folders, statuses, executors, and `--resume` after the runner is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pddltools.score.limits import MB, Limits
from pddltools.score.runner import DaskExecutor, Job, LocalExecutor, Planner, problem_set, run_jobs, rundir_for
from pddltools.score.store import Store
from pddltools.score.validation import PlanVerdict
from tests.score.processes import gone

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "score"
PLANNERS = CORPUS / "planners"
LINE = CORPUS / "line"
PY = sys.executable


def walker(name: str = "walker", bad: int = 0) -> Planner:
    return Planner(name, f"{PY} {PLANNERS / 'walker.py'} {{problem}} {{plan}} {bad}")


def jobs_for(planner: Planner, tmp: Path, limits: Limits | None = None) -> list[Job]:
    limits = limits or Limits(wall=20, cpu=20, memory=500 * MB)
    return [Job(planner, "t", "baseline", str(d), str(p), limits, rundir_for(tmp, planner.name, "baseline", d, p))
            for d, p in problem_set([LINE])]


def by_length(domain: str, problem: str, plan: str) -> PlanVerdict:
    """A stand-in for the validator: valid when the plan has as many steps as the problem's number."""
    steps = [line for line in plan.splitlines() if line.strip() and not line.startswith(";")]
    wanted = int(Path(problem).stem.split("-")[1])
    return PlanVerdict(len(steps) == wanted, float(len(steps)), len(steps), "" if len(steps) == wanted else "too short")


def test_problem_set_pairs_problems_with_their_domain() -> None:
    pairs = problem_set([LINE])
    assert len(pairs) == 8 and all(d.name == "domain.pddl" for d, _ in pairs)


def test_statuses_from_a_local_run(tmp_path: Path) -> None:
    walk = walker(bad=8)
    sleeper = Planner("sleeper", f"{PY} {PLANNERS / 'sleeper.py'}")
    nothing = Planner("nothing", f"{PY} -c \"import sys; sys.exit(12)\"", unsolved_codes=(0, 12))
    broken = Planner("broken", f"{PY} -c \"import sys; sys.exit(3)\"")
    # 3 s: time for a planner's Python to start and write its plan on a busy machine, before the limit
    limits = Limits(wall=3.0, cpu=5, memory=500 * MB, grace=0.2)
    jobs = [j for p in (walk, sleeper, nothing, broken) for j in jobs_for(p, tmp_path, limits)[:1]]
    jobs += [j for j in jobs_for(walk, tmp_path, limits) if j.problem_path.endswith("line-08.pddl")]
    with Store.open(tmp_path / "r.sqlite") as store:
        runs = run_jobs(jobs, store, LocalExecutor(2), by_length)
        stored = {(r.planner, r.problem): r for r in store.runs()}
    assert len(runs) == 5
    assert stored["walker", "line-01"].status == "solved" and stored["walker", "line-01"].length == 1
    assert stored["walker", "line-08"].status == "invalid-plan" and stored["walker", "line-08"].reason == "too short"
    assert stored["sleeper", "line-01"].status == "timeout"
    assert stored["nothing", "line-01"].status == "unsolved"
    assert stored["broken", "line-01"].status == "crash" and "exit code 3" in stored["broken", "line-01"].reason
    rundir = Path(jobs[0].rundir)
    assert (rundir / "problem.pddl").is_file() and (rundir / "stdout.txt").is_file()


def test_anytime_plans_are_read_from_the_last_one(tmp_path: Path) -> None:
    from pddltools.score.runner import read_plan

    (tmp_path / "plan.1").write_text("(a)\n(b)\n")
    (tmp_path / "plan.10").write_text("(c)\n")
    (tmp_path / "plan.2").write_text("(d)\n")
    assert read_plan(tmp_path / "plan") == "(c)\n"


def test_unknown_template_field_is_a_usage_error() -> None:
    from pddltools.diagnostics import Error

    with pytest.raises(Error, match="unknown field"):
        Planner("x", "plan {domian}").check()


def test_dask_executor_on_a_local_cluster_of_processes(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    jobs = jobs_for(walker(), tmp_path)[:4]
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client, Store.open(tmp_path / "r.sqlite") as store:
        pids = set(client.run(os.getpid).values())
        runs = run_jobs(jobs, store, DaskExecutor(client=client), by_length)
        assert os.getpid() not in pids and len(pids) == 2
        assert sorted(r.problem for r in runs) == ["line-01", "line-02", "line-03", "line-04"]
        assert all(r.status == "solved" for r in runs)
        # The command line's --dask connects to a scheduler by its address.
        from pddltools.cli import main

        code = main(["run", *(str(LINE / f"line-0{i}.pddl") for i in (5, 6)), "--planner",
                     f"walker={PY} {PLANNERS / 'walker.py'} {{problem}} {{plan}}", "--db", str(tmp_path / "r.sqlite"),
                     "--workdir", str(tmp_path / "runs"), "--dask", cluster.scheduler_address, "--no-validate",
                     "--format", "json"])
        assert code == 0 and store.count() == 6


def _count(db: Path) -> int:
    """Runs stored so far, read without creating the file or holding it open (the runner owns it)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def test_sigkill_then_resume_loses_nothing_and_runs_nothing_twice(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    log = tmp_path / "log"
    # Each planner run appends its problem to the log when it finishes, then writes the plan.
    code = ("import sys,time; time.sleep(0.4); "
            "open(sys.argv[3],'a').write(open(sys.argv[1]).read().split()[2].strip(')')+'\\n'); "
            "open(sys.argv[2],'w').write('(walk p0 p1)\\n')")
    argv = [PY, "-m", "pddltools.cli", "run", str(LINE), "--planner", f"slow={PY} -c \"{code}\" {{problem}} {{plan}} "
            f"{log}", "--db", str(db), "--workdir", str(tmp_path / "runs"), "--jobs", "1", "--no-validate",
            "--wall", "20", "--memory", "500"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    errors = tmp_path / "stderr"
    with errors.open("wb") as stderr:
        runner = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    deadline = time.monotonic() + 120
    while _count(db) < 3 and time.monotonic() < deadline:
        assert runner.poll() is None, errors.read_text()
        time.sleep(0.05)
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    # The planner the killed runner had started dies with it (its supervisor notices); were it still
    # running, the resumed runner would kill it (from the marker in its run folder) before running that
    # problem again.
    with Store.open(db) as store:
        before = {r.problem: r.finished_at for r in store.runs()}
    assert 3 <= len(before) < 8
    logged_before = log.read_text().split()
    result = subprocess.run([*argv, "--resume", "--format", "json"], env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    with Store.open(db) as store:
        after = {r.problem: r.finished_at for r in store.runs()}
        assert store.count() == 8 and store.duplicates() == 0
    assert all(after[p] == t for p, t in before.items())  # finished runs kept, not re-run
    logged = log.read_text().split()
    # Problems stored before the kill were run exactly once; only the run in flight at the kill ran again.
    for problem in before:
        assert logged.count(problem) == 1
    assert sorted(set(logged)) == sorted(after)
    assert len(logged) - len(set(logged)) <= 1
    assert len(logged_before) - len(before) <= 1


@pytest.mark.parametrize(("sig", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM)])
def test_ctrl_c_or_sigterm_stops_the_runs_in_flight(tmp_path: Path, sig: int, status: int) -> None:
    argv = [PY, "-m", "pddltools.cli", "run", str(LINE / "line-01.pddl"), "--planner",
            f"forker={PY} {PLANNERS / 'forker.py'} {{rundir}}/pids", "--db", str(tmp_path / "r.sqlite"),
            "--workdir", str(tmp_path / "runs"), "--wall", "60", "--memory", "500", "--no-validate"]
    # Should the runner hang, SIGABRT makes it print every thread's stack (faulthandler) for the report.
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "PYTHONFAULTHANDLER": "1"}
    errors = tmp_path / "runner-stderr.txt"
    with errors.open("wb") as sink:
        # Ctrl-C as at a terminal: a test run started in the background (`cmd &` in a script) ignores
        # SIGINT, and children inherit that, so the runner gets the default disposition explicitly.
        runner = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=sink,
                                  preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while not list((tmp_path / "runs").rglob("pids")) and time.monotonic() < deadline:
        time.sleep(0.05)
    [pids_file] = list((tmp_path / "runs").rglob("pids"))
    pids = [int(p) for p in pids_file.read_text().split()]
    runner.send_signal(sig)
    try:
        # well before the runs' 60 s limit; the margin is for a loaded machine
        code = runner.wait(timeout=30)
    except subprocess.TimeoutExpired:
        runner.send_signal(signal.SIGABRT)
        runner.wait(timeout=10)
        pytest.fail(f"the runner did not stop within 30 s of {signal.Signals(sig).name}; its stacks:\n"
                    + errors.read_text(errors="replace"))
    assert code == status, errors.read_text(errors="replace")
    assert all(gone(pid) for pid in pids)
    with Store.open(tmp_path / "r.sqlite") as store:
        assert store.count() == 0  # an interrupted run is not a finished one


def test_anytime_planner_keeps_its_last_complete_plan_at_the_time_limit(tmp_path: Path) -> None:
    command = f"{PY} {PLANNERS / 'anytime.py'} {{problem}} {{plan}}"
    limits = Limits(wall=3.0, cpu=10, memory=500 * MB, grace=0.2)  # time to write plan.1 on a busy machine
    anytime = Planner("anytime", command, anytime=True)
    plain = Planner("plain", command)
    jobs = [jobs_for(p, tmp_path, limits)[2] for p in (anytime, plain)]  # line-03
    with Store.open(tmp_path / "r.sqlite") as store:
        run_jobs(jobs, store, LocalExecutor(2), by_length)
        runs = {r.planner: r for r in store.runs()}
    # plan.2 (one step, half-written when the limit struck) is invalid; plan.1 (three steps) counts.
    assert runs["anytime"].status == "solved" and runs["anytime"].length == 3
    assert runs["anytime"].plan_text == "(walk p0 p1)\n(walk p1 p2)\n(walk p2 p3)\n"
    assert "last plan counts" in runs["anytime"].reason
    assert runs["plain"].status == "timeout" and runs["plain"].plan_text is None


def test_relative_paths_in_commands_are_made_absolute(tmp_path: Path) -> None:
    from pddltools.score.runner import absolute_paths

    (tmp_path / "planners").mkdir()
    (tmp_path / "planners" / "p.py").write_text("")
    command = absolute_paths("python3 planners/p.py --search astar(lmcut()) {domain} -o x {plan}", tmp_path)
    assert command == (f"python3 {tmp_path}/planners/p.py --search 'astar(lmcut())' '{{domain}}' -o x '{{plan}}'")
    assert Planner("p", command).argv({"domain": "D", "plan": "P"})[-1] == "P"
