"""What the runner and the scorer know of a plan's validation: a verdict, and the checker's signature.

Kept apart from `validation` (which imports the whole validator) so that the runner, which has a child
process validate its plans (`isolated`), does not load the validator itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PlanVerdict:
    valid: bool
    value: float | None  # the metric value; plan cost (or length) when the problem states no metric
    length: int | None
    reason: str = ""
    #: False when the validator cannot judge the plan (a construct it does not support): the run is
    #: `unjudged`, not `invalid-plan`, whose verdict voids a domain under some rules
    judged: bool = True
    crash: bool = False  # validating broke a limit (see `isolated`): the plan was not judged

    @property
    def status(self) -> str:
        """The status of a run whose plan got this verdict."""
        if self.crash:
            return "crash"
        return "solved" if self.valid else "invalid-plan" if self.judged else "unjudged"


def count_actions(plan_text: str) -> int:
    """The number of actions in a plan file's text: its lines that are not empty or comments."""
    return sum(1 for line in plan_text.splitlines() if line.split(";", 1)[0].strip())


# (domain path, problem path, plan text) -> verdict; tests pass hand-made ones.
PlanChecker = Callable[[str, str, str], PlanVerdict]


