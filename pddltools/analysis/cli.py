"""`pddltools ground DOMAIN PROBLEM -o OUTDIR [--to strips|sas]`: the grounded, simplified task; and
`pddltools test SUITE.toml`: a domain's test suite (`pddltools.analysis.suite`).

`--to strips` (the default) writes OUTDIR/domain.pddl and OUTDIR/problem.pddl without parameters, for
planners that read only that; `--to sas` writes OUTDIR/output.sas in Fast Downward's format. Either way
OUTDIR/plan-map.json lets `pddltools unmap OUTDIR PLAN` turn the grounded task's plan into the original's
(and check it there).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from rich.markup import escape

from pddltools.consoles import stderr_console, stdout_console
from pddltools.diagnostics import Error, render_rich
from pddltools.envelope import envelope, placed, print_json
from pddltools.exit_codes import ExitCode

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

FORMATS = ("strips", "sas")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "ground",
        description="Ground DOMAIN and PROBLEM by relaxed reachability and write the simplified ground task "
                    "(OUTDIR/domain.pddl and problem.pddl, or OUTDIR/output.sas) with OUTDIR/plan-map.json, "
                    "which `pddltools unmap OUTDIR PLAN` reads.")
    p.add_argument("domain", metavar="DOMAIN")
    p.add_argument("problem", metavar="PROBLEM")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", type=Path)
    p.add_argument("--to", choices=FORMATS, default="strips", help="strips: PDDL without parameters; sas: "
                   "Fast Downward's translator output (variables from mutex groups)")
    p.add_argument("--mutex-groups", choices=("all", "translator"), default="all",
                   help="all: every mutex group the invariant synthesis proves on the ground operators; "
                        "translator: only those of the shape Fast Downward's translator looks for (one counted "
                        "argument per predicate), so that the variables are the translator's")
    p.add_argument("--force", action="store_true", help="overwrite the files of a non-empty OUTDIR")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run_ground)

    t = subparsers.add_parser(
        "test",
        description="Run the expectations of a domain test suite (TOML, see `pddltools explain E861`): exit "
                    "0 when every test passes, 1 when one fails, 2 when the suite cannot be read.")
    t.add_argument("suite", metavar="SUITE", type=Path, help="the suite file (.toml)")
    t.add_argument("--format", choices=("text", "json", "github"), default="text")
    t.set_defaults(func=run_test)


def run_ground(args: argparse.Namespace) -> int:
    from pddltools.analysis.grounder import ground
    from pddltools.analysis.invariants import mutex_groups
    from pddltools.compile.errors import CompileError, compile_error
    from pddltools.pddl.parser import parse_domain_file, parse_problem_file

    inputs: list[tuple[str, str | None]] = [(str(args.domain), "domain"), (str(args.problem), "problem")]
    start = time.perf_counter()
    try:
        domain = parse_domain_file(args.domain)
        problem = parse_problem_file(args.problem)
        outdir: Path = args.output
        if outdir.exists() and any(outdir.iterdir()) and not args.force:
            raise compile_error("E804", f"{outdir} is not empty (use --force to overwrite its files)")
        task = ground(domain, problem)
        task.mutexes = mutex_groups(task, 1 if args.mutex_groups == "translator" else None)
        files = _write(task, args, outdir)
    except CompileError as exc:
        code = ExitCode.USAGE if any(d.code in ("E804",) for d in exc.diagnostics) else ExitCode.FINDINGS
        return _fail(exc, args.format, code, inputs)
    except Error as exc:
        return _fail(exc, args.format, ExitCode.USAGE, inputs)
    except OSError as exc:
        return _fail(compile_error("E804", f"cannot write to {args.output}: {exc}"), args.format, ExitCode.USAGE,
                     inputs)
    seconds = time.perf_counter() - start
    summary: dict[str, Any] = {
        "outdir": str(args.output), "to": args.to, "files_written": files,
        "plan_map": str(args.output / "plan-map.json"),
        "atoms": len(task.atoms), "operators": len(task.operators), "axioms": len(task.axioms),
        "mutex_groups": len(task.mutexes),
        "solvable": task.goal is not None, "seconds": round(seconds, 6)}
    if args.format == "json":
        print_json(envelope("ground", placed(inputs, ()), {"files": len(inputs), "operators": len(task.operators),
                                                              "atoms": len(task.atoms)}, **summary), indent=1)
    else:
        out = stdout_console()
        unsolvable = "" if task.goal is not None else "; the goal is unreachable: the task written is unsolvable"
        axioms = f"{len(task.axioms)} axioms, " if task.axioms else ""
        out.print(f"{len(task.atoms)} reachable atoms, {len(task.operators)} operators, {axioms}"
                  f"{len(task.mutexes)} mutex groups{unsolvable}", markup=False)
        out.print(f"wrote {', '.join(files)} and {summary['plan_map']} in {seconds:.3f} s", markup=False)
    return ExitCode.OK


def _write(task: Any, args: argparse.Namespace, outdir: Path) -> list[str]:
    from pddltools.analysis import sas
    from pddltools.compile import strips
    from pddltools.compile.planmap import FORMAT

    outdir.mkdir(parents=True, exist_ok=True)
    original = {"domain": str(Path(args.domain).resolve()), "problem": str(Path(args.problem).resolve())}
    if args.to == "sas":
        (outdir / "output.sas").write_text(sas.write(task), encoding="utf-8")
        # operators are named "ACTION ARG ...": the search's plan names the original actions already
        actions = {s.name: {"action": s.name, "args": list(range(len(s.parameters)))} for s in task.domain.actions}
        written = [str(outdir / "output.sas")]
    else:
        result = strips.to_pddl(task)
        (outdir / "domain.pddl").write_text(str(result.task.domain) + "\n", encoding="utf-8")
        (outdir / "problem.pddl").write_text(str(result.task.problem) + "\n", encoding="utf-8")
        actions = {name: {"action": o.action, "args": [{"constant": a} for a in o.args]}
                   for name, o in sorted(result.origins.items())}
        written = [str(outdir / "domain.pddl"), str(outdir / "problem.pddl")]
    plan_map = {"format": FORMAT, "original": original, "target": f"grounded-{args.to}", "removed": [],
                "problem_specific": True, "actions": actions, "costs": {}, "passes": []}
    (outdir / "plan-map.json").write_text(json.dumps(plan_map, indent=1) + "\n", encoding="utf-8")
    return written


def run_test(args: argparse.Namespace) -> int:
    from pddltools.analysis.suite import Suite
    from pddltools.progress import progress_bar

    inputs: list[tuple[str, str | None]] = [(str(args.suite), "suite")]
    try:
        suite = Suite.load(args.suite)
    except Error as exc:
        if args.format == "github":
            from pddltools.diagnostics import render_github

            print(render_github(exc.diagnostics))
            return ExitCode.USAGE
        return _fail(exc, "json" if args.format == "json" else "text", ExitCode.USAGE, inputs, command="test")
    out = stdout_console()
    with progress_bar(stderr_console()) as progress:
        bar = progress.add_task("testing", total=len(suite.tests))
        outcomes = []
        for outcome in suite.run():
            outcomes.append(outcome)
            progress.advance(bar)
            if args.format == "text":
                mark = "[green]PASS[/]" if outcome.ok else "[red]FAIL[/]"
                out.print(f"{mark} {escape(outcome.name)}  [dim]({escape(str(args.suite))}:{outcome.line})[/]")
                render_rich(outcome.diagnostics(), out)
    failed = sum(1 for o in outcomes if not o.ok)
    diagnostics = [d for o in outcomes for d in o.diagnostics()]
    if args.format == "json":
        print_json(envelope("test", placed(inputs, diagnostics), {"files": 1, "tests": len(outcomes),
                                                                   "passed": len(outcomes) - failed,
                                                                   "failed": failed},
                            tests=[o.to_json() for o in outcomes]), indent=1)
    elif args.format == "github":
        from pddltools.diagnostics import render_github

        if diagnostics:
            print(render_github(diagnostics))
    else:
        out.print(f"{len(outcomes) - failed} passed, {failed} failed")
    return ExitCode.FINDINGS if failed else ExitCode.OK


def _fail(exc: Error, fmt: str, code: int, inputs: list[tuple[str, str | None]], command: str = "ground") -> int:
    if fmt == "json":
        print_json(envelope(command, placed(inputs, exc.diagnostics), {"files": len(inputs)}))
    else:
        render_rich(exc.diagnostics, stderr_console())
    return code
