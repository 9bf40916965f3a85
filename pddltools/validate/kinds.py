"""What a task asks of the validator, decided without importing the validators (start-up: a sequential
plan never imports the temporal and PDDL+ ones)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pddltools.semantics import GroundedTask


def is_pddlplus(task: GroundedTask) -> bool:
    """Whether the task has processes or events: a PDDL+ task, validated over continuous time."""
    return bool(task.domain.processes or task.domain.events)
