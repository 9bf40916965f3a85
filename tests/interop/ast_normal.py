"""A normal form of pddltools' AST for round trips: what neither tarski nor UP keeps is left out.

Both bridges document what does not survive the trip; this is that list, once:
- requirements (each bridge recomputes them), and whether a name is a domain constant or a problem object;
- parameter names of predicates and functions (only their types are kept);
- the grouping of conjunctions, the order of conjuncts and effects, `(and p)` against `p`;
- `(when c (and e1 e2))` against `(and (when c e1) (when c e2))`, and likewise for `forall` and `at`;
  `(at end (forall (?x) (when c e)))` against `(forall (?x) (when (at end c) (at end e)))`;
- `(>= a b)` against `(<= b a)`, and `(> a b)` against `(< b a)` (UP writes comparisons so);
- `(assign f (+ f e))` against `(increase f e)` (likewise `-`, `*`, `/`), and an `(increase (total-cost) 0)`;
- negative literals in `:init` (the closed world says them), and the number types of `1` and `1.0`;
- whether a type was declared or only used as a parent (both are a type under `object`);
- for tarski only (`implications=False`): `(imply a b)`, which tarski keeps as `(or (not a) b)`.
"""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from typing import Any

from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import NUMBER, OBJECT, TypeHierarchy, type_names

_OPS = {"increase": "+", "decrease": "-", "scale-up": "*", "scale-down": "/"}


def _type(ref: ast.TypeRef | None) -> str:
    return "|".join(sorted(type_names(ref)))


def _typed(names: tuple[ast.TypedName, ...]) -> tuple[tuple[str, str], ...]:
    return tuple((n.name, _type(n.type)) for n in names)


def term(t: ast.Expression) -> str:
    if isinstance(t, ast.Variable | ast.Constant):
        return t.name
    if isinstance(t, ast.Number):
        return repr(float(Fraction(t.value)))
    if isinstance(t, ast.FunctionTerm):
        return f"({t.function} {' '.join(term(a) for a in t.args)})"
    if isinstance(t, ast.Arithmetic):
        return f"({t.op} {' '.join(term(a) for a in t.args)})"
    if isinstance(t, ast.ContinuousTime):
        return "#t"
    return f"(is-violated {t.preference})"


def _flat(f: ast.Formula, kind: type[ast.And] | type[ast.Or]) -> list[str]:
    if isinstance(f, kind):
        return [c for p in f.parts for c in _flat(p, kind)]
    return [formula(f)]


def without_implications(node: Any) -> Any:
    """The same tree with every `(imply a b)` written `(or (not a) b)`."""
    if isinstance(node, tuple):
        return tuple(without_implications(x) for x in node)
    if not isinstance(node, ast.Node):
        return node
    if isinstance(node, ast.Imply):
        return ast.Or((ast.Not(without_implications(node.condition)), without_implications(node.consequence)))
    changes = {f.name: without_implications(getattr(node, f.name)) for f in fields(node) if f.name != "span"}
    return replace(node, **changes)


def formula(f: ast.Formula | None) -> str:
    if f is None:
        return "true"
    if isinstance(f, ast.And):
        parts = sorted(set(_flat(f, ast.And)))
        return parts[0] if len(parts) == 1 else f"(and {' '.join(parts)})" if parts else "true"
    if isinstance(f, ast.Or):
        parts = sorted(set(_flat(f, ast.Or)))
        return parts[0] if len(parts) == 1 else f"(or {' '.join(parts)})"
    if isinstance(f, ast.Atom):
        return f"({f.predicate} {' '.join(term(a) for a in f.args)})"
    if isinstance(f, ast.Not):
        return f"(not {formula(f.body)})"
    if isinstance(f, ast.Imply):
        return f"(imply {formula(f.condition)} {formula(f.consequence)})"
    if isinstance(f, ast.Exists | ast.Forall):
        return f"({type(f).__name__} {_typed(f.variables)} {formula(f.body)})"
    if isinstance(f, ast.Comparison):
        if f.op in (">", ">="):  # UP writes `(>= a b)` as `b <= a`
            return f"({'<' if f.op == '>' else '<='} {term(f.right)} {term(f.left)})"
        return f"({f.op} {term(f.left)} {term(f.right)})"
    if isinstance(f, ast.Timed):
        return f"({f.time} {formula(f.body)})"  # type: ignore[arg-type]
    return str(f)


def effects(e: ast.Effect | None, condition: str = "true", time: str = "", forall: str = "") -> frozenset[str]:
    """Every simple effect with its time, forall variables and condition, however they were nested."""
    if e is None:
        return frozenset()
    if isinstance(e, ast.AndEffect):
        return frozenset(x for p in e.parts for x in effects(p, condition, time, forall))
    if isinstance(e, ast.When):
        cond = e.condition.body if isinstance(e.condition, ast.Timed) else e.condition  # at the effect's time
        inner = formula(cond)  # type: ignore[arg-type]
        return effects(e.body, inner if condition == "true" else f"(and {condition} {inner})", time, forall)
    if isinstance(e, ast.ForallEffect):
        return effects(e.body, condition, time, f"{forall} {_typed(e.variables)}".strip())
    if isinstance(e, ast.Timed):
        return effects(e.body, condition, e.time, forall)  # type: ignore[arg-type]
    prefix = f"{time}|{forall}|{condition} ->"
    if isinstance(e, ast.Assign):
        op, value = e.op, e.value
        if op == "assign" and isinstance(value, ast.Arithmetic) and len(value.args) == 2 and value.args[0] == e.fluent:
            for name, symbol in _OPS.items():
                if symbol == value.op:
                    op, value = name, value.args[1]  # type: ignore[assignment]
        if e.fluent.function == "total-cost" and op == "increase" and term(value) == "0.0":
            return frozenset()
        return frozenset({f"{prefix} {op} {term(e.fluent)} {term(value)}"})
    if isinstance(e, ast.Not):
        return frozenset({f"{prefix} del {formula(e.body)}"})
    return frozenset({f"{prefix} add {formula(e)}"})


def _structure(s: ast.Structure) -> Any:
    if isinstance(s, ast.Action):
        return ("action", s.name, _typed(s.parameters), formula(s.precondition), effects(s.effect))
    if isinstance(s, ast.DurativeAction):
        return ("durative", s.name, _typed(s.parameters), formula(s.duration), formula(s.condition),
                effects(s.effect))
    return ("derived", s.name, _typed(s.predicate.parameters), formula(s.body))


def _init(element: ast.InitElement) -> str | None:
    if isinstance(element, ast.Not):
        return None
    if isinstance(element, ast.InitAssignment):
        return f"(= {term(element.fluent)} {term(element.value)})"
    if isinstance(element, ast.TimedInitial):
        inner = _init(element.body)
        return None if inner is None else f"(at {term(element.time)} {inner})"
    return formula(element)


def normal_form(domain: ast.Domain, problem: ast.Problem, *, implications: bool = True) -> dict[str, Any]:
    if not implications:
        domain, problem = without_implications(domain), without_implications(problem)
    hierarchy = TypeHierarchy.of(domain)
    objects: dict[str, str] = {}
    for o in (*domain.constants, *problem.objects):
        objects.setdefault(o.name, _type(o.type))
    return {
        "names": (domain.name, problem.name),
        "types": {t: tuple(sorted(p)) for t, p in hierarchy.parents.items() if t not in (OBJECT, NUMBER)},
        "objects": objects,
        "predicates": {p.name: tuple(_type(x.type) for x in p.parameters) for p in domain.predicates},
        "functions": {
            f.name: (tuple(_type(x.type) for x in f.parameters), _type(f.type) if f.type else "number")
            for f in domain.functions
        },
        "structures": {_structure(s) for s in domain.structures},
        "init": {x for x in map(_init, problem.init) if x is not None},
        "goal": formula(problem.goal),
        "metric": (problem.metric.direction, term(problem.metric.expression)) if problem.metric else None,
    }
