#!/usr/bin/env python3
"""`pddltools validate` of the 10-line ADL task in fresh processes, checkouts side by side (issue 29).

Each round runs `python -c pass` and then, for each checkout in turn, one fresh `pddltools validate` of
`corpus/plans/adl` (domain, problem, `valid.plan`) with that checkout first on `PYTHONPATH` and a cache
folder of its own (`XDG_CACHE_HOME`: a cache keeps what one build used, so checkouts sharing one would
rewrite it for each other). The figure is the CPU time (user + system) of the child, as
`benchmarks/startup.py` measures it; the least and the median over the rounds, after two warm-up runs
per checkout, so that a loaded machine moves every checkout alike.

    python benchmarks/startup_compare.py [--rounds 21] [--cache DIR] [--wheel-layout] NAME=CHECKOUT [...]
    python benchmarks/startup_compare.py main=/work/main branch=.
    /tmp/regvenv/bin/python benchmarks/startup_compare.py --wheel-layout main=/work/main branch=.

Run by the Python of a development venv, each checkout runs under that venv's editable finder, which
imports `pathlib` as the interpreter starts. `--wheel-layout`, run by the Python of a regular install
(`pip install .` into a venv of its own: its console script is used, the checkouts shadow its package),
copies each checkout's package with its grammars inside (`pddltools/grammars`, as the wheel lays them
out) and runs that copy: what a user's `pip install` runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
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


def wheel_layout(checkout: Path, into: Path) -> Path:
    """A copy of `checkout` as a wheel installs it: the package, the grammars inside it, the corpus linked."""
    into.mkdir(parents=True)
    shutil.copytree(checkout / "pddltools", into / "pddltools",
                    ignore=shutil.ignore_patterns("__pycache__", "grammars"))  # a link to the grammars: replaced
    shutil.copytree(checkout / "grammars", into / "pddltools" / "grammars",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (into / "corpus").symlink_to(checkout / "corpus")
    return into


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("checkouts", nargs="+", metavar="NAME=CHECKOUT")
    options.add_argument("--rounds", type=int, default=21)
    options.add_argument("--cache", type=Path, help="where each checkout's cache folder is made (default: a "
                                                    "temporary folder)")
    options.add_argument("--wheel-layout", action="store_true", help="run a copy of each checkout laid out as "
                                                                     "a wheel installs it (see above)")
    args = options.parse_args()
    named = [(name, Path(path).resolve()) for name, _, path in (c.partition("=") for c in args.checkouts)]
    with tempfile.TemporaryDirectory() as temporary:
        root = args.cache or Path(temporary)
        if args.wheel_layout:
            named = [(name, wheel_layout(path, Path(temporary) / "layout" / name)) for name, path in named]
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
