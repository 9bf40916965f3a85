"""A normal form of a tarski problem, to compare ours with tarski's reader's up to ordering.

Conjunctions, disjunctions, effect lists, declarations and the initial state are compared as sets; action
names are lower case (tarski's reader keeps an action's case, pddltools normalises every name); numbers
are compared by value.
"""

from __future__ import annotations

from typing import Any

from tarski import fstrips as fs
from tarski import syntax as s

NUMERIC = {"number", "Real", "Integer", "Natural"}


def term(t: Any) -> str:
    if isinstance(t, s.Variable):
        return t.symbol
    if isinstance(t, s.Constant):
        if t.sort.builtin or t.sort.name in NUMERIC:
            return repr(float(t.symbol))
        return str(t.symbol)
    if isinstance(t, s.CompoundTerm):
        return f"({t.symbol.name if not t.symbol.builtin else t.symbol.symbol} {' '.join(term(a) for a in t.subterms)})"
    if isinstance(t, int | float):
        return repr(float(t))
    raise TypeError(t)


def formula(f: Any) -> str:
    if isinstance(f, s.Tautology):
        return "true"
    if isinstance(f, s.Contradiction):
        return "false"
    if isinstance(f, s.Atom):
        name = str(f.predicate.symbol) if f.predicate.builtin else f.predicate.name
        return f"({name} {' '.join(term(a) for a in f.subterms)})"
    if isinstance(f, s.CompoundFormula):
        parts = [formula(p) for p in f.subformulas]
        if f.connective in (s.Connective.And, s.Connective.Or):
            parts = sorted(set(parts))
        return f"({f.connective.name} {' '.join(parts)})"
    if isinstance(f, s.QuantifiedFormula):
        variables = " ".join(sorted(f"{v.symbol}:{v.sort.name}" for v in f.variables))
        return f"({f.quantifier.name} ({variables}) {formula(f.formula)})"
    raise TypeError(f)


def effect(e: Any) -> str:
    condition = formula(e.condition) if e.condition is not None else "true"
    if isinstance(e, fs.UniversalEffect):
        variables = " ".join(sorted(f"{v.symbol}:{v.sort.name}" for v in e.variables))
        inner = sorted(effect(x) for x in e.effects)
        return f"{condition} -> forall ({variables}) {inner}"
    if isinstance(e, fs.AddEffect):
        return f"{condition} -> add {formula(e.atom)}"
    if isinstance(e, fs.DelEffect):
        return f"{condition} -> del {formula(e.atom)}"
    if isinstance(e, fs.FunctionalEffect):
        return f"{condition} -> {term(e.lhs)} := {term(e.rhs)}"
    raise TypeError(e)


def value(v: Any) -> str:
    if isinstance(v, s.Constant) and not (v.sort.builtin or v.sort.name in NUMERIC):
        return str(v.symbol)
    raw = v.symbol if isinstance(v, s.Constant) else v
    return repr(float(raw))


def normal_form(problem: Any) -> dict[str, Any]:
    lang = problem.language
    sorts = {
        x.name: (lang.immediate_parent[x].name if lang.immediate_parent[x] is not None else None)
        for x in lang.sorts if not x.builtin and x.name not in NUMERIC
    }
    actions = {
        name.lower(): (
            tuple((v.symbol, v.sort.name) for v in a.parameters),
            formula(a.precondition),
            sorted(effect(e) for e in a.effects),
            term(a.cost.addend) if a.cost is not None else None,
        )
        for name, a in problem.actions.items()
    }
    atoms: list[str] = []
    values: list[tuple[str, str]] = []
    for element in problem.init.as_atoms():
        if isinstance(element, tuple):
            values.append((term(element[0]), value(element[1])))
        else:
            atoms.append(formula(element))
    metric = None
    if problem.plan_metric is not None:
        metric = (str(problem.plan_metric.opt_type), term(problem.plan_metric.opt_expression))
    return {
        "sorts": sorts,
        "constants": {c.name: c.sort.name for c in lang.constants()},
        "predicates": {p.name: tuple(x.name for x in p.domain) for p in lang.predicates if not p.builtin},
        "functions": {
            f.name: (tuple(x.name for x in f.domain), f.codomain.name) for f in lang.functions if not f.builtin
        },
        "actions": actions,
        "init": (sorted(atoms), sorted(values)),
        "goal": formula(problem.goal),
        "metric": metric,
    }
