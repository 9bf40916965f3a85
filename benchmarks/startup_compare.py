#!/usr/bin/env python3
"""`pddltools validate` of the 10-line ADL task in fresh processes, checkouts side by side (issue 29).

Each round runs `python -c pass` and then, for each checkout in turn, one fresh `pddltools validate` of
`corpus/plans/adl` (domain, problem, `valid.plan`) with that checkout first on `PYTHONPATH` and a cache
folder of its own (`XDG_CACHE_HOME`: a cache keeps what one build used, so checkouts sharing one would
rewrite it for each other). The figure is the CPU time (user + system) of the child, as
`benchmarks/startup.py` measures it; the least and the median over the rounds, after two warm-up runs
per checkout, so that a loaded machine moves every checkout alike.

    python benchmarks/startup_compare.py [--rounds 21] [--cache DIR] NAME=CHECKOUT [NAME=CHECKOUT ...]
    python benchmarks/startup_compare.py main=/work/main branch=.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from startup import PDDLTOOLS, cpu_of  # the same console script and CPU reading as benchmarks/startup.py


def validate_argv(checkout: Path) -> list[str]:
    adl = checkout / "corpus" / "plans" / "adl"
    return [*PDDLTOOLS, "validate", str(adl / "domain.pddl"), str(adl / "problem.pddl"), str(adl / "valid.plan")]


def environment(checkout: Path, cache: Path) -> dict[str, str]:
    # byte code cached as a user's Python caches it (see `startup.ENV`)
    kept = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**kept, "PYTHONPATH": str(checkout), "XDG_CACHE_HOME": str(cache)}


def warm_up(argv: list[str], env: dict[str, str], cwd: Path) -> None:
    """One run that makes the caches (the parser image, the code cache); a failed run is refused."""
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} ended with {done.returncode}:\n{done.stderr.decode()[-2000:]}")


def cpu_of_run(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """`startup.cpu_of` with the checkout's environment and folder: the child's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("checkouts", nargs="+", metavar="NAME=CHECKOUT")
    options.add_argument("--rounds", type=int, default=21)
    options.add_argument("--cache", type=Path, help="where each checkout's cache folder is made (default: a "
                                                    "temporary folder)")
    args = options.parse_args()
    named = [(name, Path(path).resolve()) for name, _, path in (c.partition("=") for c in args.checkouts)]
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache or Path(temporary)
        runs = {name: (validate_argv(path), environment(path, root / name), path) for name, path in named}
        for argv, env, cwd in runs.values():
            warm_up(argv, env, cwd)
            warm_up(argv, env, cwd)
        times: dict[str, list[float]] = {"python -c pass": [], **{name: [] for name in runs}}
        for _ in range(args.rounds):
            times["python -c pass"].append(cpu_of([sys.executable, "-c", "pass"]))
            for name, (argv, env, cwd) in runs.items():
                times[name].append(cpu_of_run(argv, env, cwd))
    width = max(map(len, times))
    print(f"{'':{width}}  least  median  (CPU seconds, {args.rounds} rounds, load average "
          f"{os.getloadavg()[0]:.1f})")
    for name, values in times.items():
        print(f"{name:{width}}  {min(values):.3f}  {statistics.median(values):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
