"""The end of a plan, shared by sequential and temporal validation: goal, constraints, metric, report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

from pddltools.diagnostics import Span, error
from pddltools.pddl import ast
from pddltools.semantics import (
    GroundedTask,
    SemanticsError,
    State,
    Unsatisfied,
    Unsupported,
    evaluate_constraints,
    metric_value,
    state_violations,
)
from pddltools.semantics.state import Number
from pddltools.validate.advice import advise
from pddltools.validate.planfile import Plan, PlanFileStep
from pddltools.validate.report import PlanReport, decimal, exact, happening_window


def invalid_step(name: str, plan: Plan, step: PlanFileStep | None, reason: str, message: str,
                 unsatisfied: Iterable[Unsatisfied] = (), advice: Sequence[str] = (),
                 cause: SemanticsError | None = None) -> PlanReport:
    """The report of a plan that fails at `step` (None: at the end). `cause`, the semantics' exception
    when there is one, locates a construct the validator does not support: such a plan is not invalid
    but unjudged (`cannot_judge`), whichever loop met it."""
    if reason == Unsupported.reason:
        return cannot_judge(name, plan, step, message, cause.span if isinstance(cause, Unsupported) else None)
    return PlanReport(
        plan=name, valid=False, verdict="invalid", reason=reason, message=message, length=len(plan.steps),
        failed_step=step.index if step else None, line=step.line if step else None,
        action=str(step) if step else None, unsatisfied=tuple(str(u) for u in unsatisfied), advice=tuple(advice))


def cannot_judge(name: str, plan: Plan, step: PlanFileStep | None, message: str,
                 span: Span | None = None) -> PlanReport:
    """Verdict `error`, reason `unsupported`: the plan uses a construct the validator does not support,
    so it cannot say whether the plan is valid. Never `invalid`: a competition would void a domain on
    that word. The message names the construct and where it is written (`span`; the plan step when the
    construct's place is unknown), and a V020 diagnostic carries that place for JSON readers."""
    where = span if span is not None else step.span if step is not None else None
    located = f"{message} ({where})" if where is not None else message
    return PlanReport(
        plan=name, valid=False, verdict="error", reason=Unsupported.reason,
        message=f"cannot judge this plan: {located}", length=len(plan.steps),
        failed_step=step.index if step else None, line=step.line if step else None,
        action=str(step) if step else None,
        diagnostics=(error("V020", f"the validator does not support this: {message}", where),))


def merged_too_close(name: str, plan: Plan, step: PlanFileStep | None, why: str, gap: Fraction,
                     tolerance: Fraction) -> PlanReport:
    """Interfering events `gap` apart, so close that they are one happening: VAL's `-t T` makes one of
    the events at most T/10 after its first (`happening_window`), and the events of one happening must
    not interfere. `step` is the later event's, which VAL finds at fault (its condition is read before
    the earlier event's effects)."""
    window = happening_window(tolerance)
    return invalid_step(name, plan, step, "epsilon",
                        f"{why}, and they are only {exact(gap)} apart: events at most {exact(window)} apart "
                        f"(a tenth of the tolerance {exact(tolerance)}, as VAL's -t reads it) are one happening, "
                        "where interfering events cannot be")


def semantics_failure(name: str, plan: Plan, exc: SemanticsError) -> PlanReport:
    """A task the semantics cannot give meaning to, found before any step: unjudged when the cause is
    a construct the validator does not support, else invalid."""
    return invalid_step(name, plan, None, exc.reason, str(exc), cause=exc)


#: requirements that make a domain durative for VAL (`isDurative`: :durative-actions or :time), and those
#: that imply one of them
_DURATIVE_REQUIREMENTS = frozenset({":durative-actions", ":time", ":timed-initial-literals", ":duration-inequalities",
                                    ":continuous-effects"})


def durative_domain(task: GroundedTask) -> bool:
    """Whether time is the plan's measure, as VAL decides it: a domain that declares or has durative
    actions, processes or events, or a problem with timed initial literals. In any other the plan is a
    sequence, whatever time stamps it is written with."""
    domain = task.domain
    return (task.temporal or bool(domain.processes or domain.events or task.timed_literals)
            or any(r.name in _DURATIVE_REQUIREMENTS for r in domain.requirements))


def finish(task: GroundedTask, plan: Plan, name: str, state: State, trajectory: Sequence[tuple[Number, State]],
           violations: Counter[str], makespan: Number, temporal: bool = False,
           loosen: Callable[[ast.Formula], ast.Formula] | None = None) -> PlanReport:
    """Check the goal and constraints in the final state and trajectory, and compute the value.
    `loosen`, when given, is a second, looser reading of a goal the exact one finds false."""
    ev = task.evaluator
    try:
        goal = task.problem.goal
        if not task.goal_holds(state) and (loosen is None or goal is None
                                           or not ev.holds(loosen(goal), {}, state)):
            unmet = task.unmet_goals(state)
            return invalid_step(name, plan, None, "goal", "the goal is not satisfied at the end of the plan",
                                unmet, advise(unmet, "by the end of the plan"))
        violations.update(state_violations(ev, task.problem.goal, {}, state))
        constraints = list(task.constraints())
        if constraints:
            result = evaluate_constraints(ev, constraints, trajectory)
            if result.failed:
                return invalid_step(name, plan, None, "constraint",
                                    "a trajectory constraint is violated: " + "; ".join(result.failed),
                                    [Unsatisfied(f) for f in result.failed])
            violations.update(result.violations)
        metric = task.problem.metric
        # VAL's total-time, and its value without a metric: the makespan in a durative domain, else
        # the number of steps, time stamps or not (a sequential plan reprinted `0: (a) [1]` keeps its value)
        measure = makespan if durative_domain(task) else len(plan.steps)
        value: Number = metric_value(ev, metric, state, measure, violations) if metric is not None else measure
    except SemanticsError as exc:
        return invalid_step(name, plan, None, exc.reason, f"at the end of the plan: {exc}", cause=exc)
    cost_value = state.values.get(("total-cost",)) if "total-cost" in task.functions else None
    cost: Number = cost_value if cost_value is not None and not isinstance(cost_value, str) else len(plan.steps)
    return PlanReport(plan=name, valid=True, verdict="valid", value=value, length=len(plan.steps), cost=cost,
                      makespan=makespan if temporal else None,
                      violations=tuple(sorted(violations.items())),
                      message=f"valid, value {decimal(value)}")
