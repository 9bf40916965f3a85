"""Run one command as a process tree under wall-clock, CPU and memory limits.

The command runs below a supervisor of its own (`supervisor.py`): on Linux a child subreaper, so every
process of the run, also a daemon that double-forks around setsid(), stays below it; it kills the whole
tree when the command's main process exits, when asked, or when the runner dies. The caller's thread
polls the tree a few times a second, at a cost in proportion to its size (`proctree`): the memory of all
its processes added up (proportional set sizes, so pages shared after a fork count once), their CPU time
added up, the wall clock. Past a limit it sends SIGTERM to everything, then has the supervisor SIGKILL
it after a short grace (a planner that ignores SIGTERM is still stopped). Per-process kernel limits
(RLIMIT_AS, RLIMIT_CPU, RLIMIT_FSIZE) back the polling up between two polls. Output goes through pipes
that are drained continuously, keeping only a head and a tail, and a command that writes more than the
output limit is killed, so a flood neither fills the disk nor blocks. No process outlives its run.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import psutil  # type: ignore[import-untyped]  # psutil ships no type stubs

from pddltools.score.planfiles import folder_usage
from pddltools.score.proctree import Proc, descendants, proportional_memory, reaped_cpu, send
from pddltools.score.supervisor import Report

_SUPERVISOR = Path(__file__).with_name("supervisor.py")
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]  # the folder holding `pddltools`
# The supervisor is isolated from the planner's PYTHON* variables (-I) and, where /proc lists children,
# starts without site-packages (-S: a third of its start); elsewhere it needs psutil from them.
_SUPERVISOR_FLAGS = ("-I", "-S") if os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children") else ("-I",)

GB = 1 << 30
MB = 1 << 20

# A process killed by the kernel's per-process limits, or failing an allocation, exits in one of these ways
# before the poll sees the memory; the message tells a memout from a crash.
_MEMORY_MESSAGES = re.compile(
    rb"MemoryError|std::bad_alloc|Cannot allocate memory|out of memory|memory limit", re.IGNORECASE)


@dataclass(frozen=True)
class Limits:
    """Per-run limits; wall and CPU in seconds, memory, output and file size in bytes."""

    wall: float = 1800.0
    cpu: float = 1800.0
    memory: int = 2 * GB
    output: int = 64 * MB  # stdout + stderr together
    file_size: int = 1 * GB  # any one file the command writes
    disk: int = 1 * GB  # all the files in the run's folder together
    plan_size: int = 16 * MB  # the plan file the runner reads (see `planfiles`)
    grace: float = 0.5  # seconds between SIGTERM and SIGKILL
    # RLIMIT_AS = memory per process. Off for runtimes that reserve far more address space than they use
    # (the JVM, Go): the tree's polled memory still holds them to the limit.
    address_space: bool = True

    def describe(self) -> str:
        return (f"wall {self.wall:g} s, CPU {self.cpu:g} s, memory {self.memory / MB:g} MB, "
                f"disk {self.disk / MB:g} MB, plan {self.plan_size / MB:g} MB")


# The defaults the rules give: IPC-2008 ran 30 minutes and 2 GB per run, one core; IPC-2011's
# learning track 15 minutes and 4 GB, one core. IPC-2014's sequential tracks 30 minutes (agile: 5) and
# 4 GB, multi-core on several cores with the 30 minutes of wall-clock time. IPC-2018 and IPC-2023: 30
# minutes (agile: 5) and 8 GB on one core. The IPC-2023 learning tracks: 30 minutes and 8 GiB per test
# task (`ipc2023-learning`), 24 hours and 32 GiB per domain for training (`ipc2023-learning-train`).
TRACK_LIMITS: dict[str, Limits] = {
    "ipc2008": Limits(wall=1800.0, cpu=1800.0, memory=2 * GB),
    "ipc2011-learning": Limits(wall=900.0, cpu=900.0, memory=4 * GB),
    "ipc2014": Limits(wall=1800.0, cpu=1800.0, memory=4 * GB),
    "ipc2014-agile": Limits(wall=300.0, cpu=300.0, memory=4 * GB),
    "ipc2014-mco": Limits(wall=1800.0, cpu=4 * 1800.0, memory=4 * GB),
    "ipc2018": Limits(wall=1800.0, cpu=1800.0, memory=8 * GB),
    "ipc2018-agile": Limits(wall=300.0, cpu=300.0, memory=8 * GB),
    "ipc2023": Limits(wall=1800.0, cpu=1800.0, memory=8 * GB),
    "ipc2023-agile": Limits(wall=300.0, cpu=300.0, memory=8 * GB),
    "ipc2023-learning": Limits(wall=1800.0, cpu=1800.0, memory=8 * GB),
    "ipc2023-learning-train": Limits(wall=86400.0, cpu=86400.0, memory=32 * GB, grace=60.0),
}


@dataclass(frozen=True)
class Outcome:
    """How a limited command ended.

    `status`: `exited` (by itself; see `returncode`), `timeout` (wall or CPU limit), `memout`, or
    `crash` (killed by a signal it did not ask for, or flooded its output). `returncode` is negative for
    a signal, as in `subprocess`.
    """

    status: str
    returncode: int | None
    wall: float
    cpu: float
    # bytes: the larger of the tree's proportional set sizes added up, as the polls saw them, and the largest
    # resident size of one of its processes, as the kernel counted it (0 when neither is known)
    peak_memory: int
    stdout: bytes
    stderr: bytes
    reason: str
    processes: int  # how many processes the tree had over its life
    over_disk: bool = False  # stopped for what it wrote in its folder (`folder`'s budget)


class _Drain(threading.Thread):
    """Read a pipe to its end, keeping the first and last `keep` bytes and counting the rest."""

    def __init__(self, pipe: IO[bytes], keep: int = 32 * 1024) -> None:
        super().__init__(daemon=True)
        self.pipe = pipe
        self.keep = keep
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def run(self) -> None:
        read = self.pipe.read1 if hasattr(self.pipe, "read1") else self.pipe.read
        try:
            while True:
                block = read(64 * 1024)
                if not block:
                    break
                self.total += len(block)
                if len(self.head) < self.keep:
                    room = self.keep - len(self.head)
                    self.head += block[:room]
                    block = block[room:]
                if block:
                    self.tail += block
                    if len(self.tail) > self.keep:
                        del self.tail[: len(self.tail) - self.keep]
        except (OSError, ValueError):
            pass
        finally:
            self.pipe.close()

    def text(self) -> bytes:
        skipped = self.total - len(self.head) - len(self.tail)
        middle = f"\n[... {skipped} bytes not kept ...]\n".encode() if skipped > 0 else b""
        return bytes(self.head) + middle + bytes(self.tail)


class _Monitor:
    """The run's processes (everything below its supervisor) as the polls see them.

    A poll costs in proportion to the run's processes (`proctree`). Proportional set sizes cost a
    page-table walk per process, so they are read only when the resident sizes added up (an upper bound
    of the proportional ones) could make a new peak or break the limit, and at most a quarter of the time.
    """

    def __init__(self, supervisor: int, memory_limit: int) -> None:
        self.supervisor = supervisor
        self.limit = memory_limit
        self.seen: set[int] = set()
        self.procs: list[Proc] = []  # as the latest poll saw them
        self.cpu = 0.0
        self.peak = 0
        self.proportional = 0  # the latest proportional memory of the tree
        self._next_pss = 0.0

    def poll(self, deadline: float) -> int:
        """Look at the tree; return its memory as far as the limit is concerned. A walk over proportional
        sizes still going at `deadline` (monotonic time: the wall limit) is left for a later poll."""
        self.procs = procs = descendants(self.supervisor)
        self.seen.update(p.pid for p in procs)
        live = [p for p in procs if not p.zombie]
        # Reaped processes' CPU time is in their waiting parent's figures, ending in the supervisor's.
        self.cpu = max(self.cpu, reaped_cpu(self.supervisor) + sum(p.cpu for p in procs))
        resident = sum(p.rss for p in live)
        now = time.monotonic()
        if (resident > self.peak or resident > self.limit) and now >= self._next_pss:
            total = 0
            for proc in live:
                if time.monotonic() > deadline:
                    break
                total += proportional_memory(proc.pid, proc.rss)
            else:
                self.proportional = total
                self.peak = max(self.peak, total)
            self._next_pss = now + 4 * (time.monotonic() - now)
        return self.proportional if resident > self.limit else resident


def _set_kernel_limits(pid: int, limits: Limits) -> None:
    """Per-process backstops, inherited by every child the command forks from now on."""
    cpu = int(limits.cpu) + 1
    settings = [
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, min(limits.file_size, limits.disk)),  # no one file may outgrow the folder
        (resource.RLIMIT_CORE, 0),
    ]
    if limits.address_space:
        settings.append((resource.RLIMIT_AS, limits.memory))
    for which, value in settings:
        hard = value + 1 if which == resource.RLIMIT_CPU else value
        try:
            resource.prlimit(pid, which, (value, hard))
        except (OSError, ValueError, AttributeError):  # AttributeError: no prlimit (not Linux)
            continue


def run_limited(argv: Sequence[str], limits: Limits, *, cwd: str | Path | None = None,
                env: Mapping[str, str] | None = None, cpus: Sequence[int] | None = None,
                poll: float = 0.05, on_start: Callable[[int], object] | None = None,
                cancel: threading.Event | None = None, folder: Path | None = None) -> Outcome:
    """Run `argv` under `limits`; return how it ended. Never leaves a process of the tree running.

    Setting `cancel` (the runner is being interrupted) stops the tree as a limit would: status `crash`.

    `folder` (the run's folder) is held to `limits.disk`: the files below it are added up up to ten times a
    second (less often when it holds very many), and a run that writes more is stopped as a `crash`.

    `on_start(pid)` is called once the run's supervisor runs (its pid is also its session id), before the
    command starts, so a caller can note it somewhere that outlives this process: see `kill_stale`.
    """
    go_read, go_write = os.pipe()
    report_read, report_write = os.pipe()
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            [sys.executable, *_SUPERVISOR_FLAGS, str(_SUPERVISOR), str(_PACKAGE_ROOT), str(os.getpid()), str(go_read),
             str(report_write), *argv],
            cwd=cwd, env=dict(env) if env is not None else None, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, start_new_session=True, pass_fds=(go_read, report_write))
    except BaseException:
        os.close(go_write)
        os.close(report_read)
        raise
    finally:
        os.close(go_read)
        os.close(report_write)
    try:
        # Limits and affinity set on the supervisor are inherited by the command it has not started yet.
        _set_kernel_limits(proc.pid, limits)
        if cpus:
            with contextlib.suppress(OSError):
                os.sched_setaffinity(proc.pid, set(cpus))
        if on_start is not None:
            on_start(proc.pid)
        with contextlib.suppress(OSError):
            os.write(go_write, b"g")
    except BaseException:
        os.close(go_write)  # without its "g" the supervisor exits, having started nothing
        proc.communicate()
        os.close(report_read)
        raise
    os.close(go_write)
    assert proc.stdout is not None and proc.stderr is not None
    out, err = _Drain(proc.stdout), _Drain(proc.stderr)
    out.start()
    err.start()
    monitor = _Monitor(proc.pid, limits.memory)
    disk = _DiskWatch(folder, limits.disk) if folder is not None else None
    exited = _ExitWait(proc.pid)
    verdict, reason = "", ""
    deadline = start + limits.wall
    try:
        while True:
            if os.wait4(proc.pid, os.WNOHANG)[0]:
                break
            began = time.monotonic()
            verdict, reason = _check(monitor, limits, began - start, out.total + err.total, cancel)
            if not verdict and disk is not None:
                verdict, reason = disk.check(began)
            if verdict:
                _stop(proc.pid, monitor.procs, exited, limits.grace)
                break
            # A large tree makes a poll slow: the monitor then takes at most about half a core, but wakes
            # up for the wall limit on time.
            now = time.monotonic()
            exited(max(0.0, min(max(poll, now - began), deadline - now + 0.001)))
    except BaseException:
        _stop(proc.pid, monitor.procs, exited, 0.0)  # the caller is being interrupted: nothing of the run may stay
        raise
    finally:
        exited.close()
        out.join(5.0)
        err.join(5.0)
        report = _read_report(report_read)
    if not verdict and disk is not None:
        # one last look: a run may write past its budget and end between two looks (on a busy machine
        # the watch can miss the whole run), and what it left must be judged as what it wrote while alive
        verdict, reason = disk.check(time.monotonic(), final=True)
    wall = time.monotonic() - start
    if report is not None and report.error is not None:
        raise OSError(*report.error)
    if not verdict and report is not None and report.ended is not None and report.started is not None:
        wall = report.ended - report.started  # the command's own time, without the supervisor's start
    returncode = _returncode(report.status if report is not None else None)
    proc.returncode = returncode
    cpu = max(monitor.cpu, report.cpu if report is not None else 0.0)
    # A run that ends between two polls is seen by none: the kernel's count of its largest process stands in.
    peak = max(monitor.peak, report.maxrss if report is not None else 0)
    stderr = err.text()
    if not verdict:
        if report is None:
            verdict, reason = "crash", "the run's supervisor was killed"
        elif returncode == -signal.SIGXCPU or (returncode != 0 and cpu >= limits.cpu):
            verdict, reason = "timeout", f"used {cpu:.1f} s of CPU time, over {limits.cpu:g} s"
        elif returncode != 0 and (peak >= 0.9 * limits.memory or _MEMORY_MESSAGES.search(err.head + err.tail)):
            verdict, reason = "memout", f"failed to allocate memory (limit {limits.memory / MB:g} MB)"
        elif returncode == -signal.SIGXFSZ:
            verdict, reason = "crash", (f"a file it wrote reached the {min(limits.file_size, limits.disk) / MB:g} MB "
                                        "one file may have (SIGXFSZ; --disk)")
        elif returncode is not None and returncode < 0:
            verdict, reason = "crash", f"killed by signal {signal.Signals(-returncode).name}"
        else:
            verdict = "exited"
    return Outcome(verdict, returncode, wall, cpu, peak, out.text(), stderr, reason, max(len(monitor.seen), 1),
                   over_disk=disk is not None and disk.broken)


def _check(monitor: _Monitor, limits: Limits, wall: float, output: int,
           cancel: threading.Event | None) -> tuple[str, str]:
    """The status and reason of a limit the run has broken (polling the tree if need be), or ("", "")."""
    if cancel is not None and cancel.is_set():
        return "crash", "the runner was interrupted"
    if wall > limits.wall:
        return "timeout", f"ran {wall:.1f} s of wall-clock time, over {limits.wall:g} s"
    if output > limits.output:
        return "crash", f"wrote more than {limits.output / MB:g} MB of output"
    memory = monitor.poll(time.monotonic() - wall + limits.wall)
    if memory > limits.memory:
        return "memout", f"the process tree used {memory / MB:.0f} MB, over {limits.memory / MB:g} MB"
    if monitor.cpu > limits.cpu:
        return "timeout", f"used {monitor.cpu:.1f} s of CPU time, over {limits.cpu:g} s"
    return "", ""


class _DiskWatch:
    """The disk a run's folder takes, looked at every `every` seconds (a walk costs in proportion to its
    files). RLIMIT_FSIZE bounds each file; this bounds them all together, and their number."""

    def __init__(self, folder: Path, budget: int, every: float = 0.1) -> None:
        self.folder = folder
        self.budget = budget
        self.every = every
        self._next = 0.0
        self.broken = False

    def check(self, now: float, *, final: bool = False) -> tuple[str, str]:
        """`final`: the look after the run has ended, whenever the last one was."""
        if now < self._next and not final:
            return "", ""
        used, entries = folder_usage(self.folder, _MOST_FILES)
        # (at most a fifth of a core however many files: the next look waits 4 times as long as this one took)
        self._next = time.monotonic() + max(self.every, 4 * (time.monotonic() - now))
        if used > self.budget:
            self.broken = True
            return "crash", (f"wrote {used / MB:.0f} MB in its run folder, over the {self.budget / MB:g} MB it may use "
                             "(--disk)")
        if entries >= _MOST_FILES:
            self.broken = True
            return "crash", f"made more than {_MOST_FILES:,} files in its run folder"
        return "", ""


_MOST_FILES = 100_000


def _read_report(fd: int) -> Report | None:
    """The supervisor's report; None when it died without writing one."""
    data = bytearray()
    try:
        os.set_blocking(fd, False)
        while block := os.read(fd, 4096):
            data += block
    except OSError:
        pass
    finally:
        os.close(fd)
    return Report.decode(bytes(data))


class _ExitWait:
    """Waits at most a poll interval, but returns as soon as the process exits (through a pidfd, Linux
    5.3+), so that a short run is not charged most of an interval; a plain sleep where there is none."""

    def __init__(self, pid: int) -> None:
        try:
            self.fd: int | None = os.pidfd_open(pid)
        except (AttributeError, OSError):
            self.fd = None

    def __call__(self, timeout: float) -> None:
        if self.fd is None:
            time.sleep(timeout)
        else:
            select.select([self.fd], [], [], timeout)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def _returncode(status: int | None) -> int | None:
    if status is None:
        return None
    return os.waitstatus_to_exitcode(status)


def _stop(supervisor: int, procs: Sequence[Proc], exited: _ExitWait, grace: float) -> None:
    """SIGTERM the command's processes (`procs`, as last seen, and their groups); after `grace`, have the
    supervisor SIGKILL them all; reap it."""
    send(procs, signal.SIGTERM, spare=supervisor)
    if _reaped(supervisor, exited, grace):
        return
    with contextlib.suppress(OSError):
        os.kill(supervisor, signal.SIGTERM)  # it kills everything below it and exits
    if _reaped(supervisor, exited, 5.0):
        return
    # The supervisor is stuck (stopped by the command?): kill its tree from here, then it.
    _kill_below(supervisor)
    with contextlib.suppress(OSError):
        os.kill(supervisor, signal.SIGKILL)
    os.wait4(supervisor, 0)


def _reaped(pid: int, exited: _ExitWait, timeout: float) -> bool:
    """Wait up to `timeout` for our child `pid` to exit; reap it; whether it did."""
    deadline = time.monotonic() + timeout
    while True:
        if os.wait4(pid, os.WNOHANG)[0]:
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        exited(min(left, 0.05))


def _kill_below(pid: int) -> None:
    """SIGKILL every process below `pid` until none is left (a fork loop may spawn while we kill)."""
    for _ in range(100):
        below = [p for p in descendants(pid) if not p.zombie]
        if not below:
            return
        send(below, signal.SIGKILL, spare=pid)
        time.sleep(0.01)


def session_marker(pid: int) -> str:
    """A line naming a running session: its leader's pid and start time (pids are reused; start times not)."""
    return f"{pid} {psutil.Process(pid).create_time():.3f}\n"


def kill_stale(marker: str) -> bool:
    """Kill the session a `session_marker` names if it is still running; whether one was found.

    A run's supervisor stops the run when its runner dies, but only where Linux tells it so
    (PR_SET_PDEATHSIG); elsewhere the next runner uses the marker the killed one left to finish the job
    before running that problem again.
    """
    try:
        pid_text, started = marker.split()
        pid = int(pid_text)
        if abs(psutil.Process(pid).create_time() - float(started)) > 0.01:
            return False
    except (ValueError, psutil.Error):
        return False
    _kill_below(pid)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    return True
