"""Stratification of derived predicates: negation only across strata, never inside a cycle."""

from __future__ import annotations

from collections.abc import Iterator

from pddltools.pddl import ast
from pddltools.semantics.errors import NotStratified


def _uses(formula: ast.Node, positive: bool) -> Iterator[tuple[str, bool]]:
    """Every predicate a formula mentions, with whether it occurs positively."""
    if isinstance(formula, ast.Atom):
        yield formula.predicate, positive
    elif isinstance(formula, ast.Not):
        yield from _uses(formula.body, not positive)
    elif isinstance(formula, ast.Imply):
        yield from _uses(formula.condition, not positive)
        yield from _uses(formula.consequence, positive)
    else:
        for child in formula.children():
            yield from _uses(child, positive)


def strata(rules: tuple[ast.DerivedPredicate, ...]) -> list[list[ast.DerivedPredicate]]:
    """The rules grouped into strata, lowest first: a predicate used negatively by a rule of stratum k
    is fully computed in a stratum below k. Raises `NotStratified` when that is impossible."""
    derived = {rule.name for rule in rules}
    level = dict.fromkeys(derived, 0)
    deps = {name: [(p, pos) for rule in rules if rule.name == name
                   for p, pos in _uses(rule.body, True) if p in derived] for name in derived}
    # Bellman-Ford style relaxation: more than |derived| rounds of change means a negative cycle.
    for _ in range(len(derived) + 1):
        changed = False
        for name, uses in deps.items():
            for other, positive in uses:
                need = level[other] + (0 if positive else 1)
                if level[name] < need:
                    level[name] = need
                    changed = True
        if not changed:
            break
    else:
        cyclic = sorted(n for n in derived if level[n] > len(derived))
        raise NotStratified(f"derived predicates {', '.join(cyclic) or sorted(derived)[0]} depend on their own "
                            "negation, so they have no stratified meaning")
    groups: dict[int, list[ast.DerivedPredicate]] = {}
    for rule in rules:
        groups.setdefault(level[rule.name], []).append(rule)
    return [groups[k] for k in sorted(groups)]
