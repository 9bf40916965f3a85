"""What the fuzzing and reproducer tests share (and benchmarks/runner_limits.py with them).

The pattern of every one of them: the hostile work runs in a child process under an address-space cap
and a timeout, each input under an alarm, on both parse paths (the compiled loop and scanners, and the
Python ones, chosen for the whole child), and the child reports what happened as JSON lines that the
test then judges. A regression to a hang, a traceback or memory without bound then fails a test
instead of stalling CI. The pieces of that pattern live here, once:

- where things are (`REPO`, the shared reproducers `FUZZ` and `TURN3`) and the child's environment;
- the child's own limits: `cap_address_space`, `alarm` (raising `Hang`), `peak_mb`;
- `use_python_loop` (and `PYTHON_LOOP`, its source for `python -c` children): every parse of the child
  by the Python loop;
- `run_child`: a child's JSON lines, whatever it did (a timeout keeps what it printed);
- `mutate`: the seeded mutator of text inputs (hostile words and numbers, lines dropped, doubled,
  swapped, cut short);
- `check_findings`: what `pddltools check --format json` reports, as comparable tuples;
- `hostile_planners`: the turn-3 planner stand-ins and their problem, copied where a campaign runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pddltools.score.supervisor import high_water_mark

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
FUZZ = SHARED / "fuzz"
TURN3 = FUZZ / "turn3"
#: The two parse paths every fuzzing target runs over.
PATHS = ("compiled", "python")


def child_env() -> dict[str, str]:
    """The environment of a child that imports this worktree's pddltools (and `tests.*`)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}


# ---------------------------------------------------------------------------------------------------
# In the child


def cap_address_space(size: int) -> None:
    """Cap this process's address space at `size` bytes (memory without bound ends in MemoryError)."""
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


class Hang(Exception):
    """An input still being worked on when its alarm rang."""


@contextlib.contextmanager
def alarm(seconds: int) -> Iterator[None]:
    """Raise `Hang` in the main thread if the block runs longer than `seconds`."""
    def ring(signum: int, frame: object) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def peak_mb() -> float:
    """This process image's peak resident memory, in MB. Not `ru_maxrss`: Linux carries a parent's
    high-water mark across fork and exec, so a child of a test process grown to a gigabyte would report
    that gigabyte; /proc's VmHWM belongs to this image alone (`high_water_mark`, the runner's reading)."""
    return high_water_mark() / 1024


#: `use_python_loop` as the source of a `python -c` child (a server), before its own code.
PYTHON_LOOP = ("import contextvars, pddltools.syntax.testing as t; t._current = contextvars.ContextVar("
               "'variant', default=t.Variant(compiled=False)); ")


def use_python_loop() -> None:
    """Every parse of this process by the Python loop (the variant's default, so in every thread)."""
    import contextvars

    import pddltools.syntax.testing as testing

    python_loop = testing.Variant(compiled=False)  # frozen: a shared default is safe
    testing._current = contextvars.ContextVar("variant", default=python_loop)


def emit(record: dict[str, Any]) -> None:
    """One JSON line of the child's report."""
    print(json.dumps(record), flush=True)


# ---------------------------------------------------------------------------------------------------
# In the test


def run_child(argv: Sequence[str], timeout: float, cwd: Path = REPO) -> tuple[list[dict[str, Any]], str]:
    """The JSON lines a child printed and the end of its standard error; a child past `timeout` is
    killed, and what it printed until then is kept (the error says it ran too long)."""
    try:
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True, timeout=timeout,
                              env=child_env(), cwd=cwd)
        out, err = done.stdout, done.stderr
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else exc.stdout or ""
        err = f"the child ran past {timeout} s"
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")], err[-3000:]


def check_findings(paths: Sequence[Path | str]) -> list[tuple[str, str, int, int, str]]:
    """(file name, code, line, column, message) of each finding of `pddltools check --format json`
    on `paths`, sorted."""
    from pddltools.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--format", "json", *map(str, paths)])
    envelope = json.loads(out.getvalue())
    return sorted((Path(f["path"]).name, d["code"], d["line"], d["column"], d["message"])
                  for f in envelope["files"] for d in f["diagnostics"])


#: Words and numbers that broke a reader once: superscripts and other scripts' digits, 5,000 digits,
#: exponents past any float, underscores, NUL, an emoji, stray brackets.
NUMBERS = ["²", "٣", "9" * 5000, "1e999999", "1e-999999", "1_0", "-1", "99999999999999999999", "1/3", "nan", "-0.5",
           "0x10", "1e5", "00"]
HOSTILE = ["²", "٣", "9" * 5000, "1e999999", "1e-999999", "1_0", "-1", "0", "99999999999999999999", "1/3", "nan",
           "inf", "-0.5", "\x00", "🙂", "(", ")", "->", "root", "==>", "<==", ":", ";", "", "(tick)", "\t"]


def mutate(text: str, rng: random.Random, hostile: Sequence[str] = HOSTILE,
           numbers: Sequence[str] = NUMBERS) -> str:
    """One to three random edits of `text`: a number (an id, a time, a duration) or a word replaced by a
    hostile one, a line dropped, doubled, swapped or cut short, hostile words inserted."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        pick = rng.randrange(8)
        at = rng.randrange(len(lines))
        found = [(i, j) for i, line in enumerate(lines) for j, word in enumerate(line.split(" "))
                 if word.strip("():[],\"{}").replace(".", "").isdigit()]
        if pick >= 6 and found:
            i, j = rng.choice(found)
            words = lines[i].split(" ")
            word = words[j]
            core = word.strip("():[],\"{}")
            words[j] = word.replace(core, rng.choice(numbers), 1)
            lines[i] = " ".join(words)
        elif pick == 0:
            words = lines[at].split(" ")
            words[rng.randrange(len(words))] = rng.choice(hostile)
            lines[at] = " ".join(words)
        elif pick == 1:
            del lines[at]
        elif pick == 2:
            lines.insert(at, lines[rng.randrange(len(lines))])
        elif pick == 3:
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
        elif pick == 4:
            lines[at] = lines[at][:rng.randrange(len(lines[at]) + 1)]
        else:
            lines.insert(at, rng.choice(hostile) + " " + rng.choice(hostile))
        text = "\n".join(lines) if lines else ""
    return text


#: A planner stand-in that fills its own folder (400 MB at most, should nothing stop it).
FILLER = """
for n in range(400):
    with open(f"fill-{n}", "wb") as handle:
        handle.write(b"x" * (1 << 20))
"""


def hostile_planners(root: Path, secret: str) -> Path:
    """Copy the turn-3 planner stand-ins (symbolic links, a named pipe, a directory, huge and many plans,
    a slow walker), their `line` domain and a folder filler (`filler.py`) into `root`, with a file
    `shadow` holding `secret` for the link to point at. Returns that file."""
    for name in ("run-plan-symlink", "run-plan-fifo-hang", "run-plan-size-memory", "run-concurrent-same-workdir"):
        for planner in (TURN3 / name / "planners").iterdir():
            shutil.copy(planner, root / planner.name)
    shutil.copytree(TURN3 / "run-plan-symlink" / "line", root / "line")
    (root / "filler.py").write_text(FILLER)
    shadow = root / "shadow"
    shadow.write_text(secret)
    return shadow
