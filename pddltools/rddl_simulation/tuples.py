"""RDDL2 tuple values (RDDLSim's vectors): `< @1 : 0.25, @2 : 0.75 >`, `< col1 : < @x : 1, @y : 0 > >`.

A `Vector` is an ordered, immutable map from labels (enum values with their `@`, object names bare) to
values, which may be vectors again (a matrix). Arithmetic is member by member, as RDDLSim evaluates
`< ... > + < ... >`; a number on one side applies to every member. Members keep the type they were
computed with (an int stays an int inside a real tuple), because RDDLSim prints them that way.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Vector:
    entries: tuple[tuple[str, Any], ...]

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(label for label, _ in self.entries)

    def __getitem__(self, label: str) -> Any:
        for key, value in self.entries:
            if key == label:
                return value
        raise KeyError(f"the tuple {self} has no member {label}")

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def _combine(self, other: Any, function: Callable[[Any, Any], Any], reverse: bool = False) -> Vector:
        if isinstance(other, Vector):
            if other.labels != self.labels:
                raise ValueError(f"the tuples {self} and {other} have different members")
            pairs = zip(self.entries, other.entries, strict=True)
            return Vector(tuple((label, function(a, b)) for (label, a), (_, b) in pairs))
        if reverse:
            return Vector(tuple((label, function(other, a)) for label, a in self.entries))
        return Vector(tuple((label, function(a, other)) for label, a in self.entries))

    def __add__(self, other: Any) -> Vector:
        return self._combine(other, operator.add)

    def __radd__(self, other: Any) -> Vector:
        return self._combine(other, operator.add, reverse=True)

    def __sub__(self, other: Any) -> Vector:
        return self._combine(other, operator.sub)

    def __rsub__(self, other: Any) -> Vector:
        return self._combine(other, operator.sub, reverse=True)

    def __mul__(self, other: Any) -> Vector:
        return self._combine(other, operator.mul)

    def __rmul__(self, other: Any) -> Vector:
        return self._combine(other, operator.mul, reverse=True)

    def __truediv__(self, other: Any) -> Vector:
        return self._combine(other, operator.truediv)

    def __rtruediv__(self, other: Any) -> Vector:
        return self._combine(other, operator.truediv, reverse=True)

    def __neg__(self) -> Vector:
        return Vector(tuple((label, -value) for label, value in self.entries))

    def __str__(self) -> str:
        return format_vector(self, repr)


def label_text(label: str) -> str:
    """How RDDLSim prints a label: enum values keep their `@`, objects get a `$`."""
    return label if label.startswith("@") else "$" + label


def format_vector(vector: Vector, scalar: Callable[[Any], str]) -> str:
    """`< @1: 0.25, @2: 0.75 >`, RDDLSim's spelling, with `scalar` printing the leaf values."""
    parts = []
    for label, value in vector.entries:
        text = format_vector(value, scalar) if isinstance(value, Vector) else scalar(value)
        parts.append(f"{label_text(label)}: {text}")
    return "< " + ", ".join(parts) + " >"
