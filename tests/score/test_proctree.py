"""The process tree read from /proc (children links, stat lines) agrees with psutil's, and signals reach
whole process groups but spare the one asked."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Iterator

import psutil
import pytest

from pddltools.score import proctree
from pddltools.score.supervisor import Report
from tests.score.processes import all_gone


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
    report.status, report.started, report.ended, report.cpu = 256, 10.5, 12.25, 1.5
    report.error = (2, "No such file or directory")
    decoded = Report.decode(report.encode())
    assert decoded is not None
    assert (decoded.status, decoded.started, decoded.ended, decoded.cpu, decoded.error) == (
        256, 10.5, 12.25, 1.5, (2, "No such file or directory"))
    empty = Report.decode(Report().encode())
    assert empty is not None and empty.status is None and empty.error is None
    assert Report.decode(b"") is None and Report.decode(b"1 2 x 3 0 \n") is None
