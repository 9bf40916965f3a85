"""States: the ground atoms that are true (closed world) and the values of numeric and object fluents.

Representation, chosen by measurement (`benchmarks/validate.py` on the shared plans and on a
10,000-step plan over ~4,000 atoms): a `frozenset` of atom tuples. Applying an effect builds a new set
with two C-level set operations, which costs less than keeping an index of atoms for a bitset
(building and reading Python big integers bit by bit was 3-4x slower for lookups), and immutable
states make the trajectory that PDDL3 constraints and temporal invariants need free to keep.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

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

    atoms: frozenset[GroundAtom]
    values: Mapping[GroundFluent, FluentValue] = field(default_factory=dict)

    def __contains__(self, atom: object) -> bool:
        return atom in self.atoms

    def value(self, fluent: GroundFluent) -> FluentValue | None:
        """A fluent's value, or None when it is undefined."""
        return self.values.get(fluent)

    def with_changes(self, deletes: Iterable[GroundAtom], adds: Iterable[GroundAtom],
                     values: Mapping[GroundFluent, FluentValue] | None = None) -> State:
        """The state after deleting, then adding (an atom both deleted and added ends true)."""
        atoms = self.atoms.difference(deletes).union(adds)
        if values:
            merged = dict(self.values)
            merged.update(values)
            return State(atoms, merged)
        return State(atoms, self.values)
