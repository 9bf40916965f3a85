"""The end of a plan, shared by sequential and temporal validation: goal, constraints, metric, report."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from pddltools.pddl import ast
from pddltools.semantics import (
    GroundedTask,
    SemanticsError,
    State,
    Unsatisfied,
    evaluate_constraints,
    metric_value,
    state_violations,
)
from pddltools.semantics.state import Number
from pddltools.validate.advice import advise
from pddltools.validate.planfile import Plan, PlanFileStep
from pddltools.validate.report import PlanReport, decimal


def invalid_step(name: str, plan: Plan, step: PlanFileStep | None, reason: str, message: str,
                 unsatisfied: Iterable[Unsatisfied] = (), advice: Sequence[str] = ()) -> PlanReport:
    return PlanReport(
        plan=name, valid=False, verdict="invalid", reason=reason, message=message, length=len(plan.steps),
        failed_step=step.index if step else None, line=step.line if step else None,
        action=str(step) if step else None, unsatisfied=tuple(str(u) for u in unsatisfied), advice=tuple(advice))


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
        value: Number = (metric_value(ev, metric, state, makespan, violations) if metric is not None
                         else (makespan if temporal else len(plan.steps)))
    except SemanticsError as exc:
        return invalid_step(name, plan, None, exc.reason, f"at the end of the plan: {exc}")
    cost_value = state.values.get(("total-cost",)) if "total-cost" in task.functions else None
    cost: Number = cost_value if cost_value is not None and not isinstance(cost_value, str) else len(plan.steps)
    return PlanReport(plan=name, valid=True, verdict="valid", value=value, length=len(plan.steps), cost=cost,
                      makespan=makespan if temporal else None,
                      violations=tuple(sorted(violations.items())),
                      message=f"valid, value {decimal(value)}")
