"""`validate_plan(task, plan)`: read a plan, pick sequential or temporal semantics, return a report."""

from __future__ import annotations

import os
from fractions import Fraction

from pddltools.diagnostics import InputError, Source
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain_file, parse_problem_file
from pddltools.reading import path_text, read_source
from pddltools.semantics import GroundedTask, SemanticsError
from pddltools.validate.kinds import DEFAULT_TOLERANCE, is_pddlplus
from pddltools.validate.planfile import PlanError, read_plan
from pddltools.validate.report import PlanReport
from pddltools.validate.sequential import validate_sequential
from pddltools.validate.verdict import semantics_failure

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.validate.trace import Trace


def _source(plan: str | os.PathLike[str] | Source) -> Source:
    """A plan given as a `Path` (any `os.PathLike`, or a one-line string naming an existing file) is read
    from disk; any other string is the plan's text."""
    if isinstance(plan, Source):
        return plan
    if isinstance(plan, os.PathLike):
        return read_source(plan)
    if "\n" not in plan and "(" not in plan and plan.strip() and os.path.isfile(path_text(plan)):
        return read_source(plan)
    return Source(plan, "<plan>")


TaskPart = str | os.PathLike[str] | ast.Domain | ast.Problem
Plan = str | os.PathLike[str] | Source


def _task_and_plan(task: object, plan: object, more: tuple[object, ...]) -> tuple[GroundedTask, Plan]:
    """The two shapes `validate_plan` takes, as a loaded task and a plan."""
    usage = ("validate_plan takes (task, plan) with a GroundedTask, or (domain, problem, plan) with the domain "
             "and problem as paths or parsed trees, and the plan as a path, its text or a Source")
    if isinstance(task, GroundedTask):
        if more or not isinstance(plan, str | os.PathLike | Source):
            raise TypeError(f"{usage}; got a GroundedTask and {len(more) + 1} more arguments")
        return task, plan
    if len(more) != 1 or not isinstance(more[0], str | os.PathLike | Source):
        raise TypeError(f"{usage}; got {type(task).__name__} first and {len(more) + 1} more arguments")
    if not isinstance(task, str | os.PathLike | ast.Domain) or not isinstance(plan, str | os.PathLike | ast.Problem):
        raise TypeError(f"{usage}; got {type(task).__name__} and {type(plan).__name__} for the domain and problem")
    domain = task if isinstance(task, ast.Domain) else parse_domain_file(task)
    problem = plan if isinstance(plan, ast.Problem) else parse_problem_file(plan)
    return GroundedTask(domain, problem, domain_path=_path(task), problem_path=_path(plan)), more[0]


def _path(part: str | os.PathLike[str] | ast.Node) -> str:
    if isinstance(part, ast.Node):
        return part.span.file if part.span is not None else ""
    return str(part)


def validate_plan(task: GroundedTask | TaskPart, plan: Plan | TaskPart, *more: Plan,
                  epsilon: float | Fraction | None = None, tolerance: float | Fraction = DEFAULT_TOLERANCE,
                  name: str | None = None, recorder: Trace | None = None,
                  delta: Fraction | None = None) -> PlanReport:
    """Validate one plan (a path, or the plan's text) against a task: `validate_plan(task, plan)` with a
    loaded `GroundedTask` (parse once, validate many), or `validate_plan(domain, problem, plan)` with the
    domain and problem as paths or parsed trees. Never raises for a bad plan: unreadable files, syntax
    errors and wrong steps are reports with `verdict == "error"`; a domain or problem that does not load
    raises `pddltools.diagnostics.Error` (as `GroundedTask.load` does), and arguments of another shape
    raise `TypeError` saying which shapes are taken.

    `tolerance` is VAL's `-t`: how far a duration may be from its constraint, and (a tenth of it) how
    close events are to make one happening; `epsilon` the least separation of interfering events in
    different happenings (None: that tenth; both temporal only); `recorder` (a `pddltools.validate.trace.Trace`) records
    the state changes; `delta` is the step for PDDL+ change that is not polynomial in time."""
    task, plan = _task_and_plan(task, plan, more)
    label = name if name is not None else (str(plan) if isinstance(plan, os.PathLike) else
                                           plan.name if isinstance(plan, Source) else None)
    try:
        source = _source(plan)
    except InputError as exc:
        reason = "syntax" if exc.diagnostics and exc.diagnostics[0].code == "E002" else "unreadable"
        return PlanReport(plan=label or str(plan), valid=False, verdict="error", reason=reason,
                          message=exc.diagnostics[0].message if exc.diagnostics else str(exc),
                          diagnostics=exc.diagnostics)
    label = label or source.name
    try:
        parsed = read_plan(source)
        eps = epsilon if epsilon is None or isinstance(epsilon, Fraction) else Fraction(str(epsilon))
        tol = tolerance if isinstance(tolerance, Fraction) else Fraction(str(tolerance))
        # the temporal and PDDL+ validators are imported only for the plans that need them (start-up)
        if is_pddlplus(task) and not task.timed_literals and all(s.duration is None for s in parsed.steps):
            from pddltools.validate.pddlplus import validate_pddlplus

            return validate_pddlplus(task, parsed, label, delta, recorder)
        if task.temporal or parsed.temporal or task.timed_literals or is_pddlplus(task):
            from pddltools.validate.temporal import validate_temporal

            return validate_temporal(task, parsed, label, eps, tol, recorder, delta)
        return validate_sequential(task, parsed, label, recorder)
    except PlanError as exc:
        diagnostic = exc.diagnostics[0]
        span = diagnostic.span
        return PlanReport(plan=label, valid=False, verdict="error", reason=exc.reason, message=diagnostic.message,
                          failed_step=exc.step, line=span.line if span else None,
                          action=span.text if span and exc.reason != "syntax" else None,
                          diagnostics=exc.diagnostics)
    except SemanticsError as exc:  # raised before any step (a domain the semantics cannot give meaning to)
        return semantics_failure(label, parsed, exc)
