"""Sequential plans: each step's precondition in the state before it, then its effects, then the goal,
trajectory constraints and the metric — the happening loop (`pddltools.validate.loop`) in discrete time."""

from __future__ import annotations

from pddltools.semantics import GroundedTask
from pddltools.validate.loop import Steps, run
from pddltools.validate.planfile import Plan
from pddltools.validate.report import PlanReport

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.validate.trace import Trace


def validate_sequential(task: GroundedTask, plan: Plan, name: str, recorder: Trace | None = None) -> PlanReport:
    """Validate a sequential plan; `recorder`, when given, is told every step as it is applied."""
    return run(Steps(task, plan, name, recorder))
