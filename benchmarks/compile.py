"""The compiler on the IPC ADL and derived-predicate domains, against the organisers' STRIPS twins and
unified-planning's compilers.

    python benchmarks/compile.py [--instances N] [--timeout S] [--only TEXT] [--skip-up] [--skip-planner]
                                 [--skip-twins] [--json]

Three measurements, in one run:
1. every ADL / derived-predicate domain of ../shared/corpus/pddl, its N smallest instances (default 1),
   compiled to `typed-strips` and to `strips`: compile time, actions, output bytes, then pyperplan
   (greedy best-first with h_FF) within the timeout (default 60 s), the plan unmapped and validated on the
   original by `pddltools.validate`;
2. the IPC-2008 openstacks `-adl` instances compiled to `strips`, against the organisers' `-strips`
   versions of the same instances: ground actions (pyperplan's grounding), bytes;
3. the same tasks through unified-planning's quantifiers, conditional-effects, disjunctive-conditions and
   negative-conditions removers (in that order) against `--remove` of the same four features here:
   compile time (parsed tasks in, printed PDDL out; without the per-pass sizes of the CLI's report),
   ground actions of the output (pyperplan's grounding), bytes, side by side.
Nothing here fails on a number; it prints the tables (targets: never larger than unified-planning's
output, at least 5x faster).
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import re
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from pddltools.compile.pipeline import compile_task, removals
from pddltools.compile.planmap import PlanMap, format_plan, unmap
from pddltools.compile.task import ParsedTask
from pddltools.diagnostics import Error
from pddltools.pddl.parser import parse_domain_file, parse_problem_file
from pddltools.validate import GroundedTask, validate_plan

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pddl"

#: The ADL and derived-predicate domains of the corpus (sequential, no numbers, no time).
ADL = [
    "ipc-1998/assembly-round-1-adl", "ipc-1998/gripper-round-1-adl", "ipc-1998/logistics-round-1-adl",
    "ipc-1998/movie-round-1-adl", "ipc-1998/mystery-prime-round-1-adl",
    "ipc-2000/elevator-adl-full-typed", "ipc-2000/elevator-adl-simple-typed", "ipc-2000/schedule-adl-typed",
    "ipc-2000/schedule-adl-untyped", "ipc-2004/airport-nontemporal-adl", "ipc-2004/promela-dining-philosophers-adl",
    "ipc-2004/promela-dining-philosophers-derived-predicates-adl", "ipc-2004/promela-optical-telegraph-adl",
    "ipc-2004/promela-optical-telegraph-derived-predicates-adl", "ipc-2004/psr-middle-compiled-adl",
    "ipc-2004/psr-middle-derived-predicates-adl", "ipc-2004/psr-middle-derived-predicates-simple-adl",
    "ipc-2004/psr-large-derived-predicates-adl", "ipc-2006/openstacks-propositional",
    "ipc-2006/pathways-propositional", "ipc-2006/trucks-propositional", "ipc-2006/storage-propositional",
    "ipc-2006/tpp-propositional", "ipc-2006/rovers-propositional", "ipc-2006/pipesworld-propositional",
    "ipc-2008/openstacks-sequential-satisficing-adl", "ipc-2008/openstacks-sequential-optimal-adl",
]
TWINS = [("ipc-2008/openstacks-sequential-satisficing-adl", "ipc-2008/openstacks-sequential-satisficing-strips"),
         ("ipc-2008/openstacks-sequential-optimal-adl", "ipc-2008/openstacks-sequential-optimal-strips")]
UP_REMOVES = ["existential-preconditions", "universal-preconditions", "universal-effects", "conditional-effects",
              "disjunctive-preconditions", "negative-preconditions"]


class Timeout(Exception):
    pass


def _alarm(seconds: float) -> None:
    def fire(*_: object) -> None:
        raise Timeout
    signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _natural(path: Path) -> list[object]:
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", path.name)]


def instances(folder: Path, n: int) -> list[tuple[Path, Path]]:
    out = []
    for problem in sorted((folder / "instances").glob("*.pddl"), key=_natural)[:n]:
        domain = folder / "domain.pddl"
        if not domain.exists():
            domain = folder / "domains" / ("domain-" + problem.name.split("-", 1)[1])
        out.append((domain, problem))
    return out


def ground_actions(domain: Path, problem: Path, timeout: float) -> int | None:
    """Ground actions by pyperplan's grounding (relevance-pruned), in a subprocess: None on failure."""
    code = ("import sys, logging; logging.disable(logging.CRITICAL)\n"
            "from pyperplan.pddl.parser import Parser\nfrom pyperplan.grounding import ground\n"
            "p = Parser(sys.argv[1], sys.argv[2]); d = p.parse_domain(); t = ground(p.parse_problem(d))\n"
            "print(len(t.operators))")
    try:
        run = subprocess.run([sys.executable, "-c", code, str(domain), str(problem)], capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return int(run.stdout.strip()) if run.returncode == 0 and run.stdout.strip().isdigit() else None


def solve(outdir: Path, timeout: float) -> tuple[str | None, float]:
    started = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-m", "pyperplan", "-H", "hff", "-s", "gbf", "domain.pddl", "problem.pddl"],
                       cwd=outdir, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - started
    solution = outdir / "problem.pddl.soln"
    return (solution.read_text() if solution.exists() else None), time.perf_counter() - started


def adl_rows(n: int, timeout: float, planner: bool) -> list[dict[str, Any]]:
    rows = []
    for name in ADL:
        for domain_path, problem_path in instances(CORPUS / name, n):
            original = ParsedTask(parse_domain_file(domain_path), parse_problem_file(problem_path))
            for target in ("typed-strips", "strips"):
                row: dict[str, Any] = {"domain": name, "instance": problem_path.name, "target": target}
                started = time.perf_counter()
                try:
                    _alarm(timeout)
                    result = compile_task(original, removals(target), strict=True)
                    text_domain, text_problem = str(result.task.domain), str(result.task.problem)
                except Timeout:
                    row["outcome"] = "compile timeout"
                    rows.append(row)
                    continue
                except Error as exc:
                    row["outcome"] = exc.diagnostics[0].code + " " + exc.diagnostics[0].message[:80]
                    rows.append(row)
                    continue
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                row["compile_s"] = round(time.perf_counter() - started, 3)
                row["actions"] = len(result.task.domain.actions)
                row["bytes"] = len(text_domain) + len(text_problem)
                row["problem_specific"] = result.problem_specific
                if planner:
                    with tempfile.TemporaryDirectory() as tmp:
                        out = Path(tmp)
                        (out / "domain.pddl").write_text(text_domain)
                        (out / "problem.pddl").write_text(text_problem)
                        plan, seconds = solve(out, timeout)
                    row["plan_s"] = round(seconds, 1)
                    if plan is None:
                        row["outcome"] = "not solved"
                    else:
                        steps = unmap(PlanMap(result.origins, {}), plan)
                        report = validate_plan(GroundedTask(original.domain, original.problem), format_plan(steps))
                        row["plan_length"] = len(steps)
                        row["outcome"] = "valid" if report.valid else "INVALID"
                rows.append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def twin_rows(n: int, timeout: float) -> list[dict[str, Any]]:
    rows = []
    for adl, strips in TWINS:
        for (domain_path, problem_path), (twin_domain, twin_problem) in zip(
                instances(CORPUS / adl, n), instances(CORPUS / strips, n), strict=False):
            result = compile_task(ParsedTask(parse_domain_file(domain_path), parse_problem_file(problem_path)),
                                  removals("strips"), strict=True)
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp)
                (out / "domain.pddl").write_text(str(result.task.domain))
                (out / "problem.pddl").write_text(str(result.task.problem))
                ours = ground_actions(out / "domain.pddl", out / "problem.pddl", timeout)
                ours_bytes = sum(len((out / f).read_text()) for f in ("domain.pddl", "problem.pddl"))
                # pyperplan reads no costs: the twin's are dropped (by the costs pass alone) to count it.
                twin = compile_task(ParsedTask(parse_domain_file(twin_domain), parse_problem_file(twin_problem)),
                                    removals(None, ["action-costs"]))
                (out / "twin-domain.pddl").write_text(str(twin.task.domain))
                (out / "twin-problem.pddl").write_text(str(twin.task.problem))
                twin_ground = ground_actions(out / "twin-domain.pddl", out / "twin-problem.pddl", timeout)
            rows.append({"domain": adl, "instance": problem_path.name, "ground_actions": ours, "bytes": ours_bytes,
                         "twin_ground_actions": twin_ground,
                         "twin_bytes": len(twin_domain.read_text()) + len(twin_problem.read_text())})
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return rows


def up_rows(n: int, timeout: float) -> list[dict[str, Any]]:
    from unified_planning.engines.compilers import (
        ConditionalEffectsRemover,
        DisjunctiveConditionsRemover,
        NegativeConditionsRemover,
        QuantifiersRemover,
    )
    from unified_planning.engines.mixins.compiler import CompilationKind
    from unified_planning.io import PDDLReader, PDDLWriter
    from unified_planning.shortcuts import get_environment

    get_environment().credits_stream = None
    kinds = [(QuantifiersRemover, CompilationKind.QUANTIFIERS_REMOVING),
             (ConditionalEffectsRemover, CompilationKind.CONDITIONAL_EFFECTS_REMOVING),
             (DisjunctiveConditionsRemover, CompilationKind.DISJUNCTIVE_CONDITIONS_REMOVING),
             (NegativeConditionsRemover, CompilationKind.NEGATIVE_CONDITIONS_REMOVING)]
    rows = []
    for name in ADL:
        for domain_path, problem_path in instances(CORPUS / name, n):
            row: dict[str, Any] = {"domain": name, "instance": problem_path.name}
            original = ParsedTask(parse_domain_file(domain_path), parse_problem_file(problem_path))
            try:
                _alarm(timeout)
                started = time.perf_counter()
                ours = compile_task(original, removals(None, UP_REMOVES), measure=False)
                ours_text = (str(ours.task.domain), str(ours.task.problem))
                row["ours_s"] = round(time.perf_counter() - started, 4)
            except (Timeout, Error) as exc:
                row["ours"] = "timeout" if isinstance(exc, Timeout) else exc.diagnostics[0].code
                ours_text = None
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            up_text = None
            try:
                with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                    problem = PDDLReader().parse_problem(str(domain_path), str(problem_path))
                _alarm(timeout)
                started = time.perf_counter()
                for compiler, kind in kinds:
                    if compiler().supports(problem.kind):
                        problem = compiler().compile(problem, kind).problem
                writer = PDDLWriter(problem)
                up_text = (writer.get_domain(), writer.get_problem())
                row["up_s"] = round(time.perf_counter() - started, 4)
            except Timeout:
                row["up"] = "timeout"
            except Exception as exc:  # unified-planning refuses what it cannot read or compile
                row["up"] = type(exc).__name__
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            for label, text in (("ours", ours_text), ("up", up_text)):
                if text is None:
                    continue
                row[f"{label}_bytes"] = len(text[0]) + len(text[1])
                with tempfile.TemporaryDirectory() as tmp:
                    out = Path(tmp)
                    (out / "domain.pddl").write_text(text[0])
                    (out / "problem.pddl").write_text(text[1])
                    row[f"{label}_ground"] = ground_actions(out / "domain.pddl", out / "problem.pddl", timeout)
            if "ours_s" in row and "up_s" in row:
                row["speedup"] = round(row["up_s"] / max(row["ours_s"], 1e-6), 1)
            rows.append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    return rows


def table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    widths = [max([len(c), *(len(str(r.get(c, ""))) for r in rows)]) for c in columns]
    lines = ["  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))]
    lines += ["  ".join(str(r.get(c, "")).ljust(w) for c, w in zip(columns, widths, strict=True)) for r in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--skip-up", action="store_true")
    parser.add_argument("--skip-planner", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--only", metavar="TEXT", help="only the domains whose folder contains TEXT")
    parser.add_argument("--skip-twins", action="store_true")
    args = parser.parse_args()
    if args.only:
        ADL[:] = [name for name in ADL if args.only in name]
    logging.disable(logging.CRITICAL)
    adl = adl_rows(args.instances, args.timeout, not args.skip_planner)
    twins = [] if args.skip_twins else twin_rows(args.instances, args.timeout)
    up = [] if args.skip_up else up_rows(args.instances, args.timeout)
    if args.json:
        print(json.dumps({"adl": adl, "twins": twins, "up": up}, indent=1))
        return
    print("1. ADL and derived-predicate domains, compiled and solved by pyperplan\n")
    print(table(adl, ["domain", "instance", "target", "compile_s", "actions", "bytes", "problem_specific",
                      "plan_s", "plan_length", "outcome"]))
    print("\n2. IPC-2008 openstacks: compiled -adl against the organisers' -strips\n")
    print(table(twins, ["domain", "instance", "ground_actions", "twin_ground_actions", "bytes", "twin_bytes"]))
    if up:
        print("\n3. against unified-planning's removers (quantifiers, conditional effects, disjunctions, "
              "negations)\n")
        print(table(up, ["domain", "instance", "ours_s", "up_s", "speedup", "ours_ground", "up_ground",
                         "ours_bytes", "up_bytes", "ours", "up"]))


if __name__ == "__main__":
    main()
