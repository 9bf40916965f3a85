"""What the tests of `pddltools ground` share: a plan found by breadth-first search over a grounded task,
and Fast Downward's search binary where up-fast-downward is installed (None elsewhere)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from pddltools.semantics import GroundedTask


def breadth_first(task: GroundedTask) -> list[str]:
    """The names of the actions of a shortest plan of `task`; AssertionError when it has none."""
    frontier = [(task.initial_state(), [])]
    seen = {task.initial_state().atoms}
    while frontier:
        state, path = frontier.pop(0)
        if task.goal_holds(state):
            return path
        for action in task.applicable_actions(state):
            after = task.apply(action, state)
            if after.atoms not in seen:
                seen.add(after.atoms)
                frontier.append((after, [*path, action.name]))
    raise AssertionError("no plan")


def _downward() -> Path | None:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or spec.origin is None:
        return None
    candidate = Path(spec.origin).parent / "downward" / "builds" / "release" / "bin" / "downward"
    return candidate if candidate.is_file() else None


DOWNWARD = _downward()
