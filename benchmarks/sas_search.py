#!/usr/bin/env python3
"""Fast Downward's search on `pddltools ground --to sas` output: does it read the file, find a plan, and
does `pddltools unmap` turn that plan into one `pddltools validate` accepts on the original task?

For each selected corpus pair the grounder accepts: ground to SAS, run the search of `up-fast-downward`
(in the project's environment) with a time limit, unmap its plan (which validates it on the original
task). One line per pair, and the counts at the end.

    python benchmarks/sas_search.py --sample 20
    python benchmarks/sas_search.py --glob 'ipc-2011/*' --search 'astar(lmcut())'
    python benchmarks/sas_search.py --pairs /tmp/ground.jsonl --val /path/to/Validate --solved /tmp/solved.tsv

`--pairs` takes the pairs from a `ground.py --jsonl` file (those the translator accepted); `--val` also
runs VAL's `Validate` on each unmapped plan against the original task; `--solved` lists the solved tasks
with their unmapped plans (for `reach_walk.py --check --solved`).
"""

from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import json
import re
import resource
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
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


def val_misreads(output: str, domain: Path) -> bool:
    """Whether VAL says an action of the domain is not defined: it did not read that action (the IPC-1998
    movie STRIPS domain's actions without a precondition: "No matching action defined for reset-counter")."""
    missing = re.search(r"No matching action defined for (\S+)", output)
    text = domain.read_text(encoding="utf-8", errors="replace").lower()
    return missing is not None and re.search(rf"\(:action\s+{re.escape(missing.group(1).lower())}\s", text) is not None


def cpu_limit(seconds: float) -> Callable[[], None]:
    """The search's CPU time is limited, not its wall-clock time: other work shares the machine."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds), int(seconds) + 5))
    return limit


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--glob", action="append")
    parser.add_argument("--sample", type=int, default=1)
    parser.add_argument("--search", default="lazy_greedy([ff()], preferred=[ff()])")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--pairs", type=Path, help="the pairs of a ground.py --jsonl file the translator accepted")
    parser.add_argument("--val", type=Path, help="VAL's Validate, to check each unmapped plan too")
    parser.add_argument("--solved", type=Path, help="append DOMAIN<TAB>PROBLEM<TAB>PLAN for each valid plan here")
    parser.add_argument("--plans", type=Path, default=Path(tempfile.gettempdir()) / "sas_search_plans")
    args = parser.parse_args()
    binary = downward()
    if args.pairs:
        records = [json.loads(line) for line in args.pairs.read_text(encoding="utf-8").splitlines()]
        pairs = [(Path(r["domain"]), Path(r["problem"])) for r in records if "error" not in r["fd"]][:: args.sample]
    else:
        pairs = [(p.domain, p.problem) for p in pairs_under(CORPUS)
                 if not args.glob or any(fnmatch.fnmatch(p.folder, g) for g in args.glob)][:: args.sample]
    args.plans.mkdir(parents=True, exist_ok=True)
    counts = {"grounded": 0, "read": 0, "solved": 0, "valid": 0, "VAL valid": 0, "VAL cannot read the task": 0,
              "unsolvable": 0}
    for domain, problem in pairs:
        name = problem.relative_to(CORPUS)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "g"
            ground = subprocess.run([sys.executable, "-m", "pddltools", "ground", str(domain), str(problem), "-o",
                                     str(out), "--to", "sas"], capture_output=True, text=True, check=False)
            if ground.returncode != 0:
                if args.pairs:  # a pair the translator accepted: the grounder should too
                    print(f"{name}: the grounder refused it: {ground.stderr.strip()[-300:]}", flush=True)
                continue  # outside what the grounder reads (temporal, numeric ...)
            counts["grounded"] += 1
            try:
                search = subprocess.run([str(binary), "--search", args.search], stdin=(out / "output.sas").open(),
                                        cwd=tmp, capture_output=True, text=True, timeout=10 * args.timeout, check=False,
                                        preexec_fn=cpu_limit(args.timeout))
            except subprocess.TimeoutExpired:
                print(f"{name}: search timed out after {args.timeout:.0f} s", flush=True)
                counts["read"] += 1
                continue
            if search.returncode in (-signal.SIGXCPU, -signal.SIGKILL, 23, 24):  # CPU limit, or FD's own time-out
                print(f"{name}: search timed out after {args.timeout:.0f} s of CPU time", flush=True)
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
                plan = args.plans / (str(name).replace("/", "__") + ".plan")
                plan.write_text(unmap.stdout, encoding="utf-8")
                verdict = ""
                if args.val:
                    val = subprocess.run([str(args.val), "-v", str(domain), str(problem), str(plan)],
                                         capture_output=True,
                                         text=True, check=False)
                    ok = "Plan valid" in val.stdout
                    counts["VAL valid"] += ok
                    if ok:
                        verdict = "; VAL: valid"
                    elif "Problem in domain definition" in val.stdout + val.stderr \
                            or val_misreads(val.stdout + val.stderr, domain):
                        counts["VAL cannot read the task"] += 1
                        verdict = "; VAL cannot read the task (its parser rejects the domain, or drops an action of it)"
                    else:
                        verdict = f"; VAL: NOT valid {(val.stdout + val.stderr)[-300:]!r}"
                if args.solved:
                    with args.solved.open("a", encoding="utf-8") as sink:
                        sink.write(f"{domain}\t{problem}\t{plan}\n")
                print(f"{name}: plan found, valid on the original task{verdict}", flush=True)
            else:
                print(f"{name}: plan found, NOT valid on the original: {unmap.stderr.strip()[:300]}", flush=True)
    print(", ".join(f"{v} {k}" for k, v in counts.items()))
    return 0 if counts["solved"] == counts["valid"] and counts["grounded"] == counts["read"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
