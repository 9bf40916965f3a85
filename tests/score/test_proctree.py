"""The process tree read from /proc (children links, stat lines) agrees with psutil's, and signals reach
whole process groups but spare the one asked; the supervisor's report, and the memory it charges a run."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from pddltools.score import proctree
from pddltools.score.limits import MB
from pddltools.score.supervisor import Report
from tests.score.processes import all_gone

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def tree() -> Iterator[list[int]]:
    """This process's children: two sleepers, one of which forked a sleeper of its own in a new session."""
    read, write = os.pipe()
    pids = []
    for index in range(2):
        pid = os.fork()
        if pid == 0:
            if index == 1:
                os.setsid()
                if os.fork() == 0:
                    os.write(write, b"x")
                    time.sleep(30)
                    os._exit(0)
            os.write(write, b"x")
            time.sleep(30)
            os._exit(0)
        pids.append(pid)
    for _ in range(3):
        os.read(read, 1)
    os.close(read)
    os.close(write)
    grandchild = proctree.children(pids[1])
    yield pids
    for pid in [*pids, *grandchild]:  # only ours: the test process may have others (Dask's, say)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    for pid in pids:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


def test_the_proc_walk_finds_what_psutil_finds(tree: list[int]) -> None:
    found = proctree.descendants(os.getpid())
    expected = {p.pid for p in psutil.Process().children(recursive=True)}
    assert {p.pid for p in found} == expected and len(expected) >= 3
    by_pid = {p.pid: p for p in found}
    assert by_pid[tree[0]].group == os.getpgid(0) and by_pid[tree[1]].group == tree[1]
    assert all(p.rss > 0 and not p.zombie and p.threads == 1 for p in found)
    fallback = {p.pid: p for p in proctree._descendants_psutil(os.getpid())}
    assert set(fallback) == set(by_pid)
    assert all(fallback[pid].group == by_pid[pid].group for pid in by_pid)


def test_signals_go_by_group_but_spare_one(tree: list[int]) -> None:
    [grandchild] = proctree.children(tree[1])
    # Only the fixture's processes: the test process may have others (Dask's, say).
    found = [p for p in proctree.descendants(os.getpid()) if p.pid in {*tree, grandchild}]
    assert len(found) == 3
    # Our own group is spared: only the processes of other groups, and ours one by one, get the signal.
    proctree.send(found, signal.SIGKILL, spare=os.getpgid(0))
    for pid in tree:
        os.waitpid(pid, 0)
    assert all_gone([grandchild])  # reached through its group, as its parent died
    assert proctree.descendants(tree[0]) == []  # a process that is gone has no tree


def test_the_supervisors_report_survives_its_line() -> None:
    report = Report()
    report.status, report.started, report.ended, report.cpu, report.maxrss = 256, 10.5, 12.25, 1.5, 9 << 20
    report.error = (2, "No such file or directory")
    decoded = Report.decode(report.encode())
    assert decoded is not None
    assert (decoded.status, decoded.started, decoded.ended, decoded.cpu, decoded.maxrss, decoded.error) == (
        256, 10.5, 12.25, 1.5, 9 << 20, (2, "No such file or directory"))
    empty = Report.decode(Report().encode())
    assert empty is not None and empty.status is None and empty.error is None and empty.maxrss == 0
    assert Report.decode(b"") is None and Report.decode(b"1 2 x 3 0 0 \n") is None
    assert Report.decode(b"1 2 3 4 0 \n") is None  # a field short


# Run in a fresh interpreter: the parent's size must be this one's, not pytest's.
_SPAWN = """
import os, sys
from pddltools.score.supervisor import high_water_mark, own_peak
ballast = b"x" * (int(sys.argv[1]) << 20)
pid = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)
spawned_from = high_water_mark()
_, status, usage = os.wait4(pid, 0)
print(own_peak(usage.ru_maxrss, spawned_from))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's count at exec is Linux's")
@pytest.mark.parametrize("ballast", [0, 150])
def test_a_tiny_command_is_not_charged_the_memory_of_the_process_that_spawned_it(ballast: int) -> None:
    # At exec the kernel counts, in the new program's maximum, the memory it was spawned sharing: `true`
    # spawned from a process of 150 MB has a maximum of 150 MB. That figure is not the command's own.
    out = subprocess.run([sys.executable, "-c", _SPAWN, str(ballast), "true"], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert int(out.stdout) == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's count at exec is Linux's")
def test_a_command_larger_than_the_process_that_spawned_it_is_charged_its_own_memory() -> None:
    out = subprocess.run([sys.executable, "-c", _SPAWN, "0", sys.executable, "-c", "b = b'x' * (80 << 20)"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    assert 80 * MB <= int(out.stdout) < 150 * MB
