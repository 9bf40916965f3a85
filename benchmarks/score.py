"""What the runner's limits cost: a command run under `run_limited` against the same command run by a bare
`subprocess.run` (no limits, no monitoring), measured in one run, plus the store's commit rate.

    python benchmarks/score.py [--repeat 20]

Run it with the interpreter that has pddltools and its test extra (Fast Downward from up-fast-downward),
not benchmarks/.venv.

Prints one line per measurement, and the ratio limited / bare; nothing here fails on a number.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pddltools.score.limits import MB, Limits, run_limited
from pddltools.score.store import Run, Store

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pddl"


def timed(func: object, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()  # type: ignore[operator]
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    limits = Limits(wall=120, cpu=120, memory=2000 * MB)
    busy = "import time\nt = time.time()\nwhile time.time() - t < 0.5: pass"
    commands = {"python -c pass": [sys.executable, "-c", "pass"], "python busy 0.5 s": [sys.executable, "-c", busy]}
    spec = importlib.util.find_spec("up_fast_downward")
    problem = SHARED / "ipc-2000" / "blocks-strips-typed" / "instances" / "instance-3.pddl"
    if spec and spec.origin and problem.is_file():
        fd = Path(spec.origin).parent / "downward" / "fast-downward.py"
        with tempfile.TemporaryDirectory() as tmp:
            commands["Fast Downward blocks-3"] = [sys.executable, str(fd), "--plan-file", f"{tmp}/plan",
                                                   str(problem.parent.parent / "domain.pddl"), str(problem),
                                                   "--search", "astar(lmcut())"]
            measure(commands, limits, args.repeat)
    else:
        measure(commands, limits, args.repeat)
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "r.sqlite") as store:
        count = 200
        start = time.perf_counter()
        for i in range(count):
            store.add(Run("p", "t", "baseline", "d", "/d/domain.pddl", "h", f"/d/p{i}.pddl", "h", "solved", 1.0, 1.0, 0,
                          plan_text="(a)\n" * 50, length=50))
        elapsed = time.perf_counter() - start
        print(f"store: {count / elapsed:.0f} runs committed per second (WAL, synchronous=FULL)")


def measure(commands: dict[str, list[str]], limits: Limits, repeat: int) -> None:
    for name, argv in commands.items():
        bare = timed(lambda argv=argv: subprocess.run(argv, capture_output=True, check=False), repeat)
        limited = timed(lambda argv=argv: run_limited(argv, limits), repeat)
        print(f"{name}: bare {bare * 1000:.0f} ms, limited {limited * 1000:.0f} ms, ratio {limited / bare:.2f}")


if __name__ == "__main__":
    main()
