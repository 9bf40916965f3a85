"""Relaxed reachability over every domain/problem pair of the shared corpus: no false finding.

For each pair: whether the goal is relaxed-reachable, how many atoms and ground actions are reached, and
how long it took. Then, for every task with a valid plan (`../shared/plans` and `corpus/plans`), the
goal must be reachable and every step of the plan must be among the reached ground actions: a step
outside would be an action the analysis wrongly rules out.

    python benchmarks/reach_walk.py --out /tmp/reach.jsonl        # the whole corpus (CPU heavy)
    python benchmarks/reach_walk.py --sample 40                     # every 40th pair
    python benchmarks/reach_walk.py --check                         # `check`'s own findings on the solved tasks

`--check` runs `pddltools check` on every task with a valid plan (and on those listed by `--solved`, e.g.
the tasks Fast Downward's search solved from the grounder's output) and counts as false a finding that a
goal is unreachable (W401, W405) or that an action the plan takes can never be applied (I406).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO / "benchmarks"))

from parse import CORPUS, pairs_under  # noqa: E402

from pddltools.analysis.fixpoint import TooLarge  # noqa: E402
from pddltools.analysis.reach import Reachability  # noqa: E402
from pddltools.check.reachability import BUDGET  # noqa: E402
from pddltools.diagnostics import Error  # noqa: E402
from pddltools.pddl.parser import parse_domain_file, parse_problem_file  # noqa: E402
from pddltools.semantics.errors import SemanticsError  # noqa: E402


def solved() -> dict[tuple[str, str], list[Path]]:
    """The tasks with a plan VAL (or the corpus manifest) says is valid, and those plans."""
    found: dict[tuple[str, str], list[Path]] = {}
    with (SHARED / "plans" / "manifest.tsv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["val_verdict"] == "valid":
                key = (str((SHARED / row["domain_path"]).resolve()), str((SHARED / row["problem_path"]).resolve()))
                found.setdefault(key, []).append(SHARED / row["plan_file"])
    base = REPO / "corpus" / "plans"
    with (base / "manifest.tsv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if row["verdict"] == "valid":
                key = (str((base / row["domain"]).resolve()), str((base / row["problem"]).resolve()))
                found.setdefault(key, []).append(base / row["plan"])
    return found


def steps(plan: Path) -> list[tuple[str, ...]]:
    out = []
    for line in plan.read_text(encoding="utf-8", errors="replace").splitlines():
        line = line.split(";", 1)[0].strip()
        if "(" in line and ")" in line:
            inner = line[line.index("(") + 1 : line.index(")")].lower().split()
            if inner:
                out.append(tuple(inner))
    return out


def walk(pairs: list[tuple[Path, Path]], out: Path | None, budget: int | None = BUDGET) -> int:
    """Explore each pair (within `budget` facts, as `check` does; a larger task is recorded as such) and
    count the false findings. An existing `out` is continued: the pairs it has are skipped."""
    plans = solved()
    false = 0
    done = set()
    if out is not None and out.exists():
        done = {(r["domain"], r["problem"]) for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())}
    sink = out.open("a", encoding="utf-8") if out else None
    for domain_path, problem_path in pairs:
        if (str(domain_path), str(problem_path)) in done:
            continue
        record: dict[str, object] = {"domain": str(domain_path), "problem": str(problem_path)}
        start = time.perf_counter()
        try:
            reach = Reachability(parse_domain_file(domain_path), parse_problem_file(problem_path), budget=budget)
        except (Error, SemanticsError, RecursionError) as exc:
            record["error"] = str(exc)[:200]
        except TooLarge:
            record["too_large"] = True
        else:
            actions = set(reach.actions)
            record.update(goal=reach.goal_reachable, atoms=len(reach.atoms), actions=len(actions))
            for plan in plans.get((str(domain_path.resolve()), str(problem_path.resolve())), []):
                missing = [s for s in steps(plan) if s not in actions]
                if not reach.goal_reachable or missing:
                    false += 1
                    record.setdefault("false", []).append({"plan": str(plan), "missing": missing[:3]})  # type: ignore[union-attr]
                record["plans"] = int(record.get("plans", 0)) + 1  # type: ignore[call-overload]
        record["seconds"] = round(time.perf_counter() - start, 4)
        line = json.dumps(record)
        if sink:
            sink.write(line + "\n")
            sink.flush()
        if "false" in record or "error" in record:
            print(line, flush=True)
    print(f"{len(pairs)} pairs, {false} false findings", flush=True)
    return 1 if false else 0


#: The findings that would say a solved task is not: a goal unreachable, an action of the plan dead.
GOAL_CODES = ("W401", "W405")


def check_walk(tasks: dict[tuple[str, str], list[Path]]) -> int:
    """`check` on each task: the false findings (W401/W405 at all; I406 for an action a plan takes)."""
    from pddltools.check.report import check_files

    false = 0
    for (domain, problem), plans in sorted(tasks.items()):
        report = check_files(domain, [problem])
        taken = {s[0] for plan in plans for s in steps(plan)}
        for f in report.findings:
            dead = f.code == "I406" and any(f" {name} can never" in f.message.lower() for name in taken)
            if f.code in GOAL_CODES or dead:
                false += 1
                print(json.dumps({"domain": domain, "problem": problem, "code": f.code, "message": f.message[:300]}),
                      flush=True)
    print(f"{len(tasks)} solved tasks checked, {false} false findings", flush=True)
    return 1 if false else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--sample", type=int, default=1, help="every Nth pair")
    parser.add_argument("--check", action="store_true", help="run `check` on the solved tasks instead")
    parser.add_argument("--solved", type=Path, help="more solved tasks: lines DOMAIN<TAB>PROBLEM<TAB>PLAN")
    args = parser.parse_args()
    if args.check:
        tasks = solved()
        if args.solved:
            for line in args.solved.read_text(encoding="utf-8").splitlines():
                domain, problem, plan = line.split("\t")
                tasks.setdefault((str(Path(domain).resolve()), str(Path(problem).resolve())), []).append(Path(plan))
        return check_walk(dict(sorted(tasks.items())[:: args.sample]))
    pairs = [(p.domain, p.problem) for p in pairs_under(CORPUS)][:: args.sample]
    seen = {(str(d.resolve()), str(p.resolve())) for d, p in pairs}
    pairs += [(Path(d), Path(p)) for d, p in solved() if (d, p) not in seen][:: args.sample]
    return walk(pairs, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
