"""Remove derived predicates by substituting their definitions where they are used.

Requires: nothing. Guarantees: no `:derived` and no atom of a derived predicate: each use becomes the
definition's body (the disjunction of the bodies when a predicate has several rules) with the
arguments put in for its parameters and its own quantified variables renamed apart. Only definitions
that do not depend on themselves can be substituted: a recursive predicate is refused, naming it and
the cycle. The domain stays domain-level; formulas may grow (the checker's size report shows how much).
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import Fresh, disjoin, map_effect, sub_formula, variables_in
from pddltools.compile.task import Step, Task, identity
from pddltools.pddl import ast


def _dependencies(rules: dict[str, list[ast.DerivedPredicate]]) -> dict[str, set[str]]:
    return {name: {n.predicate for r in group for n in r.body.walk()
                   if isinstance(n, ast.Atom) and n.predicate in rules}
            for name, group in rules.items()}


def _cycle(dependencies: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for other in sorted(dependencies[name]):
            if state.get(other) == 1:
                return [*path[path.index(other):], other]
            if other not in state:
                found = visit(other)
                if found:
                    return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(dependencies):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


class _Substituter:
    def __init__(self, rules: dict[str, list[ast.DerivedPredicate]]) -> None:
        self.rules = rules
        self.cache: dict[ast.Atom, ast.Formula] = {}

    def formula(self, formula: ast.Formula, fresh: Fresh) -> ast.Formula:
        if isinstance(formula, ast.Atom) and formula.predicate in self.rules:
            return self.expand(formula, fresh)
        if isinstance(formula, ast.And | ast.Or):
            return replace(formula, parts=tuple(self.formula(p, fresh) for p in formula.parts))
        if isinstance(formula, ast.Not | ast.Exists | ast.Forall | ast.Preference | ast.Timed):
            return replace(formula, body=self.formula(formula.body, fresh))  # type: ignore[arg-type]
        if isinstance(formula, ast.Imply):
            return ast.Imply(self.formula(formula.condition, fresh), self.formula(formula.consequence, fresh))
        return formula

    def expand(self, atom: ast.Atom, fresh: Fresh) -> ast.Formula:
        bodies = []
        for rule in self.rules[atom.predicate]:
            pairs = zip(rule.predicate.parameters, atom.args, strict=True)
            mapping: dict[str, ast.Term] = {p.name: arg for p, arg in pairs}
            body = self.formula(rule.body, fresh)
            bodies.append(sub_formula(_rename_bound(body, fresh), mapping))
        return disjoin(bodies)

    def effect(self, effect: ast.Effect, fresh: Fresh) -> ast.Effect:
        return map_effect(effect, lambda condition: self.formula(condition, fresh))


def _rename_bound(formula: ast.Formula, fresh: Fresh) -> ast.Formula:
    """Rename the quantified variables of a substituted body apart from those where it lands."""
    if isinstance(formula, ast.Exists | ast.Forall):
        mapping: dict[str, ast.Term] = {}
        variables = []
        for v in formula.variables:
            name = fresh(v.name + "-")
            mapping[v.name] = ast.Variable(name)
            variables.append(ast.TypedName(name, v.type))
        body = _rename_bound(sub_formula(formula.body, mapping), fresh)
        return replace(formula, variables=tuple(variables), body=body)
    if isinstance(formula, ast.And | ast.Or):
        return replace(formula, parts=tuple(_rename_bound(p, fresh) for p in formula.parts))
    if isinstance(formula, ast.Not):
        return ast.Not(_rename_bound(formula.body, fresh))
    if isinstance(formula, ast.Imply):
        return ast.Imply(_rename_bound(formula.condition, fresh), _rename_bound(formula.consequence, fresh))
    return formula


def remove_derived(task: Task) -> Step:
    """Substitute every derived predicate (see the module docstring)."""
    domain, problem = task.domain, task.problem
    rules: dict[str, list[ast.DerivedPredicate]] = {}
    for rule in domain.derived_predicates:
        rules.setdefault(rule.name, []).append(rule)
    cycle = _cycle(_dependencies(rules))
    if cycle:
        raise compile_error("E802", f"the derived predicate {cycle[0]} is recursive ({' -> '.join(cycle)}); "
                            "only non-recursive definitions can be substituted", rules[cycle[0]][0].span)
    substituter = _Substituter(rules)
    structures: list[ast.Structure] = []
    for s in domain.structures:
        if isinstance(s, ast.DerivedPredicate):
            continue
        if isinstance(s, ast.Action):
            fresh = Fresh(variables_in(s))
            s = replace(s, precondition=substituter.formula(s.precondition, fresh) if s.precondition else None,
                        effect=substituter.effect(s.effect, fresh) if s.effect else None)
        structures.append(s)
    goal = substituter.formula(problem.goal, Fresh(variables_in(problem.goal))) if problem.goal else None
    predicates = tuple(p for p in domain.predicates if p.name not in rules)
    domain = replace(domain, predicates=predicates, structures=tuple(structures))
    return Step(Task(domain, replace(problem, goal=goal)), identity(domain))
