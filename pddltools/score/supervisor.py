"""The supervisor of one run: the planner's parent and, on Linux, the parent of every orphan below it.

`limits.run_limited` starts it as `python -I -S supervisor.py ROOT PARENT GO_FD STATUS_FD COMMAND...`, in
a session of its own: ROOT is the folder holding the pddltools package (the script runs by path, with
the interpreter isolated from the planner's PYTHON* variables), PARENT the runner's pid, GO_FD a pipe it
waits on before starting COMMAND (so that the kernel limits, the CPU affinity and the run's marker are in
place first), STATUS_FD where it writes how COMMAND ended (a `Report`, one line). COMMAND gets the
supervisor's environment, folder and standard streams, in a process group of its own.

Why a process of its own: Linux re-parents an orphan to its nearest ancestor that is a child subreaper
(prctl PR_SET_CHILD_SUBREAPER), else to init. The supervisor is one, so a daemon that forks, calls
setsid() and forks again stays below it, and when it has no child left, nothing of the run is left.
The runner cannot be the subreaper itself: its threads run several planners at once, whose orphans
would all come to it, unattributable. The supervisor also dies with the runner's thread
(PR_SET_PDEATHSIG): a runner killed with SIGKILL takes its runs with it.

When COMMAND exits, or on SIGTERM, SIGHUP or SIGINT (the runner ending the run early, or gone), it kills
every process below it with SIGKILL and reaps them until it has no child, then reports.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys
import time

TYPE_CHECKING = False  # typing and json are left out: they would cost the start a third (see proctree)
if TYPE_CHECKING:
    from typing import Any

if __name__ == "__main__":  # run by path: the package is found through ROOT
    sys.path.insert(0, sys.argv[1])

from pddltools.score.proctree import descendants, send  # noqa: E402  # only after ROOT is on the path

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36
_RESTORED = tuple(getattr(signal, name) for name in ("SIGPIPE", "SIGXFSZ", "SIGXFZ") if hasattr(signal, name))


class _Stop(Exception):
    """Raised in the main thread by the signals that end a run early."""


def _raise_stop(signum: int, frame: object) -> None:
    raise _Stop


def _handle_stops(handler: Any) -> None:
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(sig, handler)


def adopt_orphans() -> bool:
    """Become a child subreaper that gets SIGTERM when its parent dies; whether the system allows it."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return False  # not Linux: orphans go to init, as without a supervisor
    adopted = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    return bool(adopted)


class Report:
    """How the command ended: its wait status (None if it never ran), the monotonic times of its start
    and exit, the CPU seconds of the whole run, the largest resident size in bytes that the kernel counted
    for one process of the run (0 when not known: see `own_peak`), and (errno, message) when it could not
    start. Sent as one line of text: STATUS STARTED ENDED CPU MAXRSS ERRNO MESSAGE, with - for None."""

    __slots__ = ("cpu", "ended", "error", "maxrss", "started", "status")

    def __init__(self) -> None:
        self.status: int | None = None
        self.started: float | None = None
        self.ended: float | None = None
        self.cpu = 0.0
        self.maxrss = 0
        self.error: tuple[int, str] | None = None

    def encode(self) -> bytes:
        words = ["-" if v is None else repr(v) for v in (self.status, self.started, self.ended, self.cpu)]
        number, message = self.error or (0, "")
        return " ".join([*words, str(self.maxrss), str(number), message.replace("\n", " ")]).encode() + b"\n"

    @classmethod
    def decode(cls, data: bytes) -> Report | None:
        """The report in `data`, or None when it is not one (the supervisor died before writing it)."""
        words = data.decode(errors="replace").rstrip("\n").split(" ", 6)
        if len(words) != 7:
            return None
        report = cls()
        try:
            report.status = None if words[0] == "-" else int(words[0])
            report.started = None if words[1] == "-" else float(words[1])
            report.ended = None if words[2] == "-" else float(words[2])
            report.cpu = float(words[3])
            report.maxrss = int(words[4])
            report.error = (int(words[5]), words[6]) if words[6] else None
        except ValueError:
            return None
        return report


def supervise(parent: int, go: int, command: list[str]) -> Report:
    """Run `command` once `go` says so; return how it ended."""
    report = Report()
    planner = 0
    spawned_from = 0
    try:
        # The runner may have died before PR_SET_PDEATHSIG was set: then nobody would stop this run.
        if os.getppid() != parent or os.read(go, 1) != b"g":
            raise _Stop
        report.started = time.monotonic()
        try:
            # A group of its own: one killpg() reaches all of it that did not move out. Python ignores
            # SIGPIPE and SIGXFSZ and exec keeps that: the command gets them back as subprocess does.
            planner = os.posix_spawnp(command[0], command, os.environ, setpgroup=0, setsigdef=_RESTORED)
            # The planner has exec'd by now (posix_spawn returns after the exec): see `own_peak`.
            spawned_from = high_water_mark()
        except OSError as exc:
            report.error = (exc.errno or 0, exc.strerror or str(exc))
            raise _Stop from None
        while True:
            pid, status = os.waitpid(-1, 0)
            if pid == planner:
                report.status, report.ended = status, time.monotonic()
                break
        _handle_stops(signal.SIG_IGN)  # the run is ending already
    except _Stop:
        _handle_stops(signal.SIG_IGN)
    reaped = kill_everything(planner)
    if report.status is None:
        report.status = reaped
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    report.cpu = usage.ru_utime + usage.ru_stime  # every process of the run has been waited for by now
    if spawned_from:  # (not read when a signal came straight after the spawn: then nothing is known)
        report.maxrss = own_peak(usage.ru_maxrss, spawned_from)
    return report


def high_water_mark() -> int:
    """This process's largest resident size so far, in the units of `ru_maxrss` (KiB on Linux); its
    `ru_maxrss` where /proc is missing (larger: that counts what it exec'd from, so less is believed)."""
    try:
        with open("/proc/self/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def own_peak(children_maxrss: int, spawned_from: int) -> int:
    """The largest resident size of one process of the run, in bytes, as the kernel counted it; 0 when
    that may be the supervisor's own size.

    A run too short for the runner's polls (a planner that solves in 20 ms) still gets a figure. But
    at exec the kernel counts the memory a process leaves behind in its maximum: for the planner, the
    supervisor's memory it was spawned sharing (`spawned_from`, read after the spawn). Only a maximum
    above that is the run's own.
    """
    if children_maxrss <= spawned_from:
        return 0
    return children_maxrss * (1 if sys.platform == "darwin" else 1024)  # macOS counts bytes


def kill_everything(planner: int) -> int | None:
    """SIGKILL every process below this one until none is left; the planner's wait status if reaped here."""
    me = os.getpid()
    status: int | None = None
    if planner:
        with contextlib.suppress(OSError):
            os.killpg(planner, signal.SIGKILL)  # its group at once, before a look at the tree
    # Bounded (10 s), should a child take long to die (a process in the kernel's uninterruptible sleep
    # dies only as it leaves it): the SIGKILL is pending, and the run's report must not wait forever.
    for _ in range(2000):
        send(descendants(me), signal.SIGKILL, spare=me)
        try:
            while True:
                pid, code = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid == planner:
                    status = code
        except ChildProcessError:  # no child; as a subreaper, no descendant either
            break
        time.sleep(0.005)
    return status


def main(argv: list[str]) -> int:
    """ROOT PARENT GO_FD STATUS_FD COMMAND...: runs COMMAND, writes its `Report` to STATUS_FD."""
    parent, go, status_fd = int(argv[1]), int(argv[2]), int(argv[3])
    os.set_inheritable(status_fd, False)
    os.set_inheritable(go, False)
    _handle_stops(_raise_stop)  # a handler, unlike SIG_IGN, is reset for the command by exec
    adopt_orphans()
    report = supervise(parent, go, argv[4:])
    with contextlib.suppress(OSError):  # the runner is gone; its run is cleaned up all the same
        os.write(status_fd, report.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
