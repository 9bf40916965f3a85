"""Remove action costs (for planners that ignore them).

Requires: nothing. Guarantees: no `total-cost`: its increases, declaration, initial value and the metric
over it go, and so do the functions that only costs read (with their initial values). The step keeps
each action's cost expression for the back map. The domain stays domain-level.
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.check.features import TOTAL_COST
from pddltools.compile.task import ParsedTask, PassResult, identity
from pddltools.pddl import ast
from pddltools.static_typing import assert_never


def _strip(effect: ast.Effect, costs: list[ast.Expression]) -> ast.Effect | None:
    match effect:
        case ast.Assign() if effect.fluent.function == TOTAL_COST:
            costs.append(effect.value)
            return None
        case ast.AndEffect():
            parts = [p for p in (_strip(e, costs) for e in effect.parts) if p is not None]
            return ast.AndEffect(tuple(parts))
        case ast.When() | ast.ForallEffect():
            body = _strip(effect.body, costs)
            return None if body is None else replace(effect, body=body)
        case ast.Atom() | ast.Not() | ast.Assign() | ast.Timed():
            return effect
        case _:
            assert_never(effect)


def _functions(node: ast.Node | None) -> set[str]:
    return set() if node is None else {n.function for n in node.walk() if isinstance(n, ast.FunctionTerm)}


def remove_costs(task: ParsedTask) -> PassResult:
    """Drop action costs (see the module docstring)."""
    domain, problem = task.domain, task.problem
    structures: list[ast.Structure] = []
    recorded: dict[str, str] = {}
    used: set[str] = set()
    for s in domain.structures:
        if isinstance(s, ast.Action) and s.effect is not None:
            found: list[ast.Expression] = []
            effect = _strip(s.effect, found) or ast.AndEffect()
            if found:
                recorded[s.name] = " + ".join(str(e) for e in found)
            s = replace(s, effect=effect)
        for part in ("precondition", "effect", "body", "condition", "duration"):
            used |= _functions(getattr(s, part, None))
        structures.append(s)
    metric = problem.metric
    if metric is not None and TOTAL_COST in _functions(metric.expression):
        metric = None
    used |= _functions(metric.expression if metric else None) | _functions(problem.goal)
    used |= _functions(domain.constraints) | _functions(problem.constraints)
    used.discard(TOTAL_COST)
    functions = tuple(f for f in domain.functions if f.name in used)
    init = tuple(e for e in problem.init
                 if not (isinstance(e, ast.InitAssignment) and e.fluent.function not in used))
    domain = replace(domain, functions=functions, structures=tuple(structures))
    problem = replace(problem, init=init, metric=metric)
    return PassResult(ParsedTask(domain, problem), identity(domain), costs=recorded)
