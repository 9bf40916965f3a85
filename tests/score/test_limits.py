"""Limits on the whole process tree: memory, wall time, CPU time, forking, floods; nothing left running."""

from __future__ import annotations

import shlex
import signal
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import pytest

from pddltools.score.limits import MB, Limits, run_limited
from tests.score.processes import all_gone, gone

PLANNERS = Path(__file__).resolve().parents[2] / "corpus" / "score" / "planners"
PY = sys.executable


def test_memory_hog_is_a_memout() -> None:
    outcome = run_limited([PY, str(PLANNERS / "hog.py")], Limits(wall=20, cpu=20, memory=150 * MB))
    assert outcome.status == "memout", outcome  # stopped for its memory, not left to its wall limit


def test_memory_of_forked_children_is_added_up() -> None:
    # Three processes of 60 MB each: none is over 150 MB, together they are. RLIMIT_AS is per process
    # and cannot see this; the tree poll does.
    code = ("import os, time\n"
            "for _ in range(2):\n"
            "    if os.fork() == 0: break\n"
            "block = bytearray(60 * 1024 * 1024)\n"
            "time.sleep(30)\n")
    outcome = run_limited([PY, "-c", code], Limits(wall=20, cpu=20, memory=150 * MB))
    assert outcome.status == "memout", outcome
    assert outcome.peak_memory > 150 * MB
    assert outcome.processes == 3


def test_sleeper_that_ignores_sigterm_is_a_timeout() -> None:
    # the wall limit leaves a busy machine time to start Python and ignore SIGTERM before it comes
    outcome = run_limited([PY, str(PLANNERS / "sleeper.py")], Limits(wall=3, cpu=10, memory=500 * MB, grace=0.3))
    assert outcome.status == "timeout" and "wall-clock" in outcome.reason
    assert outcome.returncode == -9  # SIGTERM was ignored: SIGKILL ended it


def test_busy_loop_is_a_cpu_timeout() -> None:
    outcome = run_limited([PY, "-c", "while True: pass"], Limits(wall=20, cpu=1.0, memory=500 * MB))
    assert outcome.status == "timeout" and "CPU" in outcome.reason
    assert 1.0 <= outcome.cpu < 3


def test_forking_planner_leaves_no_process(tmp_path: Path) -> None:
    pids = tmp_path / "pids"
    # the wall limit leaves a busy machine time to start Python and fork before the file is written
    outcome = run_limited([PY, str(PLANNERS / "forker.py"), str(pids)], Limits(wall=4, cpu=10, memory=500 * MB))
    assert outcome.status == "timeout"
    numbers = [int(p) for p in pids.read_text().split()]
    assert len(numbers) == 4  # the planner and three children, one in a session of its own
    assert all(gone(pid) for pid in numbers)


def test_daemon_left_behind_by_a_finished_planner_is_killed(tmp_path: Path) -> None:
    pids = tmp_path / "pid"
    outcome = run_limited([PY, str(PLANNERS / "daemon.py"), str(pids)], Limits(wall=10, cpu=10, memory=500 * MB))
    assert outcome.status == "exited" and outcome.returncode == 0
    assert gone(int(pids.read_text()))


def test_output_flood_is_stopped_and_kept_short() -> None:
    outcome = run_limited([PY, str(PLANNERS / "flood.py")], Limits(wall=20, cpu=20, memory=500 * MB, output=8 * MB))
    assert outcome.status == "crash" and "output" in outcome.reason
    assert len(outcome.stdout) < 100_000  # head and tail only


def test_plain_exit_codes_and_output() -> None:
    outcome = run_limited([PY, "-c", "import sys; print('hi'); sys.exit(3)"], Limits(wall=10, cpu=10))
    assert (outcome.status, outcome.returncode, outcome.stdout) == ("exited", 3, b"hi\n")
    outcome = run_limited([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], Limits(wall=10))
    assert outcome.status == "crash" and "SIGSEGV" in outcome.reason


@pytest.mark.parametrize("cpus", [[0]])
def test_pinned_to_one_core(cpus: list[int]) -> None:
    outcome = run_limited([PY, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"], Limits(wall=10), cpus=cpus)
    assert outcome.stdout.strip() == str(cpus).encode()


def test_pages_shared_after_a_fork_count_once() -> None:
    # A 100 MB parent forks three idle children: resident sizes add up to about 400 MB, the pages are
    # shared, so the tree holds about 100 MB and stays under a 250 MB limit.
    code = ("import os, time\nblock = bytearray(100 * 1024 * 1024)\n"
            "for _ in range(3):\n    if os.fork() == 0: break\ntime.sleep(1.0)\n")
    outcome = run_limited([PY, "-c", code], Limits(wall=10, cpu=10, memory=250 * MB))
    assert outcome.status == "exited" and outcome.processes == 4
    assert 100 * MB < outcome.peak_memory < 200 * MB


def test_without_the_address_limit_the_polled_tree_memory_still_holds() -> None:
    import resource

    code = "import resource; print(resource.getrlimit(resource.RLIMIT_AS)[0])"
    capped = run_limited([PY, "-c", code], Limits(wall=10, memory=300 * MB))
    free = run_limited([PY, "-c", code], Limits(wall=10, memory=300 * MB, address_space=False))
    assert int(capped.stdout) == 300 * MB and int(free.stdout) == resource.RLIM_INFINITY
    outcome = run_limited([PY, str(PLANNERS / "hog.py")], Limits(wall=20, cpu=20, memory=150 * MB,
                                                                  address_space=False))
    assert outcome.status == "memout" and "process tree used" in outcome.reason


# A daemon: fork, setsid() (after `pause` seconds), fork again; the middle process writes the grandchild's
# pid and exits, so the grandchild is an orphan in a session of its own, past any process-group kill.
DAEMON = """
import os, sys, time
pause = float(sys.argv[2])
if os.fork() == 0:
    time.sleep(pause)
    os.setsid()
    grandchild = os.fork()
    if grandchild == 0:
        while True:
            time.sleep(1)
    with open(sys.argv[1] + ".part", "w") as handle:  # renamed into place: never read half written
        handle.write(str(grandchild))
    os.replace(sys.argv[1] + ".part", sys.argv[1])
    os._exit(0)
os.wait()
time.sleep(0.3)
"""


@pytest.mark.parametrize("pause", [0.0, 0.3])
def test_daemon_that_calls_setsid_is_killed_with_its_run(tmp_path: Path, pause: float) -> None:
    pids = tmp_path / "pid"
    outcome = run_limited([PY, "-c", DAEMON, str(pids), str(pause)], Limits(wall=10, cpu=10, memory=500 * MB))
    assert outcome.status == "exited" and outcome.returncode == 0, outcome
    assert gone(int(pids.read_text()))


def test_daemon_that_calls_setsid_is_killed_at_the_wall_limit(tmp_path: Path) -> None:
    pids = tmp_path / "pid"
    code = DAEMON + "time.sleep(60)\n"
    # the wall limit leaves a busy machine time to start Python, fork twice and write the pid first
    outcome = run_limited([PY, "-c", code, str(pids), "0.3"], Limits(wall=4, cpu=10, memory=500 * MB, grace=0.2))
    assert outcome.status == "timeout", outcome
    assert gone(int(pids.read_text()))


# A planner forks 400 processes that sleep (and with "ignore", ignore SIGTERM, as does the planner).
STORM = """
import os, signal, sys, time
if sys.argv[3] == "ignore":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
children = []
for _ in range(int(sys.argv[2])):
    pid = os.fork()
    if pid == 0:
        while True:
            time.sleep(1)
    children.append(pid)
with open(sys.argv[1] + ".part", "w") as handle:  # renamed into place: never read half written
    handle.write(" ".join(map(str, children)))
os.replace(sys.argv[1] + ".part", sys.argv[1])
while True:
    time.sleep(1)
"""


@pytest.mark.parametrize("sigterm", ["obey", "ignore"])
def test_fork_storm_of_400_processes_is_stopped_at_its_wall_limit_with_nothing_left(tmp_path: Path,
                                                                                     sigterm: str) -> None:
    """What the runner did at the wall limit: SIGTERM first (which ends a planner that obeys it), SIGKILL
    after the grace (which ends one that ignores it), nothing of the tree left. How soon after the limit
    is a benchmark's question (benchmarks/runner_limits.py), not a test's: it depends on the machine's load."""
    pids = tmp_path / "pids"
    # the wall limit leaves a busy machine time to fork the 400 and write their pids first
    outcome = run_limited([PY, "-c", STORM, str(pids), "400", sigterm], Limits(wall=6.0, cpu=60, memory=8 << 30,
                                                                               grace=0.2))
    assert outcome.status == "timeout" and "wall-clock" in outcome.reason, outcome
    children = [int(p) for p in pids.read_text().split()]
    assert len(children) == 400 and outcome.processes == 401
    assert outcome.returncode == (-signal.SIGTERM if sigterm == "obey" else -signal.SIGKILL)
    assert all(gone(pid) for pid in children)


def test_a_runner_killed_outright_takes_its_run_with_it(tmp_path: Path) -> None:
    # SIGKILL gives the runner no chance to stop its run: the run's supervisor notices its death
    # (PR_SET_PDEATHSIG) and kills the tree, the child in a session of its own included.
    import os
    import subprocess

    pids = tmp_path / "pids"
    script = ("from pddltools.score.limits import Limits, run_limited\n"
              f"run_limited([{PY!r}, {str(PLANNERS / 'forker.py')!r}, {str(pids)!r}], Limits(wall=60, cpu=60))\n")
    env = {**os.environ, "PYTHONPATH": str(PLANNERS.parents[2])}
    runner = subprocess.Popen([PY, "-c", script], env=env)
    deadline = time.monotonic() + 30
    while (not pids.exists() or len(pids.read_text().split()) < 4) and time.monotonic() < deadline:
        assert runner.poll() is None
        time.sleep(0.05)
    numbers = [int(p) for p in pids.read_text().split()]
    runner.send_signal(signal.SIGKILL)
    runner.wait()
    assert all_gone(numbers)


def test_a_command_that_cannot_start_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        run_limited([str(tmp_path / "no-such-planner")], Limits(wall=10))


def test_kill_stale_kills_the_tree_a_marker_names(tmp_path: Path) -> None:
    import subprocess

    from pddltools.score.limits import kill_stale, session_marker

    pids = tmp_path / "pids"
    planner = subprocess.Popen([PY, str(PLANNERS / "forker.py"), str(pids)], start_new_session=True)
    deadline = time.monotonic() + 30
    while (not pids.exists() or len(pids.read_text().split()) < 4) and time.monotonic() < deadline:
        time.sleep(0.05)
    marker = session_marker(planner.pid)
    pid, started = marker.split()
    assert not kill_stale(f"{pid} {float(started) - 5:.3f}")  # the pid, reused by another process
    assert kill_stale(marker)
    planner.wait(timeout=10)
    assert all(gone(int(p)) for p in pids.read_text().split())


def test_a_failing_start_hook_leaves_nothing_behind() -> None:
    def refuse(pid: int) -> None:
        raise RuntimeError("cannot write the marker")

    before = set(psutil.Process().children())  # the test process may have others (Dask's, say)
    with pytest.raises(RuntimeError):
        run_limited([PY, "-c", "import time; time.sleep(30)"], Limits(wall=10), on_start=refuse)
    assert set(psutil.Process().children()) == before


def test_cpu_of_children_that_already_exited_counts() -> None:
    # Two children burn 0.7 s of CPU each and exit; the planner then idles. Their time is counted once
    # they are reaped (it moves into their parent's figures), so together they break a 1 s CPU limit.
    code = ("import os, time\n"
            "for _ in range(2):\n"
            "    if os.fork() == 0:\n"
            "        t = time.process_time()\n"
            "        while time.process_time() - t < 0.7: pass\n"
            "        os._exit(0)\n"
            "os.wait(); os.wait()\n"
            "time.sleep(30)\n")
    outcome = run_limited([PY, "-c", code], Limits(wall=20, cpu=1.0, memory=500 * MB))
    assert outcome.status == "timeout" and "CPU" in outcome.reason, outcome
    assert 1.0 <= outcome.cpu < 3


def test_the_command_gets_default_signal_dispositions() -> None:
    # Python ignores SIGPIPE and SIGXFSZ; a planner must not inherit that (a full disk past RLIMIT_FSIZE
    # kills it, a closed pipe ends a `cmd | head`), as with subprocess.

    outcome = run_limited(["grep", "SigIgn", "/proc/self/status"], Limits(wall=10))
    ignored = int(outcome.stdout.split()[1], 16)
    assert outcome.status == "exited"
    assert not ignored & (1 << (signal.SIGPIPE - 1)) and not ignored & (1 << (signal.SIGXFSZ - 1))


def test_a_run_that_writes_past_its_disk_budget_and_ends_between_two_looks_is_over_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a busy machine the folder's watch may not look at all while a run writes 3 MB and exits; the
    look after it ends still finds the folder over its 1 MB budget (the watch is made blind here until
    then, as the busiest machine would have it)."""
    from pddltools.score import limits as module

    seen = module._DiskWatch.check

    def blind_until_the_end(self: Any, now: float, *, final: bool = False) -> tuple[str, str]:
        return seen(self, now, final=final) if final else ("", "")

    monkeypatch.setattr(module._DiskWatch, "check", blind_until_the_end)
    writer = "import sys\nfor n in range(3):\n    open(f'fill-{n}', 'wb').write(b'x' * (1 << 20))\n"
    out = run_limited([sys.executable, "-c", writer], Limits(wall=60, disk=1 * MB), cwd=tmp_path, folder=tmp_path)
    assert out.returncode == 0, "the writer ended by itself"
    assert out.status == "crash" and out.over_disk
    assert "wrote 3 MB in its run folder, over the 1 MB it may use (--disk)" in out.reason
    small = tmp_path / "small"
    small.mkdir()
    quiet = run_limited([sys.executable, "-c", "open('one', 'w').write('x')"], Limits(wall=60, disk=1 * MB),
                        cwd=small, folder=small)
    assert quiet.status == "exited" and not quiet.over_disk and (small / "one").exists()


def test_a_run_that_ends_between_two_polls_gets_the_kernels_count_of_its_memory() -> None:
    # One poll only (the interval outlasts the run; the wait wakes at its exit), while the shell sleeps: the
    # 64 MB the command then takes are seen by no poll, only by the kernel's count of its largest process.
    code = "block = b'x' * (64 * 1024 * 1024)"
    outcome = run_limited(["/bin/sh", "-c", f"sleep 0.3; exec {shlex.join([PY, '-c', code])}"], Limits(wall=60),
                          poll=30.0)
    assert outcome.status == "exited" and outcome.returncode == 0, outcome
    assert 64 * MB <= outcome.peak_memory < 200 * MB, outcome
