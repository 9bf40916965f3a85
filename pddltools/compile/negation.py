"""Remove negative preconditions and goals, with complement predicates.

Requires: a task of actions; derived predicates may stay but must not be negated (their complement
would need a derived definition of its own). Guarantees: no negated atom in any precondition, goal or
effect condition. For each predicate `p` negated somewhere, a predicate `not-p` with the same
parameters holds exactly when `p` does not: the initial state gets `not-p` for every tuple of objects
(of the parameters' types) where `p` is false, and every effect that adds `p` deletes `not-p` and vice
versa. Formulas come out in negation normal form. The domain stays domain-level.

One subtlety: PDDL applies deletes before adds, so an action that deletes `p(?x)` and adds `p(?y)`
leaves `p` true when `?x` and `?y` are the same object, and the complement must then stay false. Such an
action is split by whether the arguments coincide: a copy with them unified (where the add simply wins)
and copies with an inequality `(not (= ...))` for the first position that differs, which the equality
pass turns into a static `distinct` atom. Only unconditional effects are split so: with conditional
effects kept (`--remove negative-preconditions` alone), a conditional add and delete of the same atom
in one action can leave a complement out of step; the STRIPS targets remove conditional effects first.
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.compile.equality import Types, unify
from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import TRUE, Rewriter, Universe, conjoin, conjuncts, flat_effect, nnf
from pddltools.compile.task import Origin, ParsedTask, PassResult, names_in_use, unique_name
from pddltools.pddl import ast


def _negated(formula: ast.Formula | None, out: set[str]) -> None:
    if formula is None:
        return
    for node in formula.walk():
        if isinstance(node, ast.Not) and isinstance(node.body, ast.Atom):
            out.add(node.body.predicate)


def _conditions(effect: ast.Effect | None) -> list[ast.Formula]:
    if effect is None:
        return []
    return [n.condition for n in effect.walk() if isinstance(n, ast.When)]


class _Complements(Rewriter):
    """Negated literals of the complemented predicates read their complement; effects keep both in step
    (on formulas in negation normal form)."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Not) and isinstance(formula.body, ast.Atom) and formula.body.predicate in self.names:
            return ast.Atom(self.names[formula.body.predicate], formula.body.args)
        return super().formula(formula)

    def condition(self, formula: ast.Formula) -> ast.Formula:
        return self.formula(nnf(formula))

    def literal(self, effect: ast.Effect) -> ast.Effect:
        if isinstance(effect, ast.Atom) and effect.predicate in self.names:
            return ast.AndEffect((effect, ast.Not(ast.Atom(self.names[effect.predicate], effect.args))))
        if isinstance(effect, ast.Not) and isinstance(effect.body, ast.Atom) and effect.body.predicate in self.names:
            return ast.AndEffect((effect, ast.Atom(self.names[effect.body.predicate], effect.body.args)))
        return effect


def remove_negation(task: ParsedTask) -> PassResult:
    """Replace negated atoms by complement atoms (see the module docstring)."""
    domain, problem = task.domain, task.problem
    negated: set[str] = set()
    for structure in domain.structures:
        if isinstance(structure, ast.Action):
            _negated(nnf(structure.precondition) if structure.precondition else None, negated)
            for condition in _conditions(structure.effect):
                _negated(nnf(condition), negated)
        elif isinstance(structure, ast.DerivedPredicate):
            _negated(nnf(structure.body), negated)
    if problem.goal is not None:
        _negated(nnf(problem.goal), negated)
    derived = {d.name: d for d in domain.derived_predicates}
    for name in sorted(negated & derived.keys()):
        raise compile_error("E801", f"the derived predicate {name} is negated; remove derived-predicates too",
                            derived[name].span)
    declared = {p.name: p for p in domain.predicates}
    taken = names_in_use(domain)
    names = {p: unique_name(f"not-{p}", taken) for p in sorted(negated) if p in declared}
    rewrite = _Complements(names)
    types = Types(domain)
    structures: list[ast.Structure] = []
    origins: dict[str, Origin] = {}
    for structure in domain.structures:
        if isinstance(structure, ast.Action):
            copies = _separate(structure, set(names), types)
            for action, args in copies:
                if len(copies) > 1:
                    action = replace(action, name=unique_name(f"{structure.name}-d", taken))
                precondition = rewrite.formula(nnf(action.precondition)) if action.precondition else None
                effect = flat_effect(rewrite.effect(action.effect)) if action.effect is not None else None
                structures.append(replace(action, precondition=precondition, effect=effect))
                origins[action.name] = Origin(structure.name, args)
        elif isinstance(structure, ast.DerivedPredicate):
            structures.append(replace(structure, body=rewrite.formula(nnf(structure.body))))
        else:
            structures.append(structure)
    universe = Universe(domain, problem)
    true = {e for e in problem.init if isinstance(e, ast.Atom)}
    facts: list[ast.InitElement] = []
    predicates = list(domain.predicates)
    for p, complement in names.items():
        decl = declared[p]
        predicates.append(ast.PredicateDecl(complement, decl.parameters))
        for binding in universe.bindings(decl.parameters):
            atom = ast.Atom(p, tuple(binding[v.name] for v in decl.parameters))
            if atom not in true:
                facts.append(ast.Atom(complement, atom.args))
    goal = rewrite.formula(nnf(problem.goal)) if problem.goal is not None else None
    domain = replace(domain, predicates=tuple(predicates), structures=tuple(structures))
    problem = replace(problem, init=(*problem.init, *facts), goal=goal)
    return PassResult(ParsedTask(domain, problem), origins)


def _conflict(action: ast.Action, complemented: set[str]) -> tuple[ast.Atom, ast.Atom] | None:
    """An unconditional add and delete of a complemented predicate whose arguments may coincide."""
    if action.effect is None:
        return None
    parts = flat_effect(action.effect)
    assert isinstance(parts, ast.AndEffect)
    adds = [e for e in parts.parts if isinstance(e, ast.Atom) and e.predicate in complemented]
    deletes = [e.body for e in parts.parts if isinstance(e, ast.Not) and isinstance(e.body, ast.Atom)
               and e.body.predicate in complemented]
    known = set(conjuncts(action.precondition))
    for add in adds:
        for delete in deletes:
            if delete.predicate != add.predicate or delete == add:
                continue
            pairs = [(a, b) for a, b in zip(add.args, delete.args, strict=True) if a != b]
            if any(isinstance(a, ast.Constant) and isinstance(b, ast.Constant) for a, b in pairs):
                continue
            if all(ast.Comparison("=", a, b) in known for a, b in pairs):
                continue  # equal already, and could not be unified: nothing more a split can do
            if any(ast.Not(ast.Comparison("=", a, b)) in known or ast.Not(ast.Comparison("=", b, a)) in known
                   for a, b in pairs):
                continue
            return add, delete
    return None


def _drop_overridden(action: ast.Action) -> ast.Action:
    """Without the deletes of atoms the action also adds unconditionally: the add wins anyway."""
    if action.effect is None:
        return action
    parts = flat_effect(action.effect)
    assert isinstance(parts, ast.AndEffect)
    added = {e for e in parts.parts if isinstance(e, ast.Atom)}
    kept = tuple(e for e in parts.parts if not (isinstance(e, ast.Not) and e.body in added))
    return replace(action, effect=ast.AndEffect(kept))


def _separate(action: ast.Action, complemented: set[str], types: Types
              ) -> list[tuple[ast.Action, tuple[int | str, ...]]]:
    """Copies of the action in which no add and delete of a complemented predicate may coincide, each
    with how it rebuilds the original arguments (see the module docstring)."""
    work: list[tuple[ast.Action, tuple[int | str, ...]]] = [(_drop_overridden(action),
                                                            tuple(range(len(action.parameters))))]
    done: list[tuple[ast.Action, tuple[int | str, ...]]] = []
    while work:
        current, args = work.pop()
        conflict = _conflict(current, complemented)
        if conflict is None:
            done.append((current, args))
            continue
        add, delete = conflict
        pairs = [(a, b) for a, b in zip(add.args, delete.args, strict=True) if a != b]
        for k in range(len(pairs) + 1):
            extra: list[ast.Formula] = [ast.Comparison("=", a, b) for a, b in pairs[:k]]
            if k < len(pairs):
                extra.append(ast.Not(ast.Comparison("=", *pairs[k])))
            candidate = replace(current, precondition=conjoin([current.precondition or TRUE, *extra]))
            unified = unify(candidate, types)
            if unified is None:
                continue
            copy, inner = unified
            composed = tuple(inner[a] if isinstance(a, int) else a for a in args)
            work.append((_drop_overridden(copy), composed))
    done.reverse()
    return done
