"""The supervisor of one run: the planner's parent and, on Linux, the parent of every orphan below it.

`limits.run_limited` starts it as `python -I supervisor.py ROOT PARENT GO_FD STATUS_FD COMMAND...`, in a
session of its own: ROOT is the folder holding the pddltools package (the script runs by path, with the
interpreter isolated from the planner's PYTHON* variables), PARENT the runner's pid, GO_FD a pipe it
waits on before starting COMMAND (so that the kernel limits, the CPU affinity and the run's marker are in
place first), STATUS_FD where it writes, as one JSON line, how COMMAND ended.

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
import json
import os
import resource
import signal
import sys
import time
from typing import Any

if __name__ == "__main__":  # run by path: the package is found through ROOT
    sys.path.insert(0, sys.argv[1])

from pddltools.score.proctree import descendants, send  # only after ROOT is on the path

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
PR_SET_CHILD_SUBREAPER = 36


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


def supervise(parent: int, go: int, command: list[str]) -> dict[str, Any]:
    """Run `command` once `go` says so; return the report (see `main`)."""
    report: dict[str, Any] = {"status": None, "started": None, "ended": None, "error": None, "cpu": 0.0}
    planner = 0
    try:
        # The runner may have died before PR_SET_PDEATHSIG was set: then nobody would stop this run.
        if os.getppid() != parent or os.read(go, 1) != b"g":
            raise _Stop
        report["started"] = time.monotonic()
        try:
            # A group of its own: one killpg() reaches all of it that did not move out.
            planner = os.posix_spawnp(command[0], command, os.environ, setpgroup=0)
        except OSError as exc:
            report["error"] = [exc.errno or 0, exc.strerror or str(exc)]
            raise _Stop from None
        while True:
            pid, status = os.waitpid(-1, 0)
            if pid == planner:
                report["status"], report["ended"] = status, time.monotonic()
                break
        _handle_stops(signal.SIG_IGN)  # the run is ending already
    except _Stop:
        _handle_stops(signal.SIG_IGN)
    reaped = kill_everything(planner)
    if report["status"] is None and reaped is not None:
        report["status"] = reaped
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    report["cpu"] = usage.ru_utime + usage.ru_stime  # every process of the run has been waited for by now
    return report


def kill_everything(planner: int) -> int | None:
    """SIGKILL every process below this one until none is left; the planner's wait status if reaped here."""
    me = os.getpid()
    status: int | None = None
    if planner:
        with contextlib.suppress(OSError):
            os.killpg(planner, signal.SIGKILL)  # its group at once, before a look at the tree
    while True:
        send(descendants(me), signal.SIGKILL, spare=me)
        try:
            while True:
                pid, code = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid == planner:
                    status = code
        except ChildProcessError:  # no child; as a subreaper, no descendant either
            return status
        time.sleep(0.005)


def main(argv: list[str]) -> int:
    """ROOT PARENT GO_FD STATUS_FD COMMAND...: writes {"status": wait status or null, "started",
    "ended": monotonic times of the command's start and exit, "error": [errno, message] when it could
    not start, "cpu": CPU seconds of the whole run} to STATUS_FD."""
    parent, go, status_fd = int(argv[1]), int(argv[2]), int(argv[3])
    os.set_inheritable(status_fd, False)
    os.set_inheritable(go, False)
    _handle_stops(_raise_stop)  # a handler, unlike SIG_IGN, is reset for the command by exec
    adopt_orphans()
    report = supervise(parent, go, argv[4:])
    with contextlib.suppress(OSError):  # the runner is gone; its run is cleaned up all the same
        os.write(status_fd, json.dumps(report).encode() + b"\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
