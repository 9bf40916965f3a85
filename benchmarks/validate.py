"""The plan validator's speed: pddltools against unified-planning's sequential plan validator on the
plans of ../shared/plans, a 10,000-step plan on a large task, and `--batch` over the plan set.

    python benchmarks/validate.py [--skip-up] [--json]

Three measurements, in one run:
1. every plan of ../shared/plans (manifest.tsv and manifest_extra.tsv) validated in one process by
   pddltools and by unified-planning (`SequentialPlanValidator`), each task parsed once by each tool:
   parse and validation times separately, and the ratio (target: pddltools at least 10x faster);
2. a 10,000-step plan on a generated gripper task with 2,500 balls (5,007 atoms): validation time
   after parsing (target: under 1 s);
3. `pddltools validate --batch` (and the lean `python -m pddltools.validate --batch`, which loads no
   other command) over the plan set as a subprocess, start-up included, wall and CPU time (target:
   under 1.3 s, VAL run once per plan on these tasks).
Nothing here fails on a number; it prints them.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from pddltools.pddl.parser import parse_text
from pddltools.validate import Task, validate_plan

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PLANS = SHARED / "plans"
GRIPPER = SHARED / "corpus" / "pddl" / "ipc-1998" / "gripper-round-1-strips" / "domain.pddl"


def rows() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for name in ("manifest.tsv", "manifest_extra.tsv"):
        with (PLANS / name).open(newline="") as handle:
            out.extend(csv.DictReader(handle, delimiter="\t"))
    return out


def run_pddltools(plan_rows: list[dict[str, str]]) -> dict[str, Any]:
    tasks: dict[tuple[str, str], Task] = {}
    parse = validate = 0.0
    verdicts: dict[str, str] = {}
    times: dict[str, float] = {}
    for row in plan_rows:
        key = (row["domain_path"], row["problem_path"])
        start = time.perf_counter()
        if key not in tasks:
            tasks[key] = Task.load(SHARED / key[0], SHARED / key[1])
        middle = time.perf_counter()
        report = validate_plan(tasks[key], SHARED / row["plan_file"])
        end = time.perf_counter()
        parse += middle - start
        validate += end - middle
        verdicts[row["id"]] = report.verdict
        times[row["id"]] = end - middle
    return {"plans": len(plan_rows), "tasks": len(tasks), "parse_s": parse, "validate_s": validate,
            "verdicts": verdicts, "times": times}


def run_up(plan_rows: list[dict[str, str]]) -> dict[str, Any]:
    """unified-planning: PDDLReader for tasks and plans, SequentialPlanValidator for the verdict."""
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import get_environment

    get_environment().credits_stream = None
    reader = PDDLReader()
    validator = SequentialPlanValidator()
    tasks: dict[tuple[str, str], Any] = {}
    parse = validate = 0.0
    verdicts: dict[str, str] = {}
    unparsed: set[tuple[str, str]] = set()
    for row in plan_rows:
        key = (row["domain_path"], row["problem_path"])
        start = time.perf_counter()
        if key not in tasks and key not in unparsed:
            try:
                with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                    tasks[key] = reader.parse_problem(str(SHARED / key[0]), str(SHARED / key[1]))
            except Exception:  # a reference tool's failure is a data point, not a crash of the benchmark
                unparsed.add(key)
        middle = time.perf_counter()
        parse += middle - start
        if key in unparsed:
            verdicts[row["id"]] = "task-unreadable"
            continue
        try:
            plan = reader.parse_plan(tasks[key], str(SHARED / row["plan_file"]))
            result = validator.validate(tasks[key], plan)
            verdicts[row["id"]] = "valid" if result.status.name == "VALID" else "invalid"
        except Exception:
            verdicts[row["id"]] = "error"
        validate += time.perf_counter() - middle
    return {"plans": len(plan_rows), "tasks": len(tasks), "tasks_unreadable": len(unparsed), "parse_s": parse,
            "validate_s": validate, "verdicts": verdicts}


def long_plan(balls: int = 2500) -> dict[str, Any]:
    names = [f"b{i}" for i in range(balls)]
    problem = ("(define (problem big) (:domain gripper-strips) (:objects rooma roomb left right "
               + " ".join(names) + ")\n(:init (room rooma) (room roomb) (gripper left) (gripper right) "
               "(at-robby rooma) (free left) (free right)\n"
               + "\n".join(f"(ball {b}) (at {b} rooma)" for b in names)
               + ")\n(:goal (and " + " ".join(f"(at {b} roomb)" for b in names) + ")))")
    plan = "".join(f"(pick {b} rooma left)\n(move rooma roomb)\n(drop {b} roomb left)\n(move roomb rooma)\n"
                   for b in names)
    start = time.perf_counter()
    task = Task(parse_text(GRIPPER.read_text(), str(GRIPPER), kind="domain"), parse_text(problem, kind="problem"))
    parsed = time.perf_counter()
    report = validate_plan(task, plan)
    end = time.perf_counter()
    return {"steps": report.length, "atoms": len(task.initial_state().atoms), "valid": report.valid,
            "parse_s": parsed - start, "validate_s": end - parsed}


def batch(plan_rows: list[dict[str, str]], command: list[str]) -> dict[str, Any]:
    """One `--batch` run as a subprocess: wall time, and CPU time (user + system), which is what a
    busy machine does not inflate."""
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
        for row in plan_rows:
            handle.write(f"{row['domain_path']}\t{row['problem_path']}\t{row['plan_file']}\n")
        listing = handle.name
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, *command, "--batch", listing, "--format", "json"],
                          cwd=SHARED, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    Path(listing).unlink()
    entries = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"plans": len(entries), "exit": done.returncode, "wall_s": elapsed, "cpu_s": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--skip-up", action="store_true", help="leave unified-planning out (it is slow)")
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    args = parser.parse_args()
    plan_rows = rows()
    results: dict[str, Any] = {"pddltools": run_pddltools(plan_rows)}
    if not args.skip_up:
        results["unified_planning"] = run_up(plan_rows)
    results["long_plan"] = long_plan()
    results["batch"] = batch(plan_rows, ["-m", "pddltools.cli", "validate"])
    results["batch_lean"] = batch(plan_rows, ["-m", "pddltools.validate"])
    if args.json:
        for side in ("pddltools", "unified_planning"):
            results.get(side, {}).pop("verdicts", None)
            results.get(side, {}).pop("times", None)
        print(json.dumps(results, indent=2))
        return
    ours = results["pddltools"]
    print(f"plans: {ours['plans']} plans, {ours['tasks']} tasks")
    print(f"  pddltools          parse {ours['parse_s']:7.2f} s   validate {ours['validate_s']:6.3f} s "
          f"({1000 * ours['validate_s'] / ours['plans']:.2f} ms a plan)")
    up = results.get("unified_planning")
    if up:
        print(f"  unified-planning   parse {up['parse_s']:7.2f} s   validate {up['validate_s']:6.3f} s "
              f"({up['tasks_unreadable']} tasks it cannot read)")
        judged = [k for k, v in up["verdicts"].items() if v != "task-unreadable"]
        ours_on_judged = sum(ours["times"][k] for k in judged)
        differ = [k for k in judged if (ours["verdicts"][k] == "valid") != (up["verdicts"][k] == "valid")]
        print(f"  on the {len(judged)} plans of tasks both read: pddltools validates in {ours_on_judged:.3f} s, "
              f"unified-planning in {up['validate_s']:.3f} s: ratio {up['validate_s'] / ours_on_judged:.1f}x")
        total_up = up["parse_s"] + up["validate_s"]
        total_ours = ours["parse_s"] + ours["validate_s"]
        print(f"  parse + validation, all plans: ratio {total_up / total_ours:.1f}x")
        listed = ", ".join(f"{k} (up: {up['verdicts'][k]}, pddltools: {ours['verdicts'][k]})" for k in differ)
        print(f"  valid-or-not disagreements: {len(differ)} {listed}")
    lp = results["long_plan"]
    print(f"long plan: {lp['steps']} steps, {lp['atoms']} atoms, valid={lp['valid']}: validation "
          f"{lp['validate_s']:.3f} s after {lp['parse_s']:.2f} s parsing (target < 1 s)")
    for key, label in (("batch", "pddltools validate --batch"), ("batch_lean", "python -m pddltools.validate --batch")):
        b = results[key]
        print(f"{label}: {b['plans']} plans, start-up included: {b['wall_s']:.2f} s wall, {b['cpu_s']:.2f} s CPU, "
              f"exit {b['exit']} (target < 1.3 s)")


if __name__ == "__main__":
    main()
