"""The plan validator: sequential, numeric, temporal and PDDL3 plans, with the reason for every failure.

    from pddltools.validate import GroundedTask, validate_plan
    task = GroundedTask.load("domain.pddl", "problem.pddl")     # parse once
    report = validate_plan(task, "plan.1")             # a path or the plan's text
    report.valid, report.value, report.failed_step, report.unsatisfied, report.to_json()
"""

from __future__ import annotations

from pddltools.semantics import GroundedTask
from pddltools.validate.api import validate_plan
from pddltools.validate.planfile import Plan, PlanError, PlanFileStep, read_plan
from pddltools.validate.report import PlanReport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from pddltools.validate.batch import validate_batch


def __getattr__(name: str) -> Any:
    if name == "validate_batch":  # imported at its first use (start-up: `validate` of one plan)
        from pddltools.validate.batch import validate_batch

        globals()[name] = validate_batch
        return validate_batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
           "GroundedTask",
           "Plan",
           "PlanError",
           "PlanFileStep",
           "PlanReport",
           "read_plan",
           "validate_batch",
           "validate_plan",
]
