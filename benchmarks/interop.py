#!/usr/bin/env python3
"""Time to a tarski or Unified Planning problem: through pddltools (parse + to_tarski / to_up) against
the framework's own PDDL reader, on the same pairs in the same run.

Only pairs the reference reader accepts and pddltools converts are timed (the same pairs the tests in
tests/interop compare). By default the CI subset of those tests (instance-1 of every domain folder);
`--all` takes every pair. Everything runs in this process, one pair after the other, with the global
interpreter's tarski and unified-planning (benchmarks/requirements.txt pins the versions measured).

    python benchmarks/interop.py                 # both frameworks, CI subset
    python benchmarks/interop.py --target up --all --json /tmp/interop.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))


def _tarski_reader(domain: Path, problem: Path) -> Any:
    from tarski.io import PDDLReader

    reader = PDDLReader(raise_on_error=True)
    reader.parse_domain(str(domain))
    return reader.parse_instance(str(problem))


def _up_reader(domain: Path, problem: Path) -> Any:
    from unified_planning.io import PDDLReader

    return PDDLReader().parse_problem(str(domain), str(problem))


def _through(convert: Callable[[Any, Any], Any]) -> Callable[[Path, Path], Any]:
    from pddltools.pddl.parser import parse_domain_file, parse_problem_file

    return lambda domain, problem: convert(parse_domain_file(domain), parse_problem_file(problem))


def _timed(run: Callable[[Path, Path], Any], domain: Path, problem: Path) -> float | None:
    start = time.perf_counter()
    try:
        run(domain, problem)
    except Exception:  # a pair one side does not take is left out of the comparison
        return None
    return time.perf_counter() - start


def measure(target: str, pairs: list[tuple[Path, Path]]) -> dict[str, Any]:
    from pddltools.interop.tarski import to_tarski
    from pddltools.interop.unified_planning import to_up

    reader, ours = (_tarski_reader, _through(to_tarski)) if target == "tarski" else (_up_reader, _through(to_up))
    rows = []
    for domain, problem in pairs:
        theirs = _timed(reader, domain, problem)
        if theirs is None:
            continue
        mine = _timed(ours, domain, problem)
        if mine is not None:
            rows.append({"problem": str(problem), "reader_s": theirs, "pddltools_s": mine})
    total_reader = sum(r["reader_s"] for r in rows)
    total_ours = sum(r["pddltools_s"] for r in rows)
    return {"target": target, "pairs": len(rows), "reader_s": total_reader, "pddltools_s": total_ours,
            "ratio": total_reader / total_ours if total_ours else None, "rows": rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", choices=("tarski", "up", "both"), default="both")
    parser.add_argument("--all", action="store_true", help="every pair, not the CI subset")
    parser.add_argument("--json", type=Path, help="write the report, with every pair's times, here")
    args = parser.parse_args()
    import os

    if args.all:
        os.environ["PDDLTOOLS_INTEROP_FULL"] = "1"
    from interop.corpus import pairs, sequential

    warnings.simplefilter("ignore")
    found = pairs()
    reports = []
    for target in ("tarski", "up") if args.target == "both" else (args.target,):
        chosen = [(d, p) for d, p in found if target == "up" or sequential(d)]
        report = measure(target, chosen)
        reports.append(report)
        print(f"{target:7} {report['pairs']:5} pairs  reader {report['reader_s']:8.1f} s  "
              f"pddltools {report['pddltools_s']:8.1f} s  ratio {report['ratio'] or 0:5.1f}x")
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
