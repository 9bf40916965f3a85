"""Remove typing, with unary type predicates (for untyped planners).

Requires: nothing. Guarantees: no types anywhere. Each type that some parameter, quantified variable or
predicate argument is declared with (other than `object`) becomes a unary predicate, true in the
initial state of every object of that type or below it; `(either a b)` becomes one predicate for the
union. An action's typed parameter becomes a precondition on it, an `exists` variable a conjunct, a
`forall` variable a condition (`imply` in formulas, `when` in effects). The domain stays domain-level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pddltools.compile.formulas import TRUE, Rewriter, conjoin, disjoin, nnf
from pddltools.compile.task import ParsedTask, PassResult, identity, names_in_use, unique_name
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import OBJECT, TypeHierarchy, type_names, typed_objects
from pddltools.static_typing import assert_never


class _Types(Rewriter):
    """Type predicates for typed variables; `formula` keeps the connectives as written."""

    def __init__(self, domain: ast.Domain) -> None:
        self.hierarchy = TypeHierarchy.of(domain)
        self.taken = names_in_use(domain) - {t.name for t in domain.types}
        self.predicates: dict[tuple[str, ...], str] = {}

    def predicate(self, ref: ast.TypeRef | None) -> str | None:
        names = tuple(sorted(set(type_names(ref))))
        if OBJECT in names:
            return None
        if names not in self.predicates:
            self.predicates[names] = unique_name(names[0] if len(names) == 1 else "either-" + "-".join(names),
                                                 self.taken)
        return self.predicates[names]

    def guards(self, variables: Sequence[ast.TypedName]) -> list[ast.Formula]:
        out: list[ast.Formula] = []
        for v in variables:
            name = self.predicate(v.type)
            if name is not None:
                out.append(ast.Atom(name, (ast.Variable(v.name),)))
        return out

    def formula(self, formula: ast.Formula) -> ast.Formula:
        match formula:
            case ast.And() | ast.Or():
                return replace(formula, parts=tuple(self.formula(p) for p in formula.parts))
            case ast.Not() | ast.Preference():
                return replace(formula, body=self.formula(formula.body))
            case ast.Imply():
                return ast.Imply(self.formula(formula.condition), self.formula(formula.consequence))
            case ast.Exists():
                return ast.Exists(_untyped(formula.variables),
                                  conjoin([*self.guards(formula.variables), self.formula(formula.body)]))
            case ast.Forall():
                guards = self.guards(formula.variables)
                body = self.formula(formula.body)
                if guards:
                    body = disjoin([*(nnf(ast.Not(g)) for g in guards), body])
                return ast.Forall(_untyped(formula.variables), body)
            case (ast.Atom() | ast.Comparison() | ast.Timed() | ast.Always() | ast.Sometime() | ast.Within()
                  | ast.AtMostOnce() | ast.SometimeAfter() | ast.SometimeBefore() | ast.AlwaysWithin()
                  | ast.HoldDuring() | ast.HoldAfter()):
                return formula  # no variable of these is declared here (the targets have no time, no trajectory)
            case _:
                assert_never(formula)

    def effect(self, effect: ast.Effect) -> ast.Effect:
        if isinstance(effect, ast.ForallEffect):
            guards = self.guards(effect.variables)
            body = self.effect(effect.body)
            return ast.ForallEffect(_untyped(effect.variables), ast.When(conjoin(guards), body) if guards else body)
        return super().effect(effect)


def _untyped(names: Sequence[ast.TypedName]) -> tuple[ast.TypedName, ...]:
    return tuple(ast.TypedName(n.name) for n in names)


def remove_typing(task: ParsedTask) -> PassResult:
    """Replace types by unary predicates (see the module docstring)."""
    domain, problem = task.domain, task.problem
    types = _Types(domain)
    structures: list[ast.Structure] = []
    for s in domain.structures:
        if isinstance(s, ast.Action):
            pre = conjoin([*types.guards(s.parameters), *types.guards(s.vars),
                           types.formula(s.precondition) if s.precondition else TRUE])
            structures.append(replace(s, parameters=_untyped(s.parameters), vars=_untyped(s.vars),
                                      precondition=pre, effect=types.effect(s.effect) if s.effect else None))
        elif isinstance(s, ast.DerivedPredicate):
            body = conjoin([*types.guards(s.predicate.parameters), types.formula(s.body)])
            structures.append(ast.DerivedPredicate(ast.PredicateDecl(s.name, _untyped(s.predicate.parameters)), body))
        else:  # a durative action: its parameters' types hold at its start
            guards: list[ast.Formula] = [ast.Timed("start", g) for g in types.guards(s.parameters)]
            condition = conjoin([*guards, types.formula(s.condition) if s.condition else TRUE])
            structures.append(replace(s, parameters=_untyped(s.parameters), condition=condition,
                                      effect=types.effect(s.effect) if s.effect else None))
    goal = types.formula(problem.goal) if problem.goal is not None else None
    predicates = [ast.PredicateDecl(p.name, _untyped(p.parameters)) for p in domain.predicates]
    facts: list[ast.InitElement] = []
    for members, name in types.predicates.items():
        predicates.append(ast.PredicateDecl(name, (ast.TypedName("?x"),)))
        wanted = ast.Either(tuple(ast.TypeName(m) for m in members))
        for obj, declared in typed_objects(domain, problem).items():
            if types.hierarchy.fits(declared, wanted):
                facts.append(ast.Atom(name, (ast.Constant(obj),)))
    functions = tuple(replace(f, parameters=_untyped(f.parameters)) for f in domain.functions)
    domain = replace(domain, types=(), constants=_untyped(domain.constants), predicates=tuple(predicates),
                     functions=functions, structures=tuple(structures))
    problem = replace(problem, objects=_untyped(problem.objects), init=(*problem.init, *facts), goal=goal)
    return PassResult(ParsedTask(domain, problem), identity(domain))
