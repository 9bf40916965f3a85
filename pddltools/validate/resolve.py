"""Plan steps as ground actions of a task: names, arity, objects and types checked, each fault located."""

from __future__ import annotations

from pddltools.diagnostics import error
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import type_names
from pddltools.semantics import GroundAction, GroundedTask
from pddltools.validate.planfile import Plan, PlanError, PlanFileStep


def resolve(task: GroundedTask, plan: Plan) -> list[GroundAction]:
    """The ground action of every step, or `PlanError` for the first step that is not one. Each distinct
    step is checked and grounded once, and its steps share one action: a long plan repeats a few
    actions thousands of times. The first step at fault is still the one reported."""
    seen: dict[tuple[str, tuple[str, ...], int, int], GroundAction] = {}
    actions: list[GroundAction] = []
    for step in plan.steps:
        # the duration by its integers: hashing a `Fraction` computes a modular inverse
        duration = step.duration
        key = ((step.name, step.args, duration.numerator, duration.denominator) if duration is not None
               else (step.name, step.args, 0, 0))
        action = seen.get(key)
        if action is None:
            action = seen[key] = resolve_step(task, step)
        actions.append(action)
    return actions


def resolve_step(task: GroundedTask, step: PlanFileStep) -> GroundAction:
    schema = task.schemas.get(step.name)
    if schema is None:
        raise PlanError("bad-action", error("V002", f"step {step.index}: the domain has no action {step.name!r}",
                                            step.span), step.index)
    params = schema.parameters
    if len(step.args) != len(params):
        raise PlanError("arity", error(
            "V003", f"step {step.index}: {step.name} takes {len(params)} argument{'s' * (len(params) != 1)} "
            f"({' '.join(p.name for p in params) or 'none'}), not {len(step.args)}", step.span), step.index)
    grounder = task.grounder
    for arg, param in zip(step.args, params, strict=True):
        if arg not in grounder.declared:
            raise PlanError("unknown-object", error(
                "V004", f"step {step.index}: {arg!r} is not an object of the problem or a constant of the domain",
                step.span), step.index)
        if not grounder.fits(arg, param.type):
            declared = " or ".join(grounder.declared[arg])
            wanted = " or ".join(type_names(param.type))
            raise PlanError("type", error(
                "V005", f"step {step.index}: {arg} is a {declared}, but {param.name} of {step.name} must be of "
                f"type {wanted}",
                step.span), step.index)
    duration = step.duration
    if isinstance(schema, ast.DurativeAction) and duration is None:
        raise PlanError("timing", error(
            "V006", f"step {step.index}: {step.name} is a durative action; write it "
            f"'time: ({step.name} ...) [duration]'",
            step.span), step.index)
    return task.ground(step.name, step.args, duration if isinstance(schema, ast.DurativeAction) else None)
