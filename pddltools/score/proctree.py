"""The processes below one process, read at a cost in proportion to their number.

On Linux each process's children are read from `/proc/PID/task/TID/children` and its figures from
`/proc/PID/stat`: a poll of a run with 400 processes reads about 800 small files, and never walks every
process of the machine once per process of the run (which grows with the square of the run's size).
Where those files are missing (another OS, a kernel without CONFIG_PROC_CHILDREN) psutil's
`children(recursive=True)` does the same in one pass over the machine's processes.

This module imports nothing from the rest of pddltools, psutil only in that fallback, and no module of
the standard library that takes long to import (typing, dataclasses): the run's supervisor
(`supervisor.py`), a process started for every run, imports it and should start quickly.
"""

from __future__ import annotations

import contextlib
import os

TYPE_CHECKING = False  # not typing's: importing typing would cost the supervisor's start a third
if TYPE_CHECKING:
    from collections.abc import Iterable

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class Proc:
    """One process as a poll saw it."""

    __slots__ = ("cpu", "group", "pid", "rss", "threads", "zombie")

    def __init__(self, pid: int, group: int, threads: int, zombie: bool, cpu: float, rss: int) -> None:
        self.pid = pid
        self.group = group  # its process group
        self.threads = threads
        self.zombie = zombie
        self.cpu = cpu  # seconds: its own user and system time plus that of the children it has waited for
        self.rss = rss  # bytes resident

    def __repr__(self) -> str:
        return f"Proc(pid={self.pid}, group={self.group}, zombie={self.zombie}, cpu={self.cpu}, rss={self.rss})"


def descendants(root: int) -> list[Proc]:
    """Every process below `root` (not `root` itself), zombies included; [] when `root` is gone."""
    if not os.path.exists(f"/proc/{root}/task/{root}/children"):
        return _descendants_psutil(root)
    found: list[Proc] = []
    seen = {root}
    frontier = [read_stat(root)]
    while frontier:
        below = []
        for proc in frontier:
            if proc is None:
                continue
            for child in children(proc.pid, proc.threads):
                if child not in seen:
                    seen.add(child)
                    below.append(read_stat(child))
        found += (p for p in below if p is not None)
        frontier = below
    return found


def children(pid: int, threads: int = 0) -> list[int]:
    """The direct children of `pid` (those of all its threads: pass 1 for a single-threaded process to
    save listing them); [] when it is gone."""
    try:
        tids = [str(pid)] if threads == 1 else os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    pids: list[int] = []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", "rb") as handle:
                pids.extend(int(word) for word in handle.read().split())
        except (OSError, ValueError):
            continue
    return pids


def read_stat(pid: int) -> Proc | None:
    """`pid` as /proc/PID/stat shows it (see proc(5)), or None when it is gone."""
    fields = _stat_fields(pid)
    if fields is None:
        return None
    utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
    return Proc(pid, int(fields[2]), int(fields[17]), fields[0] in (b"Z", b"X"),
                (utime + stime + cutime + cstime) / _TICK, int(fields[21]) * _PAGE)


def reaped_cpu(pid: int) -> float:
    """CPU seconds of the children `pid` has waited for (and of theirs)."""
    fields = _stat_fields(pid)
    return 0.0 if fields is None else (int(fields[13]) + int(fields[14])) / _TICK


def _stat_fields(pid: int) -> list[bytes] | None:
    """The fields of /proc/PID/stat from the third (the state) on; None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            line = handle.read()
    except OSError:
        return None
    # The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
    fields = line[line.rfind(b")") + 2:].split()
    return fields if len(fields) > 21 else None


def proportional_memory(pid: int, rss: int) -> int:
    """`pid`'s proportional set size (its private pages plus its share of pages it shares), so that
    children forked from a large parent are not charged the parent's pages once each; `rss` where the
    kernel has no smaps_rollup. Costs about a page-table walk: callers use it sparingly."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return rss


def send(procs: Iterable[Proc], sig: int, spare: int) -> None:
    """Send `sig` to `procs` that are not zombies, by process group (one system call for a whole group,
    however large, also reaching members forked since `procs` was read), but one by one in the group of
    `spare`, which the signal must not reach."""
    groups: set[int] = set()
    for proc in procs:
        if proc.zombie:
            continue
        if proc.group != spare and proc.group > 1:
            groups.add(proc.group)
        else:
            with contextlib.suppress(OSError):  # gone already
                os.kill(proc.pid, sig)
    for group in groups:
        with contextlib.suppress(OSError):
            os.killpg(group, sig)


def _descendants_psutil(root: int) -> list[Proc]:
    import psutil  # type: ignore[import-untyped]  # psutil ships no type stubs

    try:
        below = psutil.Process(root).children(recursive=True)
    except psutil.Error:
        return []
    found = []
    for proc in below:
        try:
            with proc.oneshot():
                times = proc.cpu_times()
                cpu = times.user + times.system + times.children_user + times.children_system
                found.append(Proc(proc.pid, os.getpgid(proc.pid), proc.num_threads(),
                                  proc.status() == psutil.STATUS_ZOMBIE, cpu, int(proc.memory_info().rss)))
        except (psutil.Error, OSError):
            continue
    return found
