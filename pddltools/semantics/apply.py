"""Effect application: every effect of a step is computed in the state before it, then applied at once.

Deletes come before adds (an atom both deleted and added ends true). Numeric effects on one fluent
combine when they commute (several `increase`/`decrease`, or several `scale-up`/`scale-down`); two
assignments of different values, or an assignment mixed with any other update of the same fluent,
are a conflict and make the plan invalid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pddltools.pddl import ast
from pddltools.semantics.compiled import Collect
from pddltools.semantics.errors import ArithmeticFault, EffectConflict, UndefinedValue
from pddltools.semantics.evaluate import Evaluator
from pddltools.semantics.grounding import Binding
from pddltools.semantics.state import FluentValue, GroundAtom, GroundFluent, Number, State, normal, show_atom
from pddltools.syntax.frozen import fast_constructor

_ADDITIVE = frozenset(("increase", "decrease"))
_SCALING = frozenset(("scale-up", "scale-down"))


@dataclass(slots=True)
class Effects:
    """The ground effects of one step or happening, collected before any is applied."""

    adds: set[GroundAtom] = field(default_factory=set)
    deletes: set[GroundAtom] = field(default_factory=set)
    updates: dict[GroundFluent, list[tuple[str, FluentValue]]] = field(default_factory=dict)

    def merge(self, other: Effects) -> None:
        self.adds |= other.adds
        self.deletes |= other.deletes
        for key, ops in other.updates.items():
            self.updates.setdefault(key, []).extend(ops)

    @property
    def written_atoms(self) -> set[GroundAtom]:
        return self.adds | self.deletes

    def written_fluents(self, additive_only: bool = False) -> set[GroundFluent]:
        if additive_only:
            return {k for k, ops in self.updates.items() if all(op in _ADDITIVE for op, _ in ops)}
        return set(self.updates)


_make_effects = fast_constructor(Effects)  # (adds, deletes, updates)


def no_effects() -> Effects:
    """`Effects()` without the dataclass's `__init__` and its three default factories (half its
    time): the validator makes one for every event of a plan."""
    return _make_effects(set(), set(), {})


def collect(evaluator: Evaluator, effect: ast.Effect | None, binding: Binding, state: State,
            into: Effects | None = None) -> Effects:
    """The ground effects of `effect` under `binding`, conditions and values read in `state`."""
    out = into if into is not None else Effects()
    if effect is not None:
        evaluator.effect(effect)(binding, state, out)
    return out


def compiled_effect(evaluator: Evaluator, effect: ast.Effect) -> Collect:
    """`effect` as a closure that adds its ground effects to an `Effects` (made once per effect): for a
    caller that collects the same effect many times and looks it up once."""
    return evaluator.effect(effect)


def resolve(state: State, effects: Effects) -> dict[GroundFluent, FluentValue]:
    """The new value of every updated fluent, or `EffectConflict` when the updates disagree."""
    values: dict[GroundFluent, FluentValue] = {}
    for key, ops in effects.updates.items():
        if len(ops) == 1 and ops[0][0] in _ADDITIVE:  # one increase or decrease: most numeric effects
            old = state.values.get(key)
            if old is None or isinstance(old, str):
                raise UndefinedValue(show_atom(key))
            op, v = ops[0]
            assert not isinstance(v, str)
            values[key] = normal(old + v if op == "increase" else old - v)
            continue
        kinds = {op for op, _ in ops}
        if "assign" in kinds:
            assigned = {v for op, v in ops if op == "assign"}
            if len(assigned) > 1 or len(kinds) > 1:
                raise EffectConflict(f"two effects give {show_atom(key)} different values at once "
                                     f"({', '.join(f'{op} {v}' for op, v in ops)})")
            only = assigned.pop()
            values[key] = only if isinstance(only, str) else normal(only)
            continue
        old = state.values.get(key)
        if old is None or isinstance(old, str):
            raise UndefinedValue(show_atom(key))
        if kinds <= _ADDITIVE:
            delta: Number = 0
            for op, v in ops:
                assert not isinstance(v, str)
                delta = delta + v if op == "increase" else delta - v
            values[key] = normal(old + delta)
        elif kinds <= _SCALING:
            result: Number = old
            for op, v in ops:
                assert not isinstance(v, str)
                if op == "scale-down":
                    if v == 0:
                        raise ArithmeticFault(f"scale-down of {show_atom(key)} by 0")
                    result = Fraction(result) / v
                else:
                    result = result * v
            values[key] = normal(result)
        else:
            raise EffectConflict(f"{show_atom(key)} is both scaled and increased at once, and the result "
                                 "would depend on their order")
    return values


def apply(state: State, effects: Effects) -> State:
    """The successor state: deletes, then adds, then the resolved fluent values."""
    values = resolve(state, effects)
    return state.with_changes(effects.deletes, effects.adds, values)
