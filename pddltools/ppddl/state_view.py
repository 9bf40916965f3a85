"""States as mdpsim's messages show them, and back.

mdpsim's `<state>` lists only what can change: atoms of the predicates some action's effect names, values
of the functions some effect changes (and `reward`). A client rebuilds the whole state by adding the
problem's static atoms and values to what the message lists.
"""

from __future__ import annotations

from fractions import Fraction

from pddltools.compile.statics import static_predicates
from pddltools.pddl import ast
from pddltools.ppddl.dialect import REWARD
from pddltools.ppddl.protocol import FluentEntry, StateMessage, parse_rational, rational
from pddltools.ppddl.simulation import Task
from pddltools.semantics import State
from pddltools.semantics.state import FluentValue, GroundAtom, normal


def _changed(task: Task) -> tuple[frozenset[str], frozenset[str]]:
    """The predicates and functions some action's effect changes (mdpsim's dynamic ones)."""
    domain = task.grounded.domain  # the deterministic stand-in: every outcome's effects at once
    predicates = frozenset(p.name for p in domain.predicates) - static_predicates(domain)
    functions = {node.fluent.function for schema in domain.actions if schema.effect is not None
                 for node in schema.effect.walk() if isinstance(node, ast.Assign)}
    if task.rewards:
        functions.add(REWARD)
    return predicates, frozenset(functions)


class StateView:
    """One task's states as messages (atoms in the order of the domain's predicates, then of the objects),
    and messages as states."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.predicates, self.functions = _changed(task)
        grounded = task.grounded
        self._predicate_order = {p: i for i, p in enumerate(grounded.predicates)}
        self._function_order = {f: i for i, f in enumerate(grounded.functions)}
        self._object_order = {o: i for i, o in enumerate(grounded.grounder.objects)}
        initial = grounded.initial_state()
        self.static_atoms = frozenset(a for a in initial.atoms if a[0] not in self.predicates)
        self.static_values = {k: v for k, v in initial.values.items() if k[0] not in self.functions}

    def _key(self, order: dict[str, int], item: tuple[str, ...]) -> tuple[object, ...]:
        return (order.get(item[0], len(order)), item[0], *[self._object_order.get(t, -1) for t in item[1:]], item)

    def message(self, state: State, goal: bool) -> StateMessage:
        atoms = sorted((a for a in state.atoms if a[0] in self.predicates),
                       key=lambda a: self._key(self._predicate_order, a))
        fluents: list[FluentEntry] = []
        for key in sorted((k for k in state.values if k[0] in self.functions),
                          key=lambda k: self._key(self._function_order, k)):
            value = state.values[key]
            if not isinstance(value, str):  # object fluents are no mdpsim values
                fluents.append((key, rational(value)))
        return StateMessage(goal, tuple(atoms), tuple(fluents))

    def state(self, message: StateMessage) -> State:
        """The whole state a message shows: its atoms and values, with the static ones of the problem."""
        atoms: set[GroundAtom] = set(self.static_atoms)
        atoms.update(message.atoms)
        values: dict[tuple[str, ...], FluentValue] = dict(self.static_values)
        for key, text in message.fluents:
            value = parse_rational(text)
            values[key] = normal(value) if isinstance(value, Fraction) else value
        return State(frozenset(atoms), values)
