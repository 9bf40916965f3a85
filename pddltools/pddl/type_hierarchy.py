"""The type hierarchy of a domain, and the objects of each type in a task.

Shared by the checker (is this argument of the right type?), the grounded semantics (which objects can
a parameter take?) and the compiler (type predicates). It never fails: a type used but not declared, or
a cycle in the hierarchy, is the checker's to report; here an undeclared type is a direct subtype of
`object` and a cycle simply stops the walk up.

PDDL's rules, as the IPC domains use them:
- `object` is the root; a type declared without a parent is a subtype of `object`.
- A type may be declared with `(either a b)` as its parent: it is then a subtype of both.
- `number` is the type of numeric function values; it is not an object type.
- An object (or constant) of type `(either a b)` is an object of `a` and of `b`.
- In an untyped domain every object is of type `object`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from pddltools.pddl import ast

OBJECT = "object"
NUMBER = "number"


def type_names(ref: ast.TypeRef | None) -> tuple[str, ...]:
    """The type names a type reference stands for: `(either a b)` is `a` and `b`; none is `object`."""
    if ref is None:
        return (OBJECT,)
    if isinstance(ref, ast.TypeName):
        return (ref.name,)
    return tuple(t.name for t in ref.types)


@dataclass(frozen=True)
class TypeHierarchy:
    """Each declared type with its direct parents; `object` (and `number`) are always present."""

    parents: Mapping[str, tuple[str, ...]]
    _ancestors: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, domain: ast.Domain) -> TypeHierarchy:
        parents: dict[str, list[str]] = {OBJECT: [], NUMBER: []}
        for declared in domain.types:
            own = parents.setdefault(declared.name, [])
            for parent in type_names(declared.type):
                if parent != declared.name and parent not in own:
                    own.append(parent)
                parents.setdefault(parent, [])
        # A parent that is itself never declared hangs under `object`, as every planner reads it.
        for name, own in parents.items():
            if not own and name not in (OBJECT, NUMBER):
                own.append(OBJECT)
        return cls({name: tuple(own) for name, own in parents.items()})

    def __contains__(self, name: object) -> bool:
        return name in self.parents

    def declared(self) -> Iterator[str]:
        return iter(self.parents)

    def ancestors(self, name: str) -> frozenset[str]:
        """`name` itself and every type above it (cycles end the walk; unknown types sit under object)."""
        cached = self._ancestors.get(name)
        if cached is not None:
            return cached
        seen: set[str] = set()
        stack = [name]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            stack.extend(self.parents.get(current, (OBJECT,) if current != NUMBER else ()))
        result = frozenset(seen)
        self._ancestors[name] = result
        return result

    def is_subtype(self, name: str, of: str) -> bool:
        return of in self.ancestors(name)

    def fits(self, actual: Iterable[str], expected: ast.TypeRef | None) -> bool:
        """Whether a value whose types are `actual` may stand where `expected` is required.

        An `either` on the value's side (an object declared `- (either a b)`) belongs to each of its
        types, so one of them fitting is enough; on the expected side any member may be met.
        """
        wanted = type_names(expected)
        return any(self.is_subtype(t, w) for t in actual for w in wanted)

    def subtypes(self, name: str) -> frozenset[str]:
        """`name` and every declared type below it."""
        return frozenset(t for t in self.parents if name in self.ancestors(t))

    def cycles(self) -> list[str]:
        """The declared types that are their own ancestors (each reported once, in declaration order)."""
        cyclic = []
        for name in self.parents:
            seen: set[str] = set()
            stack = list(self.parents[name])
            while stack:
                current = stack.pop()
                if current == name:
                    cyclic.append(name)
                    break
                if current not in seen:
                    seen.add(current)
                    stack.extend(self.parents.get(current, ()))
        return cyclic


def typed_objects(domain: ast.Domain, problem: ast.Problem | None = None) -> dict[str, tuple[str, ...]]:
    """Every constant of the domain and object of the problem, with the type names it was declared with.

    An object declared twice (in both places, or twice in one) with different types belongs to each, as
    if declared `(either ...)`: IPC-2011's temporal machine shop declares `kiln0 - kiln8 kiln0 - kiln20`
    and fires kiln0 both ways. The checker reports the repetition (W217).
    """
    declared: dict[str, tuple[str, ...]] = {}
    sections = [domain.constants] + ([problem.objects] if problem is not None else [])
    for section in sections:
        for obj in section:
            types = type_names(obj.type)
            known = declared.get(obj.name)
            declared[obj.name] = types if known is None else merged_types(known, types)
    return declared


def merged_types(first: tuple[str, ...], then: tuple[str, ...]) -> tuple[str, ...]:
    """The types of an object declared with `first` and again with `then`, each named once, in order."""
    return first + tuple(t for t in then if t not in first)


def objects_by_type(hierarchy: TypeHierarchy, objects: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """For every type, the objects that belong to it (directly or through a subtype), in declaration order."""
    members: dict[str, list[str]] = {name: [] for name in hierarchy.declared()}
    for obj, types in objects.items():
        above: set[str] = set()
        for t in types:
            above |= hierarchy.ancestors(t)
        for t in above:
            members.setdefault(t, []).append(obj)
    return {t: tuple(objs) for t, objs in members.items()}
