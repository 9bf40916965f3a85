"""Plans validated in a child process held to limits, so that no plan costs the runner its memory or time.

A planner's plan is untrusted input: millions of steps, or a task whose grounding explodes, could take
the runner (which holds the campaign) gigabytes and minutes. The runner's `IsolatedValidator` hands
each plan to a long-lived child (`python -m pddltools.score.isolated`), which keeps the `Validator`'s
parsed tasks between plans. The child's memory is polled while it works and capped by RLIMIT_AS as a
backstop; past the memory or time allowed, it is killed (and a new one started for the next plan), and
the run is a crash saying which limit its plan broke.

The time a plan is allowed is CPU time of the child, counted from its request: a campaign runs on a
busy machine, and the wall clock would charge a plan for other processes' work and for the child's own
start (it says `ready` once its imports and parsers are loaded). A wall-clock backstop, many times the
limit, covers a child that stops without spending CPU.

The child reads one JSON request a line on standard input ({"domain", "problem", "plan"}) and answers
one JSON line on standard output (after a first line `ready`): a verdict ({"valid", "value", "length",
"reason", "judged"}) or {"error": why}.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from pddltools.score.verdicts import PlanVerdict

MB = 1 << 20
#: The wall-clock backstop: this many times a plan's CPU allowance, and at least `BACKSTOP_MIN` s.
BACKSTOP_FACTOR = 10
BACKSTOP_MIN = 60.0
_TICKS = os.sysconf("SC_CLK_TCK")
_ROOT = Path(__file__).resolve().parents[2]  # the folder holding `pddltools`


class IsolatedValidator:
    """A `PlanChecker` validating in a child process of at most `memory` bytes and `seconds` per plan."""

    def __init__(self, memory: int, seconds: float, poll: float = 0.05) -> None:
        self.memory = memory
        self.seconds = seconds
        self.poll = poll
        self._child: subprocess.Popen[bytes] | None = None
        self.started = 0  # children started so far (a limit broken costs one)

    def _start(self) -> subprocess.Popen[bytes] | None:
        if self._child is None or self._child.poll() is not None:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join([str(_ROOT), *filter(None, [env.get("PYTHONPATH")])])
            # The address space backstop is generous (the interpreter and its libraries reserve far more
            # than they touch); the polled resident size is what is held to `memory`.
            backstop = 4 * self.memory + (1 << 30)
            self._child = subprocess.Popen(
                [sys.executable, "-m", "pddltools.score.isolated", str(backstop)], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
            self.started += 1
            assert self._child.stdout is not None
            line, _ = self._read_line(self._child, self._child.stdout, cpu_limit=None)
            if line != b"ready\n":
                self._kill()
                return None
        return self._child

    def __call__(self, domain: str, problem: str, plan_text: str) -> PlanVerdict:
        child = self._start()
        if child is None:
            return _crash("the validator's process did not start")
        assert child.stdin is not None and child.stdout is not None
        request = json.dumps({"domain": domain, "problem": problem, "plan": plan_text}).encode() + b"\n"
        try:
            child.stdin.write(request)
            child.stdin.flush()
        except OSError:
            self._kill()
            return _crash("the validator's process ended before it read the plan")
        line, why = self._read_line(child, child.stdout, cpu_limit=self.seconds)
        if line is None:
            self._kill()
            return _crash(why)
        try:
            answer = json.loads(line)
        except ValueError:
            self._kill()
            return _crash("the validator's process answered nonsense")
        if "error" in answer:
            self._kill()  # out of memory inside it, or a bug: a fresh process for the next plan
            return _crash(f"validating its plan failed: {answer['error']}")
        return PlanVerdict(bool(answer["valid"]), answer["value"], answer["length"], str(answer["reason"]),
                           judged=bool(answer.get("judged", True)))

    def _read_line(self, child: subprocess.Popen[bytes], stdout: IO[bytes],
                   cpu_limit: float | None) -> tuple[bytes | None, str]:
        """The child's next line, or None and why it did not come within the limits: `cpu_limit` seconds
        of the child's CPU from now (None: no limit but the backstop), the memory, the backstop."""
        allowance = self.seconds if cpu_limit is None else cpu_limit
        backstop = max(BACKSTOP_FACTOR * allowance, BACKSTOP_MIN)
        deadline = time.monotonic() + backstop
        spent_before = _cpu_seconds(child.pid)
        data = bytearray()
        fd = stdout.fileno()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None, (f"validating its plan took more than {backstop:g} s of wall-clock time "
                              "(the validator's backstop)")
            ready, _, _ = select.select([fd], [], [], min(self.poll, left))
            if ready:
                block = os.read(fd, 1 << 16)
                if not block:
                    return None, "the validator's process died validating its plan (out of memory?)"
                data += block
                if data.endswith(b"\n"):
                    return bytes(data), ""
                continue
            if cpu_limit is not None and _cpu_seconds(child.pid) - spent_before > cpu_limit:
                return None, f"validating its plan took more than {cpu_limit:g} s of CPU (the run's wall limit)"
            rss = _resident(child.pid)
            if rss > self.memory:
                return None, (f"validating its plan took more than {self.memory / MB:g} MB "
                              "(the run's memory limit)")

    def _kill(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        with contextlib.suppress(OSError):
            child.kill()
        child.wait()
        for stream in (child.stdin, child.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()

    def close(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        if child.stdin is not None:
            with contextlib.suppress(OSError):
                child.stdin.close()  # end of input: it exits
        try:
            child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()

    def __enter__(self) -> IsolatedValidator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _crash(reason: str) -> PlanVerdict:
    return PlanVerdict(False, None, None, reason, crash=True)


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process `pid` has spent, from /proc (0 where it cannot be read)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return 0.0


def _resident(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def main(argv: list[str]) -> int:
    """The child: answer validation requests until standard input ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the runner's to handle; it ends this one
    with contextlib.suppress(ValueError, OSError, IndexError):
        limit = int(argv[0])
        resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    from pddltools.score.validation import Validator

    validator = Validator()
    validator.warm()
    out = sys.stdout.buffer
    out.write(b"ready\n")
    out.flush()
    for line in sys.stdin.buffer:
        answer: dict[str, Any]
        try:
            request = json.loads(line)
            verdict = validator(request["domain"], request["problem"], request["plan"])
            answer = {"valid": verdict.valid, "value": verdict.value, "length": verdict.length,
                      "reason": verdict.reason, "judged": verdict.judged}
        except MemoryError:
            answer = {"error": "out of memory"}
        except RecursionError:
            answer = {"error": "the plan or its task nests too deeply"}
        except Exception as exc:  # a bug in the validator must cost one run, not the campaign
            answer = {"error": f"{type(exc).__name__}: {exc}"[:300]}
        out.write(json.dumps(answer).encode() + b"\n")
        out.flush()
        if "error" in answer:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
