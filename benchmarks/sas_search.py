#!/usr/bin/env python3
"""Fast Downward's search on `pddltools ground --to sas` output: does it read the file, find a plan, and
does `pddltools unmap` turn that plan into one `pddltools validate` accepts on the original task?

For each selected corpus pair the grounder accepts: ground to SAS, run the search of `up-fast-downward`
(in the project's environment) with a time limit, unmap its plan (which validates it on the original
task). One line per pair, and the counts at the end.

    python benchmarks/sas_search.py --sample 20
    python benchmarks/sas_search.py --glob 'ipc-2011/*' --search 'astar(lmcut())'
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from parse import CORPUS, pairs_under  # noqa: E402


def downward() -> Path:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        raise SystemExit("up-fast-downward is not installed in this environment")
    return Path(spec.origin).parent / "downward" / "builds" / "release" / "bin" / "downward"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--glob", action="append")
    parser.add_argument("--sample", type=int, default=1)
    parser.add_argument("--search", default="lazy_greedy([ff()], preferred=[ff()])")
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()
    binary = downward()
    pairs = [(p.domain, p.problem) for p in pairs_under(CORPUS)
             if not args.glob or any(fnmatch.fnmatch(p.folder, g) for g in args.glob)][:: args.sample]
    counts = {"grounded": 0, "read": 0, "solved": 0, "valid": 0, "unsolvable": 0}
    for domain, problem in pairs:
        name = problem.relative_to(CORPUS)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "g"
            ground = subprocess.run([sys.executable, "-m", "pddltools", "ground", str(domain), str(problem), "-o",
                                     str(out), "--to", "sas"], capture_output=True, text=True, check=False)
            if ground.returncode != 0:
                continue  # outside what the grounder reads (temporal, numeric ...)
            counts["grounded"] += 1
            try:
                search = subprocess.run([str(binary), "--search", args.search], stdin=(out / "output.sas").open(),
                                        cwd=tmp, capture_output=True, text=True, timeout=args.timeout, check=False)
            except subprocess.TimeoutExpired:
                print(f"{name}: search timed out after {args.timeout:.0f} s", flush=True)
                counts["read"] += 1
                continue
            if "Usage error" in search.stdout or "Input error" in search.stdout or search.returncode in (32, 33, 34):
                print(f"{name}: the search could not read the SAS file: {search.stdout[-300:]}", flush=True)
                continue
            counts["read"] += 1
            if "Search stopped without finding a solution" in search.stdout or search.returncode == 11:
                counts["unsolvable"] += 1
                print(f"{name}: no plan (the search proved the task unsolvable)", flush=True)
                continue
            if not (Path(tmp) / "sas_plan").is_file():
                print(f"{name}: no plan (exit {search.returncode})", flush=True)
                continue
            counts["solved"] += 1
            unmap = subprocess.run([sys.executable, "-m", "pddltools", "unmap", str(out), str(Path(tmp) / "sas_plan")],
                                   capture_output=True, text=True, check=False)
            if unmap.returncode == 0:
                counts["valid"] += 1
                print(f"{name}: plan found, valid on the original task", flush=True)
            else:
                print(f"{name}: plan found, NOT valid on the original: {unmap.stderr.strip()[:300]}", flush=True)
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    return 0 if counts["solved"] == counts["valid"] and counts["grounded"] == counts["read"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
