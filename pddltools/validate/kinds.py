"""What a task asks of the validator, decided without importing the validators (start-up: a sequential
plan never imports the temporal and PDDL+ ones)."""

from __future__ import annotations

from fractions import Fraction

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.semantics import GroundedTask


#: VAL's default `-t`: how far a plan's duration may be from what its duration constraint computes (the
#: validators' default, here so that the API's signature does not import the temporal semantics).
DEFAULT_TOLERANCE = Fraction(1, 100)


def is_pddlplus(task: GroundedTask) -> bool:
    """Whether the task has processes or events: a PDDL+ task, validated over continuous time."""
    return bool(task.domain.processes or task.domain.events)
