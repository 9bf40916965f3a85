"""Sequential plans: each step's precondition in the state before it, then its effects, then the goal,
trajectory constraints and the metric."""

from __future__ import annotations

from collections import Counter

from pddltools.pddl import ast
from pddltools.semantics import SemanticsError, State, Task, state_violations
from pddltools.semantics.state import Number
from pddltools.validate.advice import advise
from pddltools.validate.planfile import Plan
from pddltools.validate.report import PlanReport
from pddltools.validate.resolve import resolve
from pddltools.validate.verdict import finish, invalid_step


def validate_sequential(task: Task, plan: Plan, name: str) -> PlanReport:
    actions = resolve(task, plan)
    ev = task.evaluator
    constraints = list(task.constraints())
    state = task.initial_state()
    trajectory: list[tuple[Number, State]] = [(0, state)]
    violations: Counter[str] = Counter()
    holds = ev.holds
    for step, action in zip(plan.steps, actions, strict=True):
        action = task.bind_vars(action, state)
        schema = action.schema
        assert isinstance(schema, ast.Action)
        pre = schema.precondition
        try:
            if pre is not None and not holds(pre, action.binding, state):
                unsatisfied = ev.explain(pre, action.binding, state)
                return invalid_step(name, plan, step, "precondition",
                                    f"step {step.index} {action}: the precondition is not satisfied",
                                    unsatisfied, advise(unsatisfied, f"before step {step.index}"))
            if pre is not None:
                violations.update(state_violations(ev, pre, action.binding, state))
            state = task.apply(action, state)
        except SemanticsError as exc:
            return invalid_step(name, plan, step, exc.reason, f"step {step.index} {action}: {exc}")
        if constraints:
            trajectory.append((step.index, state))
    return finish(task, plan, name, state, trajectory, violations, len(plan.steps))
