"""Run one command as a process tree under wall-clock, CPU and memory limits.

The command starts in a new session (so its process group and session id name the whole tree, also
children that daemonise by double-forking). The caller's thread polls the tree a few times a second: the
memory of all its processes added up (proportional set sizes, so pages shared after a fork count once),
their CPU time added up, the wall clock. Past a limit it sends SIGTERM to everything, then SIGKILL after
a short grace (a planner that ignores SIGTERM is still stopped). Per-process kernel limits (RLIMIT_AS,
RLIMIT_CPU, RLIMIT_FSIZE) back the polling up between two polls. Output goes through pipes that are
drained continuously, keeping only a head and a tail, and a command that writes more than the output
limit is killed, so a flood neither fills the disk nor blocks. When the command's main process exits,
whatever it left running is killed too: no process outlives its run.
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import psutil  # type: ignore[import-untyped]  # psutil ships no type stubs

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
    grace: float = 0.5  # seconds between SIGTERM and SIGKILL
    # RLIMIT_AS = memory per process. Off for runtimes that reserve far more address space than they use
    # (the JVM, Go): the tree's polled memory still holds them to the limit.
    address_space: bool = True

    def describe(self) -> str:
        return f"wall {self.wall:g} s, CPU {self.cpu:g} s, memory {self.memory / MB:g} MB"


# The defaults the rules give: IPC-2008 ran 30 minutes and 2 GB per run, one core; IPC-2011's
# learning track 15 minutes and 4 GB, one core.
TRACK_LIMITS: dict[str, Limits] = {
    "ipc2008": Limits(wall=1800.0, cpu=1800.0, memory=2 * GB),
    "ipc2011-learning": Limits(wall=900.0, cpu=900.0, memory=4 * GB),
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
    peak_memory: int  # bytes: the largest proportional set size of the whole tree seen by a poll
    stdout: bytes
    stderr: bytes
    reason: str
    processes: int  # how many processes the tree had over its life


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


class _Tree:
    """The processes of one run: found as descendants of the root and as members of its session."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.session = root  # the root is the leader of the new session and of its process group
        self.known: dict[int, psutil.Process] = {}
        self.cpu: dict[int, float] = {}
        self.seen = 1  # the root

    def refresh(self) -> list[psutil.Process]:
        """The live processes of the tree now (zombies excluded)."""
        found: dict[int, psutil.Process] = {}
        for proc in list(self.known.values()):
            try:
                if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                    found[proc.pid] = proc
                    for child in proc.children(recursive=True):
                        found.setdefault(child.pid, child)
            except psutil.Error:
                continue
        for pid in psutil.pids():
            if pid in found or pid == os.getpid():
                continue
            try:
                if os.getsid(pid) == self.session:
                    found[pid] = psutil.Process(pid)
            except (OSError, psutil.Error):
                continue
        for pid, proc in found.items():
            if pid not in self.known:
                self.known[pid] = proc
                self.seen += 1
        live = []
        for proc in found.values():
            try:
                if proc.status() != psutil.STATUS_ZOMBIE:
                    live.append(proc)
            except psutil.Error:
                continue
        return live

    def measure(self, live: Sequence[psutil.Process]) -> tuple[int, float]:
        """Memory of the live processes added up, and CPU seconds of every process seen."""
        rss = 0
        for proc in live:
            try:
                rss += _proportional_memory(proc)
                times = proc.cpu_times()
                self.cpu[proc.pid] = max(self.cpu.get(proc.pid, 0.0), times.user + times.system)
            except psutil.Error:
                continue
        return rss, sum(self.cpu.values())

    def signal(self, sig: int) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.session, sig)
        for proc in self.refresh():
            try:
                proc.send_signal(sig)
            except psutil.Error:
                continue


def _proportional_memory(proc: psutil.Process) -> int:
    """The process's proportional set size (its private pages plus its share of pages it shares), so that
    children forked from a large parent are not charged the parent's pages once each; the resident size
    where the kernel has no smaps_rollup."""
    try:
        with open(f"/proc/{proc.pid}/smaps_rollup", "rb") as handle:
            for line in handle:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return int(proc.memory_info().rss)


def _set_kernel_limits(pid: int, limits: Limits) -> None:
    """Per-process backstops, inherited by every child the command forks from now on."""
    cpu = int(limits.cpu) + 1
    settings = [
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_FSIZE, limits.file_size),
        (resource.RLIMIT_CORE, 0),
    ]
    if limits.address_space:
        settings.append((resource.RLIMIT_AS, limits.memory))
    for which, value in settings:
        hard = value + 1 if which == resource.RLIMIT_CPU else value
        try:
            resource.prlimit(pid, which, (value, hard))
        except (OSError, ValueError):
            continue


def run_limited(argv: Sequence[str], limits: Limits, *, cwd: str | Path | None = None,
                env: Mapping[str, str] | None = None, cpus: Sequence[int] | None = None,
                poll: float = 0.05, on_start: Callable[[int], object] | None = None,
                cancel: threading.Event | None = None) -> Outcome:
    """Run `argv` under `limits`; return how it ended. Never leaves a process of the tree running.

    Setting `cancel` (the runner is being interrupted) stops the tree as a limit would: status `crash`.

    `on_start(pid)` is called once the command runs (its pid is also its session id), so a caller can note
    it somewhere that outlives this process: see `kill_stale`.
    """
    start = time.monotonic()
    proc = subprocess.Popen(
        list(argv), cwd=cwd, env=dict(env) if env is not None else None, stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, close_fds=True)
    # Popen returns once the command has been exec'd: it has not forked yet.
    _set_kernel_limits(proc.pid, limits)
    if cpus:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(proc.pid, set(cpus))
    if on_start is not None:
        on_start(proc.pid)
    assert proc.stdout is not None and proc.stderr is not None
    out, err = _Drain(proc.stdout), _Drain(proc.stderr)
    out.start()
    err.start()
    tree = _Tree(proc.pid)
    tree.known[proc.pid] = psutil.Process(proc.pid)
    exited = _ExitWait(proc.pid)
    peak, cpu, verdict, reason = 0, 0.0, "", ""
    status_code: int | None = None
    rusage_cpu = 0.0
    while True:
        pid, status_code, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            rusage_cpu = usage.ru_utime + usage.ru_stime
            break
        live = tree.refresh()
        rss, cpu = tree.measure(live)
        peak = max(peak, rss)
        wall = time.monotonic() - start
        if cancel is not None and cancel.is_set():
            verdict, reason = "crash", "the runner was interrupted"
        elif rss > limits.memory:
            verdict, reason = "memout", f"the process tree used {rss / MB:.0f} MB, over {limits.memory / MB:g} MB"
        elif wall > limits.wall:
            verdict, reason = "timeout", f"ran {wall:.1f} s of wall-clock time, over {limits.wall:g} s"
        elif cpu > limits.cpu:
            verdict, reason = "timeout", f"used {cpu:.1f} s of CPU time, over {limits.cpu:g} s"
        elif out.total + err.total > limits.output:
            verdict, reason = "crash", f"wrote more than {limits.output / MB:g} MB of output"
        if verdict:
            status_code, rusage_cpu = _stop(proc.pid, tree, limits.grace)
            break
        exited(poll)
    wall = time.monotonic() - start
    exited.close()
    # The main process is gone; anything it left behind (daemons, stuck children) goes with it.
    _kill_rest(tree)
    out.join(5.0)
    err.join(5.0)
    proc.returncode = _returncode(status_code)
    cpu = max(sum(tree.cpu.values()), rusage_cpu)
    stderr = err.text()
    if not verdict:
        returncode = proc.returncode
        if returncode == -signal.SIGXCPU or (returncode != 0 and cpu >= limits.cpu):
            verdict, reason = "timeout", f"used {cpu:.1f} s of CPU time, over {limits.cpu:g} s"
        elif returncode != 0 and (peak >= 0.9 * limits.memory or _MEMORY_MESSAGES.search(err.head + err.tail)):
            verdict, reason = "memout", f"failed to allocate memory (limit {limits.memory / MB:g} MB)"
        elif returncode is not None and returncode < 0:
            verdict, reason = "crash", f"killed by signal {signal.Signals(-returncode).name}"
        else:
            verdict = "exited"
    return Outcome(verdict, proc.returncode, wall, cpu, peak, out.text(), stderr, reason, max(tree.seen, 1))


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


def _stop(root: int, tree: _Tree, grace: float) -> tuple[int | None, float]:
    """SIGTERM the tree, SIGKILL it after `grace`; reap the root. Returns its wait status and CPU time."""
    tree.signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        pid, status, usage = os.wait4(root, os.WNOHANG)
        if pid:
            _kill_rest(tree)
            return status, usage.ru_utime + usage.ru_stime
        time.sleep(0.02)
    tree.signal(signal.SIGKILL)
    _, status, usage = os.wait4(root, 0)
    _kill_rest(tree)
    return status, usage.ru_utime + usage.ru_stime


def _kill_rest(tree: _Tree) -> None:
    """SIGKILL every process of the tree until none is left (a fork loop may spawn while we kill)."""
    for _ in range(50):
        live = tree.refresh()
        if not live:
            return
        tree.signal(signal.SIGKILL)
        psutil.wait_procs(live, timeout=0.2)


def session_marker(pid: int) -> str:
    """A line naming a running session: its leader's pid and start time (pids are reused; start times not)."""
    return f"{pid} {psutil.Process(pid).create_time():.3f}\n"


def kill_stale(marker: str) -> bool:
    """Kill the session a `session_marker` names if it is still running; whether one was found.

    A runner killed with SIGKILL cannot stop the run it was monitoring, which lives in its own session;
    the next runner uses the marker it left to finish the job before running that problem again.
    """
    try:
        pid_text, started = marker.split()
        pid = int(pid_text)
        if abs(psutil.Process(pid).create_time() - float(started)) > 0.01:
            return False
    except (ValueError, psutil.Error):
        return False
    tree = _Tree(pid)
    tree.known[pid] = psutil.Process(pid)
    tree.signal(signal.SIGKILL)
    _kill_rest(tree)
    return True
