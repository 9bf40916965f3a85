"""`pddltools validate DOMAIN.hddl PROBLEM.hddl PLAN...`: HTN plans through the validate command's output.

The validate command hands over here when the domain is an HDDL file; the verdicts are `PlanReport`s,
so the text, the JSON envelope and the exit codes are the classical plans' own.
"""

from __future__ import annotations

import argparse

from pddltools.consoles import stderr_console, stdout_console
from pddltools.diagnostics import Error, render_rich
from pddltools.envelope import envelope, print_json
from pddltools.exit_codes import ExitCode
from pddltools.hddl.verify import HTNTask, verify_plan
from pddltools.validate.cli import _exit_code, plan_entry, plan_summary, print_report, task_entries


def run_htn(args: argparse.Namespace, domain: str, problem: str, plans: list[str]) -> int:
    if args.trace:
        stderr_console().print("pddltools validate: --trace shows classical plans only, not HTN plans")
        return ExitCode.USAGE
    try:
        htn = HTNTask.load(domain, problem)
    except Error as exc:
        if args.format == "json":
            print_json(envelope("validate", task_entries(domain, problem, exc.diagnostics), plan_summary([]),
                                task_loaded=False))
        else:
            render_rich(exc.diagnostics, stderr_console())
        return ExitCode.USAGE
    reports = [verify_plan(htn, plan, name=plan) for plan in plans]
    if args.format == "json":
        entries = [*task_entries(domain, problem, ()), *(plan_entry(r.to_json()) for r in reports)]
        print_json(envelope("validate", entries, plan_summary(reports), task_loaded=True))
    else:
        console = stdout_console()
        for report in reports:
            print_report(console, report)
    return _exit_code(reports)


__all__ = ["run_htn"]
