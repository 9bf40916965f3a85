"""A plan report as a person reads it: the verdict line, then what was unsatisfied and how to repair it,
long lists folded. Used by `validate`, `view` and `unmap` alike (a command's own words for a verdict)."""

from __future__ import annotations

import re
from fractions import Fraction

from pddltools.diagnostics import render_rich
from pddltools.markup import LinePrinter, escape
from pddltools.validate.report import PlanReport, decimal, exact

TYPE_CHECKING = False
if TYPE_CHECKING:  # a valid plan's line is printed without rich (`pddltools.markup`)
    from typing import Any

    from rich.console import Console

#: Lines of a list shown before the rest is folded into a count (`--verbose` shows them all).
FOLD = 10
UNJUDGED = "unsupported"


def print_report(printer: Console | LinePrinter, r: PlanReport, *, verbose: bool = False) -> None:
    """The report's lines; `printer` a rich console, or a `LinePrinter` (rich made only for diagnostics)."""
    name = escape(r.plan)
    if r.valid:
        extra = f", makespan {_show(r.makespan)}" if r.makespan is not None else ""
        violated = ", ".join(f"{p} x{n}" for p, n in r.violations)
        soft = f"; violated preferences: {escape(violated)}" if violated else ""
        approximated = f"; approximated with --delta {_show(r.delta)}" if r.delta is not None else ""
        printer.print(f"[bold]{name}[/bold]: [green]valid[/green], value {_show(r.value)} (length {r.length}, "
                      f"cost {_show(r.cost)}{extra}{_tolerance(r)}){soft}{approximated}")
        return
    if r.reason == UNJUDGED:
        printer.print(f"[bold]{name}[/bold]: [yellow]error[/yellow] ({r.reason}): {escape(r.message)}")
        render_rich(r.diagnostics, printer.rich if isinstance(printer, LinePrinter) else printer)
        return
    if r.diagnostics:
        printer.print(f"[bold]{name}[/bold]: [red]not a plan for this task[/red] ({r.reason})")
        render_rich(r.diagnostics, printer.rich if isinstance(printer, LinePrinter) else printer)
        return
    where = f" at step {r.failed_step} (line {r.line})" if r.failed_step else ""
    where += f" at time {_show(r.failed_time)}" if r.failed_time is not None else ""
    tolerance = f" ({_tolerance(r)[2:]})" if r.tolerance is not None and "tolerance" not in r.message else ""
    printer.print(f"[bold]{name}[/bold]: [red]invalid[/red]{where} ({r.reason}): {escape(r.message)}{tolerance}")
    for line in folded([f"unsatisfied: {literal}" for literal in r.unsatisfied], verbose):
        printer.print(f"  {escape(line)}")
    for line in folded([f"advice: {line}" for line in repairs(r.unsatisfied, r.advice)], verbose):
        printer.print(f"  {escape(line)}")


def repairs(unsatisfied: tuple[str, ...], advice: tuple[str, ...]) -> list[str]:
    """The advice that says more than the unsatisfied list. "make (p a) true by the end of the plan" for
    an unsatisfied (p a) (or "make (p a) false" for an unsatisfied (not (p a))) repeats the list: such
    lines become one, "make each unsatisfied literal hold by the end of the plan"."""
    literals = set(unsatisfied)
    kept: list[str] = []
    restated: dict[str, None] = {}
    for line in advice:
        found = _RESTATING.fullmatch(line)
        if found is not None and "(" not in found["when"]:
            literal = found["atom"] if found["truth"] == "true" else f"(not {found['atom']})"
            if literal in literals:
                restated[found["when"]] = None
                continue
        kept.append(line)
    one = len(literals) == 1
    return [f"make {'it' if one else 'each unsatisfied literal'} hold {when}" for when in restated] + kept


_RESTATING = re.compile(r"make (?P<atom>\(.*\)) (?P<truth>true|false) (?P<when>.+)")


def folded(lines: list[str], verbose: bool) -> list[str]:
    """`lines`, or (beyond FOLD of them, unless `verbose`) the first FOLD and a count of the rest."""
    if verbose or len(lines) <= FOLD + 1:
        return lines
    return [*lines[:FOLD], f"... and {len(lines) - FOLD} more (--verbose shows all)"]


def _tolerance(r: PlanReport) -> str:
    """The tolerance a temporal verdict was reached with, and the happening window it implies (VAL's
    `-t T`: durations within T, events within T/10 one happening); sequential plans have neither."""
    if r.tolerance is None or r.happening_window is None:
        return ""
    return f", duration tolerance {exact(r.tolerance)}, happenings within {exact(r.happening_window)}"


def _show(value: Any) -> str:
    return decimal(value) if isinstance(value, Fraction) else str(value)
