"""Objects by type and the instantiation of parameters, lazily.

Nothing is grounded ahead of time: a quantifier or a derived predicate asks for the bindings of its
variables when it is evaluated, and gets a generator over the objects of each variable's type.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from itertools import product

from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import TypeHierarchy, objects_by_type, type_names, typed_objects

#: The value of a variable: an object name, or a number (`?duration` in durative actions).
Value = str | int | Fraction
Binding = Mapping[str, Value]


class Grounder:
    """The objects of a task (problem objects and domain constants) and the types they belong to."""

    def __init__(self, domain: ast.Domain, problem: ast.Problem | None) -> None:
        self.hierarchy = TypeHierarchy.of(domain)
        self.declared: dict[str, tuple[str, ...]] = typed_objects(domain, problem)
        self._by_type = objects_by_type(self.hierarchy, self.declared)
        self._cache: dict[int, tuple[ast.TypeRef | None, tuple[str, ...]]] = {}
        # by the identity of the type reference: hashing a dataclass on every check costs more
        self._allowed: dict[int, tuple[ast.TypeRef | None, frozenset[str]]] = {}

    @property
    def objects(self) -> tuple[str, ...]:
        return tuple(self.declared)

    def objects_of(self, ref: ast.TypeRef | None) -> tuple[str, ...]:
        """The objects that may stand where `ref` is required, in declaration order."""
        found = self._cache.get(id(ref))
        if found is not None and found[0] is ref:
            return found[1]
        seen: dict[str, None] = {}
        for name in type_names(ref):
            for obj in self._by_type.get(name, ()):
                seen[obj] = None
        self._cache[id(ref)] = (ref, tuple(seen))
        return tuple(seen)

    def fits(self, obj: str, ref: ast.TypeRef | None) -> bool:
        """Whether object `obj` may be the value of a parameter declared with type `ref`."""
        allowed = self._allowed.get(id(ref))
        if allowed is None or allowed[0] is not ref:
            allowed = (ref, frozenset(self.objects_of(ref)))
            self._allowed[id(ref)] = allowed
        return obj in allowed[1]

    def bindings(self, variables: Sequence[ast.TypedName], base: Binding | None = None) -> Iterator[dict[str, Value]]:
        """Every assignment of objects to `variables` (by type), each extending `base`."""
        names = [v.name for v in variables]
        domains = [self.objects_of(v.type) for v in variables]
        start = dict(base) if base else {}
        for combo in product(*domains):
            binding = dict(start)
            binding.update(zip(names, combo, strict=True))
            yield binding
