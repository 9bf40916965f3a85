"""States: the ground atoms that are true (closed world) and the values of numeric and object fluents.

Representation, chosen by measurement (`benchmarks/validate.py`, a 10,000-step plan over a task of
5,000 atoms): a set of atom tuples, looked up by hashing. Two ways of moving from state to state:
- immutable: each successor is a new `frozenset` (`State.with_changes`). Needed where the trajectory
  is kept (PDDL3 constraints, temporal plans), but every step copies the whole state: 3.4 s for the
  10,000 steps above, ~340 us a step.
- in place (`State.advance`): the successor shares the set and dict of its predecessor, which must not
  be used again. Cost in proportion to the effects: the same plan in well under a second. The
  sequential validator uses it when nothing needs the trajectory.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from fractions import Fraction

from pddltools.syntax.frozen import fast_constructor

#: `("on", "a", "b")`: a predicate name and its object arguments.
GroundAtom = tuple[str, ...]
#: `("fuel", "truck1")`: a function name and its object arguments.
GroundFluent = tuple[str, ...]
Number = int | Fraction
#: A fluent's value: a number, or an object name for an object fluent.
FluentValue = int | Fraction | str


def normal(value: Number) -> Number:
    """Integers stay integers: `Fraction(4, 2)` is 2, so values print and compare as VAL's do."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value.numerator)
    return value


def show_atom(atom: GroundAtom) -> str:
    """`("on", "a", "b")` as PDDL: `(on a b)`."""
    return "(" + " ".join(atom) + ")"


def show_number(value: FluentValue) -> str:
    if isinstance(value, Fraction):
        return f"{float(value):g}"
    return str(value)


@dataclass(frozen=True, slots=True)
class State:
    """One state. `values` must not be changed after the state is built (states are shared)."""

    atoms: AbstractSet[GroundAtom]
    values: Mapping[GroundFluent, FluentValue] = field(default_factory=dict)

    def __contains__(self, atom: object) -> bool:
        return atom in self.atoms

    def __hash__(self) -> int:
        """Equal states hash alike, so that a search can keep states in a set or key a dict by them (the
        atoms and the values, whatever their containers; a thawed state must not change while kept)."""
        return hash((frozenset(self.atoms), frozenset(self.values.items())))

    def value(self, fluent: GroundFluent) -> FluentValue | None:
        """A fluent's value, or None when it is undefined."""
        return self.values.get(fluent)

    def with_changes(self, deletes: Iterable[GroundAtom], adds: Iterable[GroundAtom],
                     values: Mapping[GroundFluent, FluentValue] | None = None) -> State:
        """The state after deleting, then adding (an atom both deleted and added ends true)."""
        atoms = frozenset(self.atoms).difference(deletes).union(adds)
        if values:
            merged = dict(self.values)
            merged.update(values)
            return State(atoms, merged)
        return State(atoms, self.values)

    def thaw(self) -> State:
        """A private, mutable copy, to `advance` from."""
        return State(set(self.atoms), dict(self.values))

    def advance(self, deletes: Iterable[GroundAtom], adds: Iterable[GroundAtom],
                values: Mapping[GroundFluent, FluentValue] | None = None) -> State:
        """The successor, made by changing this (thawed) state's set and dict in place: `self` must not
        be used afterwards. Deletes before adds, as in `with_changes`. The successor is a new object
        (made without the frozen `__init__`): caches keyed by a state's identity (the evaluator's
        index of atoms, its derived atoms) must not take it for its predecessor."""
        atoms, own = self.atoms, self.values
        if not isinstance(atoms, set) or not isinstance(own, dict):
            raise TypeError("advance() needs a thawed state (State.thaw())")
        if deletes:  # a stretch of continuous change deletes and adds nothing
            atoms.difference_update(deletes)
        if adds:
            atoms.update(adds)
        if values:
            own.update(values)
        return _new_state(atoms, own)

    def frozen(self) -> State:
        """An immutable copy (for keeping in a trajectory)."""
        return State(frozenset(self.atoms), dict(self.values))


_new_state = fast_constructor(State)  # (atoms, values)
