"""The plan validator's speed, beside VAL in the same run.

    python benchmarks/validate.py --val /path/to/Validate [--up] [--pddlplus] [--json]

Measurements (without `--val`, or when that file is missing, VAL's rows are left out):
1. plan set: `pddltools validate --batch` over every plan of ../shared/plans (manifest.tsv and
   manifest_extra.tsv) as one subprocess, start-up included, against VAL run once per plan (`Validate
   -v DOMAIN PROBLEM PLAN`, the way a competition runs it): wall and CPU time, and their ratio (target:
   pddltools <= 1.0x VAL's whole run); with the valid-or-not verdicts compared on manifest.tsv.
2. derived predicates: one plan for instance 1 of every derived-predicate task of ../shared/corpus/pddl
   (found by a seeded greedy walk on pddltools' own semantics, at most 60 steps, so the plans are the
   same every run), each validated by pddltools in this process (parse, then validation) and by VAL
   as a process: time per plan (target: at most VAL's), and the verdicts side by side;
3. a 10,000-step plan on a generated gripper task with 50,000 balls (100,007 ground atoms): validation
   time after parsing, wall and CPU (target: under 1 s);
4. start-up: `pddltools --version` and `python -m pddltools.validate` on one plan (best of 3);
5. with `--up`: every plan of the plan set in one process by pddltools and by unified-planning's
   `SequentialPlanValidator` (from benchmarks/.venv), each task parsed once;
6. PDDL+ (alone with `--pddlplus`): every plan of corpus/plans/pddl+ that VAL judges exactly
   (manifest.tsv), and generated tank plans of 100, 1,000, 5,000 and 20,000 happenings (the valve opened at
   every whole time and closed 11/N later, so the filling process starts and stops N/2 times and the
   level ends at 11: valid, every happening validated), each validated by pddltools in this process
   (parse included, best of 3) and by VAL as one process per plan (best of 3): time per plan (target:
   at most VAL's), verdicts side by side. VAL reads no plan of 10,000 steps or more ("Bad plan
   description!": its parser's stack of 10,000), so the 20,000-happening row is pddltools' alone.
7. continuous (alone with `--continuous`): every plan of corpus/plans/continuous (continuous effects of
   durative actions, PDDL+ with durative actions and timed literals, exponential change) and generated
   battery plans of 1,000 and 5,000 happenings (a charger, `(increase (soc) (* #t 4))`, and a consumer,
   `(decrease (soc) (* #t 3))`, alternating, with `over all` bounds on the charge watched over every
   stretch: valid), each by pddltools in this process (parse included, best of 3) and by VAL as one
   process per plan (best of 3), as in 6.
Nothing here fails on a number; it prints them.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from decimal import Decimal
from pathlib import Path
from typing import Any

from pddltools.pddl import ast
from pddltools.pddl.parser import parse_text
from pddltools.validate import GroundedTask, validate_plan

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
PDDLPLUS = ROOT / "corpus" / "plans" / "pddl+"
CONTINUOUS = ROOT / "corpus" / "plans" / "continuous"
PLANS = SHARED / "plans"
CORPUS = SHARED / "corpus" / "pddl"
GRIPPER = CORPUS / "ipc-1998" / "gripper-round-1-strips" / "domain.pddl"


def rows() -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    for name in ("manifest.tsv", "manifest_extra.tsv"):
        with (PLANS / name).open(newline="") as handle:
            out.extend(dict(row, manifest=name) for row in csv.DictReader(handle, delimiter="\t"))
    return out


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_val(val: Path, domain: Path, problem: Path, plan: Path) -> tuple[str, float, float]:
    """VAL's verdict on one plan (valid / invalid / error / crash), wall and CPU seconds."""
    cpu = _children_cpu()
    start = time.perf_counter()
    try:
        done = subprocess.run([str(val), "-v", str(domain), str(problem), str(plan)], capture_output=True,
                              text=True, errors="replace", timeout=300, check=False)
    except subprocess.TimeoutExpired:
        return "timeout", time.perf_counter() - start, _children_cpu() - cpu
    elapsed = time.perf_counter() - start
    out = done.stdout
    if done.returncode < 0:
        verdict = "crash"
    elif "Problem in domain definition" in out:
        verdict = "domain-unread"  # e.g. a type named `number`: see ../shared/plans/README.md, patched/
    elif "Plan valid" in out:
        verdict = "valid"
    elif "Bad plan description" in out or "Bad operator" in out or "Errors:" in out:
        verdict = "error"
    else:
        verdict = "invalid"
    return verdict, elapsed, _children_cpu() - cpu


def plan_set(plan_rows: list[dict[str, str]], val: Path | None) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as handle:
        for row in plan_rows:
            handle.write(f"{row['domain_path']}\t{row['problem_path']}\t{row['plan_file']}\n")
        listing = handle.name
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pddltools.cli", "validate", "--batch", listing, "--format", "json"],
                          cwd=SHARED, capture_output=True, text=True, check=False)
    ours = {"wall_s": time.perf_counter() - start, "cpu_s": _children_cpu() - cpu, "exit": done.returncode}
    Path(listing).unlink()
    entries = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    ours["plans"] = len(entries)
    out: dict[str, Any] = {"plans": len(plan_rows), "pddltools": ours}
    if val is None:
        return out
    wall = cpu_total = 0.0
    disagree = []
    for row, entry in zip(plan_rows, entries, strict=True):
        verdict, elapsed, cpu_used = run_val(val, SHARED / row["domain_path"], SHARED / row["problem_path"],
                                             SHARED / row["plan_file"])
        wall += elapsed
        cpu_total += cpu_used
        if row["manifest"] == "manifest.tsv" and (verdict == "valid") != bool(entry["valid"]):
            disagree.append(f"{row['id']} (VAL {verdict}, pddltools {entry['verdict']})")
    out["val"] = {"wall_s": wall, "cpu_s": cpu_total}
    out["ratio_wall"] = ours["wall_s"] / wall
    out["ratio_cpu"] = ours["cpu_s"] / cpu_total
    out["disagreements"] = disagree
    return out


def derived_tasks() -> list[tuple[str, Path, Path]]:
    """Instance 1 (with domain 1 where each instance has its own) of every folder of the corpus whose
    domain has `:derived` rules; the copy in ../shared/plans/patched where there is one (VAL cannot
    read the original)."""
    out = []
    for original in sorted(p for p in CORPUS.glob("*/*") if p.is_dir()):
        patched = PLANS / "patched" / original.relative_to(CORPUS)
        folder = patched if patched.is_dir() else original
        domain = folder / "domain.pddl"
        if not domain.is_file():
            domain = folder / "domains" / "domain-1.pddl"
        problem = folder / "instances" / "instance-1.pddl"
        if domain.is_file() and problem.is_file() and ":derived" in domain.read_text(errors="replace").lower():
            out.append((f"{folder.parent.name}/{folder.name}" + (" (patched)" if folder is patched else ""),
                        domain, problem))
    return out


def walk(task: GroundedTask, limit: int = 60, seed: int = 1) -> list[str]:
    """A plan by greedy goal counting from the initial state (ties and dead ends broken by a seeded
    random choice): the step whose successor satisfies most goal conjuncts among unvisited states."""
    goal = task.problem.goal
    parts = goal.parts if isinstance(goal, ast.And) else (() if goal is None else (goal,))
    rng = random.Random(seed)
    state = task.initial_state()
    seen = {frozenset(state.atoms)}
    steps: list[str] = []
    while len(steps) < limit and not task.goal_holds(state):
        # in a fixed order: the order atoms are matched in follows string hashing, which varies by run
        options = [(action, task.apply(action, state))
                   for action in sorted(task.applicable_actions(state), key=str)]
        if not options:
            break
        fresh = [(a, s) for a, s in options if frozenset(s.atoms) not in seen]
        scored = [(sum(task.evaluator.holds(g, {}, s) for g in parts), a, s) for a, s in fresh]
        top = max((score for score, _, _ in scored), default=None)
        pool = [(a, s) for score, a, s in scored if score == top] if top is not None else options
        action, state = rng.choice(pool)
        seen.add(frozenset(state.atoms))
        steps.append(str(action))
    return steps


def derived(val: Path | None) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="pddltools-derived-") as folder:
        return [_derived_row(name, domain, problem, Path(folder), val) for name, domain, problem in derived_tasks()]


def _derived_row(name: str, domain: Path, problem: Path, folder: Path, val: Path | None) -> dict[str, Any]:
    """One derived-predicate task: its plan found and written to `folder`, then validated by both tools."""
    row: dict[str, Any] = {"task": name}
    try:
        steps = walk(GroundedTask.load(domain, problem))
    except Exception as exc:  # a task pddltools cannot load or walk is a row, not the end of the run
        row["error"] = f"{type(exc).__name__}: {exc}"
        return row
    plan = folder / (name.split(" ")[0].replace("/", "_") + ".plan")
    plan.write_text("".join(f"{s}\n" for s in steps))
    start, cpu = time.perf_counter(), time.process_time()
    task = GroundedTask.load(domain, problem)
    parsed, parsed_cpu = time.perf_counter(), time.process_time()
    report = validate_plan(task, plan)
    validated, validated_cpu = time.perf_counter(), time.process_time()
    validate_plan(task, plan)  # once more: what each further plan of the task costs (nothing left to ground)
    row.update(steps=len(steps), verdict=report.verdict, parse_s=parsed - start, parse_cpu_s=parsed_cpu - cpu,
               validate_s=validated - parsed, validate_cpu_s=validated_cpu - parsed_cpu,
               again_s=time.perf_counter() - validated, again_cpu_s=time.process_time() - validated_cpu)
    if val is not None:
        row["val_verdict"], row["val_s"], row["val_cpu_s"] = run_val(val, domain, problem, plan)
    return row


def pddlplus(val: Path | None) -> list[dict[str, Any]]:
    """PDDL+ plans: the corpus's (those VAL judges exactly: not the ones it cannot read or loops on, not
    the exponential `cooling`) and long generated ones."""
    with (PDDLPLUS / "manifest.tsv").open(newline="") as handle:
        listed = [row for row in csv.DictReader(handle, delimiter="\t")
                  if row["val_verdict"] in ("valid", "invalid") and not row["id"].startswith("cooling/")]
    cases = [(row["id"], ROOT / row["domain"], ROOT / row["problem"], PDDLPLUS / row["plan"]) for row in listed]
    with tempfile.TemporaryDirectory(prefix="pddltools-pddlplus-") as folder:
        for happenings in (100, 1_000, 5_000, 20_000):
            long = Path(folder) / f"tank-{happenings}.plan"
            long.write_text(tank_plan(happenings))
            cases.append((f"tank, {happenings:,} happenings", PDDLPLUS / "tank/domain.pddl",
                          PDDLPLUS / "tank/problem.pddl", long))
        _pddlplus_row(*cases[0], None)  # warm-up: the first validation in a process pays for lazy imports
        return [_pddlplus_row(*case, val) for case in cases]


def continuous(val: Path | None) -> list[dict[str, Any]]:
    """Continuous change of durative actions and mixed PDDL+: the oracle set and long battery plans."""
    with (CONTINUOUS / "manifest.tsv").open(newline="") as handle:
        listed = list(csv.DictReader(handle, delimiter="\t"))
    cases = [(row["id"], CONTINUOUS / row["domain"], CONTINUOUS / row["problem"], CONTINUOUS / row["plan"])
             for row in listed]
    with tempfile.TemporaryDirectory(prefix="pddltools-continuous-") as folder:
        problem = Path(folder) / "battery-problem.pddl"
        problem.write_text(BATTERY_PROBLEM)
        for happenings in (1_000, 5_000):
            long = Path(folder) / f"battery-{happenings}.plan"
            long.write_text(battery_plan(happenings))
            cases.append((f"battery, {happenings:,} happenings", CONTINUOUS / "battery/domain.pddl", problem, long))
        _pddlplus_row(*cases[0], None)  # warm-up, as for PDDL+
        return [_pddlplus_row(*case, val) for case in cases]


BATTERY_PROBLEM = """(define (problem battery-long) (:domain battery)
  (:objects heater drill - consumer)
  (:init (= (soc) 5) (= (capacity) 20) (= (charge-rate) 4) (= (use-rate heater) 3) (= (use-rate drill) 3))
  (:goal (and (done heater) (>= (soc) 5)))
  (:metric minimize (total-time)))"""


def battery_plan(happenings: int) -> str:
    """Every 10 time units: charge for 3 (5 -> 17), then run the heater for 4 (17 -> 5): four happenings
    a cycle, the charge between 5 and 17 throughout, so the plan is valid and every stretch is solved."""
    return "".join(f"{10 * i}: (charge) [3]\n{10 * i + 5}: (run heater) [4]\n" for i in range(happenings // 4))


def tank_plan(happenings: int) -> str:
    """The valve opened at every whole time and closed 11/happenings later, happenings/2 times: the tank
    (filled at rate 2, capacity 12) ends at level 11, so the plan is valid and every happening counts.
    The close times are exact decimals (happenings is 2^a 5^b), as a planner writes them."""
    open_for = Decimal(11) / Decimal(happenings)
    return "".join(f"{i}: (open_valve)\n{i + open_for}: (close_valve)\n" for i in range(happenings // 2))


def _pddlplus_row(name: str, domain: Path, problem: Path, plan: Path, val: Path | None,
                  runs: int = 3) -> dict[str, Any]:
    """Best of `runs`: the machine may be shared, and the least time is the one least disturbed."""
    row: dict[str, Any] = {"task": name, "s": float("inf"), "cpu_s": float("inf")}
    for _ in range(runs):
        start, cpu = time.perf_counter(), time.process_time()
        report = validate_plan(GroundedTask.load(domain, problem), plan)
        row["s"] = min(row["s"], time.perf_counter() - start)
        row["cpu_s"] = min(row["cpu_s"], time.process_time() - cpu)
    row["verdict"], row["value"] = report.verdict, None if report.value is None else float(report.value)
    if val is not None:
        row["val_s"] = row["val_cpu_s"] = float("inf")
        for _ in range(runs):
            verdict, wall, cpu_s = run_val(val, domain, problem, plan)
            row["val_verdict"], row["val_s"], row["val_cpu_s"] = verdict, min(row["val_s"], wall), min(
                row["val_cpu_s"], cpu_s)
    return row


def long_plan(balls: int = 50_000, moved: int = 2_500) -> dict[str, Any]:
    names = [f"b{i}" for i in range(balls)]
    problem = ("(define (problem big) (:domain gripper-strips) (:objects rooma roomb left right "
               + " ".join(names) + ")\n(:init (room rooma) (room roomb) (gripper left) (gripper right) "
               "(at-robby rooma) (free left) (free right)\n"
               + "\n".join(f"(ball {b}) (at {b} rooma)" for b in names)
               + ")\n(:goal (and " + " ".join(f"(at {b} roomb)" for b in names[:moved]) + ")))")
    plan = "".join(f"(pick {b} rooma left)\n(move rooma roomb)\n(drop {b} roomb left)\n(move roomb rooma)\n"
                   for b in names[:moved])
    start = time.perf_counter()
    task = GroundedTask(parse_text(GRIPPER.read_text(), str(GRIPPER), kind="domain"),
                        parse_text(problem, kind="problem"))
    parsed = time.perf_counter()
    cpu = time.process_time()
    report = validate_plan(task, plan)
    end = time.perf_counter()
    return {"steps": report.length, "atoms": len(task.initial_state().atoms), "valid": report.valid,
            "parse_s": parsed - start, "validate_s": end - parsed, "validate_cpu_s": time.process_time() - cpu}


def start_up() -> dict[str, float]:
    adl = Path(__file__).resolve().parents[1] / "corpus" / "plans" / "adl"
    commands = {
        "version": [sys.executable, "-m", "pddltools.cli", "--version"],
        "validate_one": [sys.executable, "-m", "pddltools.validate", str(adl / "domain.pddl"),
                         str(adl / "problem.pddl"), str(adl / "valid.plan")],
    }
    out = {}
    for key, command in commands.items():
        best = best_cpu = float("inf")
        for _ in range(3):
            cpu = _children_cpu()
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, check=False)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, _children_cpu() - cpu)
        out[f"{key}_s"], out[f"{key}_cpu_s"] = best, best_cpu
    return out


def run_up(plan_rows: list[dict[str, str]]) -> dict[str, Any]:
    """unified-planning beside pddltools, in one process each: PDDLReader for tasks and plans,
    SequentialPlanValidator for the verdict."""
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import get_environment

    get_environment().credits_stream = None
    reader = PDDLReader()
    validator = SequentialPlanValidator()
    ours: dict[tuple[str, str], GroundedTask] = {}
    theirs: dict[tuple[str, str], Any] = {}
    ours_s = up_s = 0.0
    for row in plan_rows:
        key = (row["domain_path"], row["problem_path"])
        start = time.perf_counter()
        if key not in ours:
            ours[key] = GroundedTask.load(SHARED / key[0], SHARED / key[1])
        validate_plan(ours[key], SHARED / row["plan_file"])
        middle = time.perf_counter()
        try:
            if key not in theirs:
                with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                    theirs[key] = reader.parse_problem(str(SHARED / key[0]), str(SHARED / key[1]))
            validator.validate(theirs[key], reader.parse_plan(theirs[key], str(SHARED / row["plan_file"])))
        except Exception:  # a reference tool's failure is a data point, not a crash of the benchmark
            pass
        ours_s += middle - start
        up_s += time.perf_counter() - middle
    return {"pddltools_s": ours_s, "unified_planning_s": up_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--val", type=Path, help="VAL's Validate binary (its rows are left out without it)")
    parser.add_argument("--up", action="store_true", help="also unified-planning's validator (slow)")
    parser.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    parser.add_argument("--pddlplus", action="store_true", help="only the PDDL+ rows (a few seconds)")
    parser.add_argument("--continuous", action="store_true", help="only the continuous-change rows")
    args = parser.parse_args()
    val = args.val if args.val is not None and os.access(args.val, os.X_OK) else None
    if args.val is not None and val is None:
        print(f"VAL not found at {args.val}: its rows are left out", file=sys.stderr)
    if args.continuous:
        found = continuous(val)
        if args.json:
            print(json.dumps({"continuous": found}, indent=2))
        else:
            report_pddlplus(found, "Continuous change")
        return
    if args.pddlplus:
        plus = pddlplus(val)
        if args.json:
            print(json.dumps({"pddlplus": plus}, indent=2))
        else:
            report_pddlplus(plus)
        return
    plan_rows = rows()
    results: dict[str, Any] = {"plan_set": plan_set(plan_rows, val), "derived": derived(val),
                               "long_plan": long_plan(), "start_up": start_up(), "pddlplus": pddlplus(val),
                               "continuous": continuous(val)}
    if args.up:
        results["unified_planning"] = run_up(plan_rows)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    report(results)


def report(results: dict[str, Any]) -> None:
    ps = results["plan_set"]
    ours = ps["pddltools"]
    print(f"plan set: {ps['plans']} plans, start-up included")
    print(f"  pddltools validate --batch   {ours['wall_s']:6.2f} s wall {ours['cpu_s']:6.2f} s CPU "
          f"({ours['plans']} entries, exit {ours['exit']})")
    if "val" in ps:
        print(f"  VAL, once per plan           {ps['val']['wall_s']:6.2f} s wall {ps['val']['cpu_s']:6.2f} s CPU")
        print(f"  ratio pddltools / VAL: {ps['ratio_wall']:.2f}x wall, {ps['ratio_cpu']:.2f}x CPU (target <= 1.0x)")
        print(f"  valid-or-not disagreements on manifest.tsv: {len(ps['disagreements'])} "
              + ", ".join(ps["disagreements"]))
    print("derived-predicate tasks, one plan each, ms of CPU (wall): pddltools in process, parse, validate the\n"
          "first plan (grounding the rules included), validate a further plan; VAL as a process")
    for row in results["derived"]:
        if "error" in row:
            print(f"  {row['task']:60s} {row['error']}")
            continue

        def ms(key: str, row: dict[str, Any] = row) -> str:
            return f"{row[key + '_cpu_s'] * 1000:6.1f} ({row[key + '_s'] * 1000:6.1f})"
        theirs = f"VAL {ms('val')} {row['val_verdict']}" if "val_s" in row else ""
        print(f"  {row['task'].split('/')[-1]:52s} {row['steps']:3d} steps: parse {ms('parse')}, "
              f"first {ms('validate')}, further {ms('again')} {row['verdict']}   {theirs}")
    lp = results["long_plan"]
    print(f"long plan: {lp['steps']} steps, {lp['atoms']} atoms, valid={lp['valid']}: validation "
          f"{lp['validate_s']:.3f} s wall, {lp['validate_cpu_s']:.3f} s CPU after {lp['parse_s']:.2f} s parsing "
          "(target < 1 s)")
    su = results["start_up"]
    print(f"start-up: pddltools --version {su['version_s']:.3f} s wall {su['version_cpu_s']:.3f} s CPU; "
          f"python -m pddltools.validate on one plan {su['validate_one_s']:.3f} s wall "
          f"{su['validate_one_cpu_s']:.3f} s CPU (best of 3)")
    report_pddlplus(results["pddlplus"])
    report_pddlplus(results["continuous"], "Continuous change")
    up = results.get("unified_planning")
    if up:
        print(f"unified-planning, the plan set in one process: pddltools {up['pddltools_s']:.2f} s, "
              f"unified-planning {up['unified_planning_s']:.2f} s")


def _judged(row: dict[str, Any]) -> bool:
    return row.get("val_verdict") in ("valid", "invalid")


def report_pddlplus(plus: list[dict[str, Any]], title: str = "PDDL+") -> None:
    print(f"{title} plans, ms of CPU (wall), best of 3: pddltools in process, parse included; VAL as a process")
    for row in plus:
        theirs = (f"VAL {row['val_cpu_s'] * 1000:7.1f} ({row['val_s'] * 1000:7.1f}) {row['val_verdict']}"
                  if "val_s" in row else "")
        ratio = f"  {row['cpu_s'] / row['val_cpu_s']:.2f}x VAL's CPU" if _judged(row) else ""
        print(f"  {row['task']:32s} pddltools {row['cpu_s'] * 1000:7.1f} ({row['s'] * 1000:7.1f}) {row['verdict']:8s} "
              f"{theirs}{ratio}")
    if plus and "val_s" in plus[0]:
        # over the plans VAL judges: it cannot read one of 10,000 steps or more (its parser's stack)
        judged = [r for r in plus if _judged(r)]
        ours_total, val_total = sum(r["s"] for r in judged), sum(r["val_s"] for r in judged)
        print(f"  total: pddltools {ours_total:.3f} s, VAL {val_total:.3f} s wall (target: at most VAL's); "
              f"verdicts that differ: {sum(1 for r in judged if r['verdict'] != r['val_verdict'])}, "
              f"plans VAL cannot read: {len(plus) - len(judged)}")


if __name__ == "__main__":
    main()
