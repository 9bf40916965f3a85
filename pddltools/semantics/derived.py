"""Stratification of derived predicates: negation only across strata, never inside a cycle.

The predicates are grouped into strongly connected components of their dependency graph and ordered
so that every component comes after the ones it uses. A component without a cycle needs one pass of
its rules; a recursive one is iterated to its least fixpoint. A negative use inside a component is a
predicate depending on its own negation: no stratified meaning exists.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pddltools.pddl import ast
from pddltools.semantics.errors import NotStratified

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    K = TypeVar("K", int, str)


@dataclass(frozen=True, slots=True)
class Stratum:
    rules: tuple[ast.DerivedPredicate, ...]
    recursive: bool


def polarities(formula: ast.Node, positive: bool = True) -> Iterator[tuple[str, bool]]:
    """Every predicate a formula mentions, with whether it occurs positively."""
    if isinstance(formula, ast.Atom):
        yield formula.predicate, positive
    elif isinstance(formula, ast.Not):
        yield from polarities(formula.body, not positive)
    elif isinstance(formula, ast.Imply):
        yield from polarities(formula.condition, not positive)
        yield from polarities(formula.consequence, positive)
    else:
        for child in formula.children():
            yield from polarities(child, positive)


def strata(rules: tuple[ast.DerivedPredicate, ...]) -> list[Stratum]:
    """The rules in evaluation order, lowest first. Raises `NotStratified` when a derived predicate
    depends on its own negation."""
    derived = list(dict.fromkeys(rule.name for rule in rules))
    edges: dict[str, set[tuple[str, bool]]] = {name: set() for name in derived}
    for rule in rules:
        edges[rule.name].update((p, pos) for p, pos in polarities(rule.body, True) if p in edges)
    components = strongly_connected(derived, {n: {p for p, _ in e} for n, e in edges.items()})
    out = []
    for component in components:
        members = set(component)
        for name in component:
            negative = sorted(p for p, pos in edges[name] if p in members and not pos)
            if negative:
                raise NotStratified(name, negative[0])
        recursive = len(component) > 1 or any(p in members for p, _ in edges[component[0]])
        out.append(Stratum(tuple(r for r in rules if r.name in members), recursive))
    return out


def strongly_connected(nodes: list[K], succ: dict[K, set[K]]) -> list[list[K]]:
    """Tarjan's strongly connected components, without recursion (a chain of ground derived atoms may
    be thousands long); each component comes after every component it points to. For the strata of
    derived predicates here and the axiom layers of the grounder."""
    index: dict[K, int] = {}
    low: dict[K, int] = {}
    on_stack: set[K] = set()
    stack: list[K] = []
    out: list[list[K]] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(succ[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(succ[w]))))
                    advanced = True
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                component: list[K] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                out.append(component)
    return out
