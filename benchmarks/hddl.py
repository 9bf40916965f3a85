"""HDDL: parse time over the IPC-2020 HTN set against Unified Planning's HDDL reader, and HTN plan
verification time against pandaPIparser's verifier when it is built (`--panda PATH`).

    python benchmarks/hddl.py                                  # parse: pddltools, then UP
    python benchmarks/hddl.py --panda /tmp/panda/pandaPIparser # and verification against pandaPIparser
    python benchmarks/hddl.py --glob 'total-order/*' --json /tmp/hddl.json

Parsing: every domain-problem pair under ../shared/corpus/hddl/ipc-2020/{total,partial}-order (the
folder's domain.hddl with each problem, or `X-domain.hddl` with `X.hddl`), each tool in a child
process of its own (pddltools with this interpreter, UP with `--up-python`, default benchmarks/.venv's),
timing the parse of both files, the fastest of `--repeat` runs. Verification: the plans of
corpus/hddl/plans/manifest.tsv, pddltools in process (loading the task counted apart from verifying),
pandaPIparser as a process per plan (its time includes parsing the domain and problem, so the
comparison is against pddltools' load + verify).
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "hddl" / "ipc-2020"
MANIFEST = ROOT / "corpus" / "hddl" / "plans" / "manifest.tsv"

# The child reads the pairs as JSON on stdin and prints {pair index: seconds or an error} as JSON;
# SETUP and PARSE are the tool's (its import, and the parse of one domain `d` and problem `p`).
_CHILD = """
import json, sys, time
SETUP
pairs, repeat = json.load(sys.stdin)
out = {}
for i, (d, p) in enumerate(pairs):
    best = None
    try:
        for _ in range(repeat):
            t = time.perf_counter(); PARSE
            best = min(best or 1e9, time.perf_counter() - t)
        out[i] = best
    except Exception as exc:
        out[i] = f"{type(exc).__name__}: {str(exc)[:200]}"
print(json.dumps(out))
"""
_PDDLTOOLS_CHILD = _CHILD.replace("SETUP", "from pddltools.hddl.parser import parse_file").replace(
    "PARSE", 'parse_file(d, "domain"); parse_file(p, "problem")')
_UP_CHILD = _CHILD.replace("SETUP", "from unified_planning.io import PDDLReader\n"
                           "from unified_planning.shortcuts import get_environment\n"
                           "get_environment().error_used_name = False").replace(
    "PARSE", "PDDLReader().parse_problem(d, p)")


def pairs(globs: list[str]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for folder in sorted(p for order in ("total-order", "partial-order") for p in (CORPUS / order).glob("*")):
        name = f"{folder.parent.name}/{folder.name}"
        if globs and not any(fnmatch.fnmatch(name, g) for g in globs):
            continue
        for problem in sorted(folder.glob("*.hddl")):
            if "domain" in problem.name:
                continue
            own = folder / f"{problem.stem}-domain.hddl"
            domain = own if own.is_file() else folder / "domain.hddl"
            if domain.is_file():
                found.append((str(domain), str(problem)))
    return found


def run_child(python: str, code: str, work: list[tuple[str, str]], repeat: int) -> dict[str, float | str]:
    env = {"PYTHONPATH": str(ROOT)}
    done = subprocess.run([python, "-c", code], input=json.dumps([work, repeat]), capture_output=True, text=True,
                          env={**__import__("os").environ, **env}, check=False)
    if done.returncode != 0:
        sys.exit(f"{python}: {done.stderr.strip()[-400:]}")
    result: dict[str, float | str] = json.loads(done.stdout)
    return result


def summary(name: str, result: dict[str, float | str], work: list[tuple[str, str]]) -> dict[str, object]:
    times = [v for v in result.values() if isinstance(v, float)]
    failed = {work[int(k)][1]: v for k, v in result.items() if not isinstance(v, float)}
    row = {"tool": name, "pairs": len(times), "failed": len(failed), "seconds": round(sum(times), 3),
           "failures": failed}
    print(f"{name:10} {len(times):4} pairs parsed in {sum(times):8.3f} s  ({len(failed)} failed)")
    return row


def verification(panda: str | None) -> list[dict[str, object]]:
    from pddltools.hddl.verify import HTNTask, verify_plan

    with MANIFEST.open(encoding="utf-8", newline="") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if (ROOT / r["domain"]).is_file()]
    load = verify = panda_seconds = 0.0
    tasks: dict[tuple[str, str], HTNTask] = {}
    for row in rows:
        key = (row["domain"], row["problem"])
        start = time.perf_counter()
        if key not in tasks:
            tasks[key] = HTNTask.load(ROOT / row["domain"], ROOT / row["problem"])
        middle = time.perf_counter()
        verify_plan(tasks[key], ROOT / "corpus" / "hddl" / "plans" / row["plan"])
        end = time.perf_counter()
        load, verify = load + middle - start, verify + end - middle
        if panda:
            start = time.perf_counter()
            subprocess.run([panda, "-C", "-l", "--verify", str(ROOT / row["domain"]), str(ROOT / row["problem"]),
                            str(ROOT / "corpus" / "hddl" / "plans" / row["plan"])], capture_output=True, check=False)
            panda_seconds += time.perf_counter() - start
    print(f"verify     {len(rows):4} plans ({len(tasks)} tasks): pddltools load {load:.3f} s + verify {verify:.3f} s"
          + (f"; pandaPIparser {panda_seconds:.3f} s (a process per plan, parsing included)" if panda else ""))
    return [{"tool": "pddltools", "plans": len(rows), "tasks": len(tasks), "load": round(load, 3),
             "verify": round(verify, 3)}] + ([{"tool": "pandaPIparser", "plans": len(rows),
                                                "seconds": round(panda_seconds, 3)}] if panda else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--glob", action="append", default=[], help="order/Domain patterns, e.g. 'total-order/*'")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--up-python", default=str(ROOT / "benchmarks" / ".venv" / "bin" / "python"),
                        help="the interpreter with unified-planning (default benchmarks/.venv's)")
    parser.add_argument("--panda", metavar="PATH", help="pandaPIparser, to time its verifier on the same plans")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args()
    work = pairs(args.glob)
    if not work:
        sys.exit(f"no HDDL pairs under {CORPUS}")
    print(f"{len(work)} IPC-2020 domain-problem pairs")
    up_python = args.up_python if Path(args.up_python).is_file() else sys.executable
    report = {"parse": [summary("pddltools", run_child(sys.executable, _PDDLTOOLS_CHILD, work, args.repeat), work),
                        summary("up", run_child(up_python, _UP_CHILD, work, args.repeat), work)],
              "verify": verification(args.panda)}
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
