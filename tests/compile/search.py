"""Bounded breadth-first search over a task's states, by the grounded semantics (`pddltools.semantics`).

Test support only: the equivalence tests compare what the original and the compiled task can reach.
"""

from __future__ import annotations

from collections.abc import Iterable

from pddltools.pddl import ast
from pddltools.semantics import GroundedTask
from pddltools.semantics.state import State
from pddltools.semantics.task import GroundAction


def ground_actions(task: GroundedTask) -> list[GroundAction]:
    out = []
    for schema in task.domain.actions:
        for binding in task.grounder.bindings(schema.parameters):
            out.append(task.ground(schema.name, [str(binding[p.name]) for p in schema.parameters]))
    return out


def project(state: State, predicates: Iterable[str]) -> frozenset[tuple[object, ...]]:
    wanted = set(predicates)
    return frozenset(a for a in state.atoms if a[0] in wanted)  # type: ignore[index]


def _key(state: State) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[object, object]]]:
    return state.atoms, frozenset(state.values.items())


def reachable(task: GroundedTask, depth: int) -> list[tuple[State, list[GroundAction]]]:
    """Every state reachable in at most `depth` steps, with a shortest plan to it, nearest first."""
    actions = ground_actions(task)
    start = task.initial_state()
    seen = {_key(start)}
    out: list[tuple[State, list[GroundAction]]] = [(start, [])]
    frontier = [(start, [])]
    for _ in range(depth):
        following: list[tuple[State, list[GroundAction]]] = []
        for state, plan in frontier:
            for action in actions:
                if task.applicable(action, state):
                    after = task.apply(action, state)
                    key = _key(after)
                    if key not in seen:
                        seen.add(key)
                        following.append((after, [*plan, action]))
        out += following
        frontier = following
    return out


def goal_states(task: GroundedTask, depth: int, predicates: Iterable[str]) -> set[frozenset[tuple[object, ...]]]:
    """The goal states reachable within `depth` steps, projected onto `predicates`."""
    names = list(predicates)
    return {project(s, names) for s, _ in reachable(task, depth) if task.goal_holds(s)}


def first_plan(task: GroundedTask, depth: int) -> list[GroundAction] | None:
    for state, plan in reachable(task, depth):
        if task.goal_holds(state):
            return plan
    return None


def plan_text(plan: list[GroundAction]) -> str:
    return "".join(f"{step}\n" for step in plan)


def predicates_of(domain: ast.Domain) -> list[str]:
    return [p.name for p in domain.predicates]
