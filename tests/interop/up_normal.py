"""A normal form of a Unified Planning problem, to compare ours with UP's PDDL reader's up to ordering.

Conjunctions and disjunctions are sets, and so are each action's conditions and effects at each time,
the initial values, goals and timed effects; numbers are compared by value.
"""

from __future__ import annotations

from typing import Any

from unified_planning.model import metrics
from unified_planning.model.operators import OperatorKind

_FLAT = {OperatorKind.AND, OperatorKind.OR}


def expr(node: Any) -> str:
    if node.is_fluent_exp():
        return f"({node.fluent().name} {' '.join(expr(a) for a in node.args)})"
    if node.is_parameter_exp():
        return f"?{node.parameter().name}"
    if node.is_variable_exp():
        return f"?{node.variable().name}"
    if node.is_object_exp():
        return node.object().name
    if node.is_bool_constant():
        return str(node.constant_value()).lower()
    if node.is_int_constant() or node.is_real_constant():
        return repr(float(node.constant_value()))
    args = [expr(a) for a in node.args]
    if node.node_type in _FLAT:
        flat: list[str] = []
        for a, text in zip(node.args, args, strict=True):
            flat.extend(expr(x) for x in a.args) if a.node_type == node.node_type else flat.append(text)
        args = sorted(set(flat))
    if node.is_exists() or node.is_forall():
        variables = " ".join(sorted(f"{v.name}:{v.type}" for v in node.variables()))
        return f"({node.node_type.name} ({variables}) {' '.join(args)})"
    return f"({node.node_type.name} {' '.join(args)})"


def effect(e: Any) -> str:
    forall = " ".join(sorted(f"{v.name}:{v.type}" for v in e.forall))
    return f"[{forall}] {expr(e.condition)} -> {e.kind.name} {expr(e.fluent)} {expr(e.value)}"


def _signature(parameters: Any) -> tuple[tuple[str, str], ...]:
    return tuple((p.name, str(p.type)) for p in parameters)


def _conjuncts(nodes: Any) -> list[str]:
    out: list[str] = []
    for node in nodes:
        out.extend(expr(a) for a in node.args) if node.is_and() else out.append(expr(node))
    return sorted(set(out) - {"true"})


def action(a: Any) -> Any:
    if hasattr(a, "duration"):
        d = a.duration
        return (
            "durative", _signature(a.parameters),
            (expr(d.lower), expr(d.upper), d.is_left_open(), d.is_right_open()),
            {str(t): _conjuncts(c) for t, c in a.conditions.items()},
            {str(t): sorted(effect(e) for e in el) for t, el in a.effects.items()},
            {str(t): sorted(effect(e) for e in el) for t, el in a.continuous_effects.items()},
        )
    effects = sorted(effect(e) for e in a.effects)
    return ("instantaneous", _signature(a.parameters), _conjuncts(a.preconditions), effects)


def metric(m: Any) -> Any:
    if isinstance(m, metrics.MinimizeActionCosts):
        return ("action-costs", {a.name: expr(c) for a, c in m.costs.items()},
                expr(m.default) if m.default is not None else None)
    if isinstance(m, metrics.MinimizeExpressionOnFinalState | metrics.MaximizeExpressionOnFinalState):
        return (type(m).__name__, expr(m.expression))
    return type(m).__name__


def normal_form(problem: Any) -> dict[str, Any]:
    return {
        "name": problem.name,
        "types": {str(t.name): (t.father.name if t.father is not None else None) for t in problem.user_types},
        "fluents": {f.name: (str(f.type), _signature(f.signature)) for f in problem.fluents},
        "objects": {o.name: str(o.type) for o in problem.all_objects},
        "actions": {a.name: action(a) for a in problem.actions},
        "init": sorted(f"{expr(k)} = {expr(v)}" for k, v in problem.explicit_initial_values.items()),
        "timed": {str(t): sorted(effect(e) for e in el) for t, el in problem.timed_effects.items()},
        "goals": _conjuncts(problem.goals),
        "constraints": _conjuncts(problem.trajectory_constraints),
        "metrics": [metric(m) for m in problem.quality_metrics],
    }
