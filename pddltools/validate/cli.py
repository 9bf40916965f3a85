"""`pddltools validate DOMAIN PROBLEM PLAN...` and `pddltools validate --batch LIST`.

Exit codes (`ExitCode`): 0 every plan valid, 1 a plan is invalid or not a plan for the task, 2 bad usage,
a task that does not load, or a plan file that cannot be read. `--format json` prints the envelope: the
domain, the problem and each plan in `files`, a plan's entry carrying `PlanReport.to_json`'s fields;
`--batch` prints one JSON object per line of LIST, in order: not an envelope but a plan's entry of one
(with the line's `batch_line`, `domain`, `problem`, `error`). `--trace` (one plan) adds the state
changes step by step: printed after the verdict, or as the plan entry's `trace` field in JSON.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from fractions import Fraction

from pddltools.cli_options import type_error
from pddltools.consoles import stderr_console, stdout_console, stdout_lines
from pddltools.diagnostics import Diagnostic, Error, InputError, render_rich
from pddltools.domain_finder import task_arguments
from pddltools.envelope import envelope, placed, print_json
from pddltools.exit_codes import ExitCode, status_of, worst
from pddltools.markup import escape
from pddltools.pddl.exact_numbers import NumberOutOfRange, read_number
from pddltools.reading import FilePath, read_source
from pddltools.validate.render import UNJUDGED, print_report

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from pddltools.hddl.verify import HTNTask
    from pddltools.semantics import GroundedTask
    from pddltools.validate.report import PlanReport
    from pddltools.validate.trace import Trace



def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("validate")
    p.add_argument("paths", nargs="*", metavar="PATH", help="DOMAIN PROBLEM PLAN [PLAN ...], or PROBLEM PLAN [PLAN "
                   "...] with the domain found as every command finds it (domain.pddl, domains/domain-N.pddl, ...)")
    p.add_argument("--domain", metavar="FILE", help="the domain, when the paths start with the problem")
    p.add_argument("--batch", metavar="LIST", help="a TSV file of domain<TAB>problem<TAB>plan lines "
                   "(paths relative to the current folder); prints one JSON object per line")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--epsilon", type=positive_number("epsilon"),
                   help="minimum separation of interfering events in temporal plans (default: a tenth of "
                   "the tolerance, the window within which --tolerance, as VAL's -t, makes events one happening)")
    p.add_argument("--tolerance", type=positive_number("the tolerance"), default=Fraction(1, 100),
                   help="VAL's -t (default 0.01): how far a temporal plan's duration may be from what its "
                   "duration constraint computes, and (a tenth of it) how close events must be to be one "
                   "happening")
    p.add_argument("--delta", type=positive_number("the step"), metavar="STEP",
                   help="PDDL+: approximate continuous change that is not polynomial in time by constant rates "
                   "over steps of STEP (the verdict says so); polynomial change is always exact")
    p.add_argument("--verbose", "-v", action="store_true",
                   help="every unsatisfied literal and every line of advice (long lists are folded otherwise)")
    p.add_argument("--trace", action="store_true",
                   help="show the state changes step by step (atoms added and deleted, fluent values, "
                   "derived atoms) for one plan")
    p.set_defaults(func=run_validate)


def positive_number(what: str) -> Callable[[str], Fraction]:
    def parse(text: str) -> Fraction:
        try:
            value = Fraction(read_number(text))
        except NumberOutOfRange as exc:
            raise type_error(str(exc)) from None
        except ValueError:
            raise type_error(f"{text[:40]!r} is not a number (a decimal: 0.01, 1e-3)") from None
        if value <= 0:
            raise type_error(f"{what} must be positive")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    """`python -m pddltools.validate`: the validate command alone, without loading the other commands."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pddltools.validate", description="Validate plans.")
    sub = parser.add_subparsers()
    register(sub)
    sub.choices["validate"].prog = parser.prog  # the usage names the module alone, as it is run
    return parser


def main(argv: list[str] | None = None) -> int:
    from pddltools.cli_argparse import parse_command_line

    args = parse_command_line(build_parser(), ["validate", *(sys.argv[1:] if argv is None else argv)])
    try:
        return int(args.func(args))
    except BrokenPipeError:
        return ExitCode.OK


def run_validate(args: argparse.Namespace) -> int:
    # imported here so that registering the command costs nothing for the other commands
    from pddltools.semantics import GroundedTask
    from pddltools.validate.api import validate_plan

    if args.batch:
        if args.trace:
            stderr_console().print("pddltools validate: --trace shows one plan: give DOMAIN PROBLEM PLAN, not --batch")
            return ExitCode.USAGE
        if args.paths:
            stderr_console().print("pddltools validate: give either --batch LIST or DOMAIN PROBLEM PLAN..., not both")
            return ExitCode.USAGE
        return _run_batch(args)
    found, paths = task_arguments(args.paths, args.domain)
    if found is not None and found.domain is not None:
        paths = [str(found.domain), *paths]
    elif found is not None and len(paths) >= 2:
        stderr_console().print(f"pddltools validate: {escape(paths[0])}: {escape(found.missing())}")
        return ExitCode.USAGE
    if len(paths) < 3:
        stderr_console().print("pddltools validate: needs DOMAIN PROBLEM PLAN [PLAN ...] (or --batch LIST)")
        return ExitCode.USAGE
    domain, problem, *plans = paths
    if args.trace and len(plans) != 1:
        stderr_console().print("pddltools validate: --trace shows one plan: give DOMAIN PROBLEM PLAN")
        return ExitCode.USAGE
    from pddltools import dialects

    htn = dialects.of_path(domain).hierarchical  # HTN plans: pddltools/hddl/verify.py
    if htn and args.trace:
        stderr_console().print("pddltools validate: --trace shows classical plans only, not HTN plans")
        return ExitCode.USAGE
    try:
        if htn:
            from pddltools.hddl.verify import HTNTask

            task: GroundedTask | HTNTask = HTNTask.load(domain, problem)
        else:
            task = GroundedTask.load(domain, problem)
    except Error as exc:
        if args.format == "json":
            print_json(envelope("validate", task_entries(domain, problem, exc.diagnostics),
                                plan_summary([]), task_loaded=False))
        else:
            render_rich(exc.diagnostics, stderr_console())
        return status_of(exc.diagnostics)
    trace: Trace | None = None
    pairing = _pairing(task) if isinstance(task, GroundedTask) else []
    if isinstance(task, GroundedTask):
        if args.trace:
            from pddltools.validate.trace import Trace
            trace = Trace(task)
        reports = [validate_plan(task, FilePath(plan), epsilon=args.epsilon, tolerance=args.tolerance, name=plan,
                                 recorder=trace, delta=args.delta) for plan in plans]
    else:
        from pddltools.hddl.verify import verify_plan

        reports = [verify_plan(task, plan, name=plan) for plan in plans]
    if args.format == "json":
        entries = [plan_entry(r.to_json()) for r in reports]
        if trace is not None:
            entries[0]["trace"] = trace.to_json()
        print_json(envelope("validate", [*task_entries(domain, problem, pairing), *entries],
                            plan_summary(reports), task_loaded=True))
    else:
        if pairing:
            render_rich(pairing, stderr_console())
        console = stdout_lines()  # rich only where a line needs it: a valid plan's line is plain text
        for report in reports:
            if trace is not None:
                for line in trace.lines():
                    console.print(escape(line))
            print_report(console, report, verbose=args.verbose)
    return exit_code(reports)


def _pairing(task: GroundedTask) -> list[Diagnostic]:
    """W301 when the problem's (:domain NAME) is not the domain given: validated all the same, as VAL does."""
    from pddltools.diagnostics import warning

    if task.problem.domain == task.domain.name:
        return []
    where = task.problem.domain_span  # kept by the parser
    return [warning("W301", f"the problem is for domain {task.problem.domain}, but the domain given is "
                            f"{task.domain.name}; its plans are validated against it all the same", where)]


def plan_entry(report: dict[str, Any]) -> dict[str, Any]:
    """A plan's entry in the envelope's `files`: `PlanReport.to_json`'s fields, with the plan file as
    `path`, `kind` "plan" and `ok` its validity."""
    return {"path": report["plan"], "kind": "plan", "ok": report["valid"], **report}


def task_entries(domain: str, problem: str, diagnostics: Sequence[Diagnostic]) -> list[dict[str, Any]]:
    """The domain's and the problem's entries, each with the diagnostics found in it."""
    return placed([(domain, "domain"), (problem, "problem")], diagnostics)




def plan_summary(reports: list[PlanReport]) -> dict[str, int]:
    """The counts of plans: `invalid` the plans judged not valid, `unjudged` those the validator cannot
    judge (a construct it does not support), which are neither."""
    valid = sum(1 for r in reports if r.valid)
    unjudged = sum(1 for r in reports if r.reason == UNJUDGED)
    return {"files": 2 + len(reports), "plans": len(reports), "valid": valid,
            "invalid": len(reports) - valid - unjudged, "unjudged": unjudged}


def exit_code(reports: list[PlanReport]) -> int:
    """0 every plan valid, 2 a plan that cannot be read or judged, 1 otherwise (`view` exits alike)."""
    if any(r.reason in ("unreadable", UNJUDGED) for r in reports):
        return ExitCode.USAGE
    return ExitCode.OK if all(r.valid for r in reports) else ExitCode.FINDINGS


def _run_batch(args: argparse.Namespace) -> int:
    from pddltools.validate.batch import validate_batch

    try:
        source = read_source(args.batch)
    except InputError as exc:
        if args.format == "json":
            print_json(plan_entry({**_unread(args.batch, exc), "batch_line": None}), indent=None)
        else:
            render_rich(exc.diagnostics, stderr_console())
        return ExitCode.USAGE
    status = ExitCode.OK
    console = stdout_console()
    for entry in validate_batch(source.text.splitlines(), epsilon=args.epsilon, tolerance=args.tolerance):
        if args.format == "json":
            print_json(plan_entry(entry), indent=None)
        elif entry.get("error"):
            console.print(f"line {entry['batch_line']}: [red]error[/red]: {escape(str(entry['error']))}")
        else:
            shown = "[green]valid[/green]" if entry["valid"] else f"[red]{entry['verdict']}[/red] ({entry['reason']})"
            step = f" at step {entry['failed_step']}" if entry.get("failed_step") else ""
            value = f", value {entry['value']}" if entry["valid"] else ""
            console.print(f"line {entry['batch_line']}: {escape(str(entry['plan']))}: {shown}{step}{value}")
        if entry.get("error") or entry.get("reason") in ("unreadable", UNJUDGED):
            status = ExitCode.USAGE
        elif not entry["valid"]:
            status = worst(status, ExitCode.FINDINGS)
    return status


def _unread(path: str, exc: InputError) -> dict[str, Any]:
    """The batch line for a LIST that cannot be read: a plan entry's fields, `error` saying why."""
    from pddltools.validate.report import PlanReport

    report = PlanReport(plan=path, valid=False, verdict="error", reason="unreadable",
                        message="; ".join(d.message for d in exc.diagnostics), diagnostics=exc.diagnostics)
    return {**report.to_json(), "domain": None, "problem": None, "error": report.message}


__all__ = ["build_parser", "exit_code", "main", "plan_entry", "plan_summary", "positive_number", "register",
           "run_validate", "task_entries"]
