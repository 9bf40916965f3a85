"""What a domain's effects change, and so what is static: computed once per domain and shared.

The checker (static predicates, I402; functions never assigned), the compiler (static facts folded
into actions) and the semantics (derived predicates that cannot change; functions constant over a plan)
all ask which predicates some effect adds or deletes and which functions some effect updates. Every
effect counts: of actions, durative actions (at start and at end), processes and events.
`changes(domain)` walks the effects once and keeps the answer for the domain (by identity: a domain is
immutable), so each tool asks it again at no cost.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass

from pddltools.pddl import ast


@dataclass(frozen=True, slots=True)
class Changes:
    """The predicates and functions some effect of a domain changes, and the declared ones none does."""

    added: frozenset[str]
    deleted: frozenset[str]
    #: functions some effect updates (assign, increase, decrease, scale-up, scale-down)
    updated_functions: frozenset[str]
    #: functions some effect sets with `assign` (a value given, the old one not read)
    assigned_functions: frozenset[str]
    #: declared predicates no effect adds or deletes, derived predicates excluded
    static_predicates: frozenset[str]
    #: declared functions no effect updates: their values are the initial ones throughout a plan
    static_functions: frozenset[str]

    @property
    def changed_predicates(self) -> frozenset[str]:
        return self.added | self.deleted


def changed_predicates(effect: ast.Effect) -> set[str]:
    """The predicates one effect adds or deletes (not those its conditions read)."""
    added: set[str] = set()
    deleted: set[str] = set()
    _collect([effect], added, deleted, set(), set())
    return added | deleted


def _collect(effects: Iterable[ast.Effect], added: set[str], deleted: set[str], updated: set[str],
             assigned: set[str]) -> None:
    for effect in effects:
        for node in ast.effect_parts(effect):
            if isinstance(node, ast.Atom):
                added.add(node.predicate)
            elif isinstance(node, ast.Not) and isinstance(node.body, ast.Atom):
                deleted.add(node.body.predicate)
            elif isinstance(node, ast.Assign):
                updated.add(node.fluent.function)
                if node.op == "assign":
                    assigned.add(node.fluent.function)


def _compute(domain: ast.Domain) -> Changes:
    added: set[str] = set()
    deleted: set[str] = set()
    updated: set[str] = set()
    assigned: set[str] = set()
    effects = [s.effect for s in (*domain.structures, *domain.processes, *domain.events)
               if not isinstance(s, ast.DerivedPredicate) and s.effect is not None]
    _collect(effects, added, deleted, updated, assigned)
    derived = {d.name for d in domain.derived_predicates}
    static = frozenset(p.name for p in domain.predicates if p.name not in added and p.name not in deleted
                       and p.name not in derived)
    return Changes(frozenset(added), frozenset(deleted), frozenset(updated), frozenset(assigned), static,
                   frozenset(f.name for f in domain.functions if f.name not in updated))


_KEPT = 8  # domains remembered: a command works on one, the language server on a few open at once
_cache: dict[int, tuple[ast.Domain, Changes]] = {}
_lock = threading.Lock()


def changes(domain: ast.Domain) -> Changes:
    """What `domain`'s effects change, computed on the first call for this domain object."""
    kept = _cache.get(id(domain))
    if kept is not None and kept[0] is domain:
        return kept[1]
    found = _compute(domain)
    with _lock:
        if len(_cache) >= _KEPT:
            _cache.pop(next(iter(_cache)))
        _cache[id(domain)] = (domain, found)  # the domain is kept alive, so its id is not reused meanwhile
    return found


def static_predicates(domain: ast.Domain) -> frozenset[str]:
    return changes(domain).static_predicates


def static_functions(domain: ast.Domain) -> frozenset[str]:
    return changes(domain).static_functions
