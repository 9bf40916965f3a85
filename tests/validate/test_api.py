"""The validator's Python API as a user first meets it: the natural calls work, others say what is taken,
and states can be kept in sets by a search over the grounded task."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.pddl import parse_domain_file, parse_problem_file
from pddltools.semantics import GroundedTask
from pddltools.semantics.state import State
from pddltools.validate import validate_plan

ADL = Path(__file__).resolve().parents[2] / "corpus" / "plans" / "adl"


def test_domain_problem_and_plan_as_paths_or_trees() -> None:
    assert validate_plan(ADL / "domain.pddl", ADL / "problem.pddl", ADL / "valid.plan").valid
    assert validate_plan(str(ADL / "domain.pddl"), str(ADL / "problem.pddl"), str(ADL / "valid.plan")).valid
    domain, problem = parse_domain_file(ADL / "domain.pddl"), parse_problem_file(ADL / "problem.pddl")
    report = validate_plan(domain, problem, ADL / "no-key.plan")
    assert (report.valid, report.reason, report.failed_step) == (False, "precondition", 1)
    task = GroundedTask.load(ADL / "domain.pddl", ADL / "problem.pddl")
    assert validate_plan(task, ADL / "valid.plan").value == 8


@pytest.mark.parametrize("arguments", [
    (ADL / "domain.pddl", ADL / "problem.pddl"),            # no plan
    (ADL / "domain.pddl", 3, ADL / "valid.plan"),             # not a problem
    (42, ADL / "valid.plan"),
])
def test_other_shapes_say_what_is_taken(arguments: tuple[object, ...]) -> None:
    with pytest.raises(TypeError, match=r"takes \(task, plan\) with a GroundedTask, or \(domain, problem, plan\)"):
        validate_plan(*arguments)  # type: ignore[arg-type]


def test_states_are_hashable_by_value_for_a_search() -> None:
    task = GroundedTask.load(ADL / "domain.pddl", ADL / "problem.pddl")
    start = task.initial_state()
    seen = {start}
    frontier = [start]
    while frontier and len(seen) < 200:
        state = frontier.pop()
        for action in task.applicable_actions(state):
            successor = task.apply(action, state)
            if successor not in seen:
                seen.add(successor)
                frontier.append(successor)
    assert len(seen) > 1
    again = State(set(start.atoms), dict(start.values))  # other containers, same state
    assert again == start and hash(again) == hash(start) and again in seen
