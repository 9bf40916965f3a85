"""`pddltools view DOMAIN PROBLEM PLAN -o plan.html [--force]`.

`--format json` prints validate's envelope (the plan's entry in `files`) with the page written as
`output`. Exit codes as `validate`'s: 0 the plan is valid, 1 it is not (the page is written either way), 2 bad
usage, a task that does not load, an unreadable plan, or an output file that exists (kept unless
`--force`: nothing the user has is replaced without asking).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from rich.markup import escape

from pddltools.consoles import stderr_console, stdout_console
from pddltools.envelope import envelope, print_json
from pddltools.exit_codes import ExitCode, status_of
from pddltools.validate.cli import exit_code, plan_entry, plan_summary, positive_number, task_entries

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("view")
    p.add_argument("domain", metavar="DOMAIN")
    p.add_argument("problem", metavar="PROBLEM")
    p.add_argument("plan", metavar="PLAN")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the HTML file to write")
    p.add_argument("--force", action="store_true", help="replace FILE when it exists")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--epsilon", type=positive_number("epsilon"),
                   help="minimum separation of interfering events in temporal plans (default: a tenth of "
                   "the tolerance, the window within which --tolerance, as VAL's -t, makes events one happening)")
    p.add_argument("--tolerance", type=positive_number("the tolerance"), default=Fraction(1, 100),
                   help="VAL's -t (default 0.01): how far a duration may be from its constraint, and (a tenth of it) "
                   "how close events must be to be one happening")
    p.set_defaults(func=run_view)


def run_view(args: argparse.Namespace) -> int:
    # imported here so that registering the command costs nothing for the other commands
    from pddltools.diagnostics import Error
    from pddltools.semantics import GroundedTask
    from pddltools.validate.api import validate_plan
    from pddltools.validate.trace import Trace
    from pddltools.view.page import render_page

    err = stderr_console()
    out = Path(args.output)
    if out.exists() and not args.force:
        err.print(f"pddltools view: {escape(str(out))} exists; give --force to replace it")
        return ExitCode.USAGE
    try:
        task = GroundedTask.load(args.domain, args.problem)
    except Error as exc:
        if args.format == "json":
            print_json(envelope("view", task_entries(args.domain, args.problem, exc.diagnostics),
                                plan_summary([]), output=None))
        else:
            from pddltools.diagnostics import render_rich

            render_rich(exc.diagnostics, err)
        return status_of(exc.diagnostics)
    trace = Trace(task)
    report = validate_plan(task, Path(args.plan), epsilon=args.epsilon, tolerance=args.tolerance, name=args.plan,
                           recorder=trace)
    if report.reason == "unreadable":
        err.print(f"pddltools view: {escape(report.message)}")
        return ExitCode.USAGE
    html = render_page(report, trace, args.plan)
    try:
        with out.open("w" if args.force else "x", encoding="utf-8") as handle:
            handle.write(html)
    except OSError as exc:
        err.print(f"pddltools view: cannot write {escape(str(out))}: {escape(exc.strerror or str(exc))}")
        return ExitCode.USAGE
    if args.format == "json":
        files = [*task_entries(args.domain, args.problem, ()), plan_entry(report.to_json())]
        print_json(envelope("view", files, plan_summary([report]), output=str(out)))
    else:
        stdout_console().print(f"wrote {escape(str(out))}: {report.verdict}"
                                                       + (f" ({report.reason})" if report.reason else ""))
    return exit_code([report])  # a plan the validator cannot judge: 2, as `validate`


__all__ = ["register", "run_view"]
