"""Remove equality of objects, `(= t1 t2)`.

Requires: a task of actions. Guarantees: no object equality anywhere. A positive equality among a
precondition's top-level conjuncts unifies its sides: a parameter equal to a constant or to another
parameter is replaced by it and leaves the parameter list (the back map restores it); an equality of two
constants is decided (false: the action can never apply, and goes). Every other equality becomes a
static `same` atom, and every negated one a static `distinct` atom, with their facts over all objects
in the initial state. Formulas it rewrites come out in negation normal form. The domain stays
domain-level (only the initial state grows).
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from pddltools.compile.formulas import FALSE, TRUE, Rewriter, conjoin, conjuncts, nnf
from pddltools.compile.task import Origin, ParsedTask, PassResult, names_in_use, unique_name
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import OBJECT, TypeHierarchy, type_names, typed_objects

_Name = ast.Variable | ast.Constant


def _is_equality(node: ast.Node) -> bool:
    return (isinstance(node, ast.Comparison) and node.op == "="
            and all(isinstance(side, ast.Variable | ast.Constant) and side.name != "?duration"
                    for side in (node.left, node.right)))


class _Rewriter(Rewriter):
    """Equalities of terms become `same`/`distinct` atoms (on formulas in negation normal form)."""

    def __init__(self, taken: set[str]) -> None:
        self.same = unique_name("same", taken)
        self.distinct = unique_name("distinct", taken)
        self.used: set[str] = set()

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Not) and _is_equality(formula.body):
            return self.equality(cast(ast.Comparison, formula.body), False)
        if _is_equality(formula):
            return self.equality(cast(ast.Comparison, formula), True)
        return super().formula(formula)

    def equality(self, comparison: ast.Comparison, positive: bool) -> ast.Formula:
        left, right = cast(ast.Term, comparison.left), cast(ast.Term, comparison.right)
        if isinstance(left, ast.Constant) and isinstance(right, ast.Constant):
            return TRUE if (left.name == right.name) == positive else FALSE
        if left == right:
            return TRUE if positive else FALSE
        name = self.same if positive else self.distinct
        self.used.add(name)
        return ast.Atom(name, (left, right))

    def condition(self, formula: ast.Formula) -> ast.Formula:
        return self.formula(nnf(formula))


class Types:
    """What unification needs to know of types: a parameter may only be replaced by a term that is
    sure to be of the parameter's type, or the type constraint would be lost."""

    def __init__(self, domain: ast.Domain) -> None:
        self.hierarchy = TypeHierarchy.of(domain)
        self.constants = typed_objects(domain)

    def within(self, term: _Name, parameter: ast.TypedName, parameters: dict[str, ast.TypedName]) -> bool:
        wanted = type_names(parameter.type)
        if wanted == (OBJECT,):
            return True
        if isinstance(term, ast.Constant):
            declared = self.constants.get(term.name)
        else:
            other = parameters.get(term.name)
            declared = type_names(other.type) if other is not None else None
        return declared is not None and all(
            any(self.hierarchy.is_subtype(t, w) for w in wanted) for t in declared)


def unify(action: ast.Action, types: Types) -> tuple[ast.Action, tuple[int | str, ...]] | None:
    """The action with its top-level parameter equalities unified, and how to rebuild its arguments;
    None when the precondition equates two different constants. An equality whose sides' types
    differ is left in place (the caller turns it into a `same` atom)."""
    binding: dict[str, _Name] = {}
    parameters = [p.name for p in action.parameters]
    declared = {p.name: p for p in action.parameters}
    rest: list[ast.Formula] = []
    for part in conjuncts(nnf(action.precondition) if action.precondition else None):
        if not _is_equality(part):
            rest.append(part)
            continue
        comparison = cast(ast.Comparison, part)
        left = _resolve(cast(_Name, comparison.left), binding)
        right = _resolve(cast(_Name, comparison.right), binding)
        if left == right:
            continue
        if isinstance(left, ast.Constant) and isinstance(right, ast.Constant):
            return None
        # Bind a parameter to a constant, or the later of two parameters to the earlier one.
        if isinstance(right, ast.Variable) and right.name in parameters and (
                isinstance(left, ast.Constant) or left.name not in parameters
                or parameters.index(right.name) > parameters.index(left.name)):
            left, right = right, left
        if isinstance(left, ast.Variable) and left.name in declared and types.within(
                right, declared[left.name], declared):
            binding[left.name] = right
        elif isinstance(right, ast.Variable) and right.name in declared and types.within(
                left, declared[right.name], declared):
            binding[right.name] = left
        else:
            rest.append(part)
    if not binding:
        return action, tuple(range(len(action.parameters)))
    binding = {name: _resolve(term, binding) for name, term in binding.items()}
    kept = [p for p in action.parameters if p.name not in binding]
    index = {p.name: i for i, p in enumerate(kept)}
    args: list[int | str] = []
    for p in action.parameters:
        term = binding.get(p.name, ast.Variable(p.name))
        args.append(index[term.name] if isinstance(term, ast.Variable) else term.name)
    terms: dict[str, ast.Term] = dict(binding)
    precondition = ast.substitute(conjoin(rest), terms)
    effect = ast.substitute(action.effect, terms) if action.effect is not None else None
    return replace(action, parameters=tuple(kept), precondition=precondition, effect=effect), tuple(args)


def _resolve(term: _Name, binding: dict[str, _Name]) -> _Name:
    seen = 0
    while isinstance(term, ast.Variable) and term.name in binding and seen < len(binding) + 1:
        term = binding[term.name]
        seen += 1
    return term


def remove_equality(task: ParsedTask) -> PassResult:
    """Unify or replace every object equality (see the module docstring)."""
    rewriter = _Rewriter(names_in_use(task.domain))
    types = Types(task.domain)
    origins: dict[str, Origin] = {}
    structures: list[ast.Structure] = []
    for structure in task.domain.structures:
        if isinstance(structure, ast.DerivedPredicate):
            structures.append(replace(structure, body=rewriter.formula(nnf(structure.body))))
            continue
        if not isinstance(structure, ast.Action):
            structures.append(structure)
            continue
        unified = unify(structure, types)
        if unified is None:
            continue
        action, args = unified
        precondition = rewriter.formula(nnf(action.precondition)) if action.precondition else None
        if precondition == FALSE:
            continue
        effect = rewriter.effect(action.effect) if action.effect is not None else None
        structures.append(replace(action, precondition=precondition, effect=effect))
        origins[action.name] = Origin(action.name, args)
    problem = task.problem
    if problem.goal is not None:
        problem = replace(problem, goal=rewriter.formula(nnf(problem.goal)))
    domain = replace(task.domain, structures=tuple(structures))
    if rewriter.used:
        objects = list(typed_objects(task.domain, task.problem))
        pair = (ast.TypedName("?a"), ast.TypedName("?b"))
        facts: list[ast.InitElement] = []
        if rewriter.same in rewriter.used:
            facts += [ast.Atom(rewriter.same, (ast.Constant(o), ast.Constant(o))) for o in objects]
        if rewriter.distinct in rewriter.used:
            facts += [ast.Atom(rewriter.distinct, (ast.Constant(a), ast.Constant(b)))
                      for a in objects for b in objects if a != b]
        if domain.types or any(c.type is not None for c in domain.constants):
            pair = (ast.TypedName("?a", ast.TypeName("object")), ast.TypedName("?b", ast.TypeName("object")))
        declared = [ast.PredicateDecl(name, pair) for name in (rewriter.same, rewriter.distinct)
                    if name in rewriter.used]
        domain = replace(domain, predicates=(*domain.predicates, *declared))
        problem = replace(problem, init=(*problem.init, *facts))
    return PassResult(ParsedTask(domain, problem), origins)
