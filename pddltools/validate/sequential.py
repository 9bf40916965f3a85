"""Sequential plans: each step's precondition in the state before it, then its effects, then the goal,
trajectory constraints and the metric."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pddltools.pddl import ast
from pddltools.semantics import GroundedTask, SemanticsError, State, state_violations
from pddltools.semantics.state import Number
from pddltools.validate.advice import advise
from pddltools.validate.planfile import Plan
from pddltools.validate.report import PlanReport
from pddltools.validate.resolve import resolve
from pddltools.validate.verdict import finish, invalid_step

if TYPE_CHECKING:
    from pddltools.validate.trace import Trace


def validate_sequential(task: GroundedTask, plan: Plan, name: str, recorder: Trace | None = None) -> PlanReport:
    """Validate a sequential plan; `recorder`, when given, is told every step as it is applied."""
    actions = resolve(task, plan)
    ev = task.evaluator
    constraints = list(task.constraints())
    # Without constraints (or a trace) nothing looks back at earlier states: one private state changed
    # in place (see pddltools.semantics.state for the measurement).
    keep = bool(constraints) or recorder is not None
    state = task.initial_state() if keep else task.initial_state().thaw()
    if recorder is not None:
        recorder.start(plan, state)
    trajectory: list[tuple[Number, State]] = [(0, state)]
    violations: Counter[str] = Counter()
    holds = ev.holds
    soft = task.soft_preconditions
    for step, action in zip(plan.steps, actions, strict=True):
        action = task.bind_vars(action, state)
        schema = action.schema
        assert isinstance(schema, ast.Action)
        if recorder is not None:
            recorder.begin(None, step.index, [str(action)])
        pre = schema.precondition
        try:
            if pre is not None and not holds(pre, action.binding, state):
                unsatisfied = ev.explain(pre, action.binding, state)
                return invalid_step(name, plan, step, "precondition",
                                    f"step {step.index} {action}: the precondition is not satisfied",
                                    unsatisfied, advise(unsatisfied, f"before step {step.index}"))
            if schema.name in soft:
                violations.update(state_violations(ev, pre, action.binding, state))
            if keep:
                state = task.apply(action, state)
                trajectory.append((step.index, state))
                if recorder is not None:
                    recorder.end(state)
            else:
                state = task.advance(action, state)
        except SemanticsError as exc:
            return invalid_step(name, plan, step, exc.reason, f"step {step.index} {action}: {exc}", cause=exc)
    return finish(task, plan, name, state, trajectory, violations, len(plan.steps))
