"""Fold in static facts, grounding the parameters that keep them from being decided.

Requires: a task of actions with no quantifiers left in the actions that need it. Guarantees: an action
whose precondition or effect conditions would split into many cases (more than `threshold` disjuncts in
all, or fewer but more than instantiating makes) is instantiated for each object of the parameters that
occur in static atoms under a disjunction or an effect condition; each copy's ground static atoms are
then decided from the initial state, which usually collapses the disjunctions (`(imply (requires ?a r1)
(available r1))` is `true` or `(available r1)` once `?a` is known). Copies whose precondition is false
go. The result is problem-specific when any action was instantiated. A static predicate is one no effect
adds or deletes (`pddltools.pddl.changes`, shared with the checker and the semantics).
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.compile.disjunction import dnf_size
from pddltools.compile.formulas import FALSE, TRUE, Rewriter, Universe, conjuncts, nnf
from pddltools.compile.task import Origin, ParsedTask, PassResult, names_in_use, unique_name
from pddltools.pddl import ast
from pddltools.pddl.changes import static_predicates as static_predicates  # also for semantics.evaluate

THRESHOLD = 64
MAX_COPIES = 256


class Folder(Rewriter):
    """Folds static atoms of constants, and equalities of constants, to true or false."""

    def __init__(self, static: frozenset[str], init: tuple[ast.InitElement, ...]) -> None:
        self.static = static
        self.facts = {e for e in init if isinstance(e, ast.Atom) and e.predicate in static}

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Atom):
            if formula.predicate in self.static and all(isinstance(a, ast.Constant) for a in formula.args):
                return TRUE if formula in self.facts else FALSE
            return formula
        if isinstance(formula, ast.Comparison) and formula.op == "=" and all(
                isinstance(s, ast.Constant) for s in (formula.left, formula.right)):
            return TRUE if formula.left == formula.right else FALSE
        if isinstance(formula, ast.Not):
            body = self.formula(formula.body)
            return FALSE if body == TRUE else TRUE if body == FALSE else ast.Not(body)
        return super().formula(formula)

    def effect(self, effect: ast.Effect) -> ast.Effect:
        if isinstance(effect, ast.When):  # a folded condition drops the effect or unwraps it
            condition = self.formula(effect.condition)
            if condition == FALSE:
                return ast.AndEffect()
            body = self.effect(effect.body)
            return body if condition == TRUE else ast.When(condition, body)
        return super().effect(effect)


def _conditions(effect: ast.Effect | None) -> list[ast.Formula]:
    return [] if effect is None else [n.condition for n in effect.walk() if isinstance(n, ast.When)]


def _blowup(action: ast.Action) -> int:
    pre = dnf_size(nnf(action.precondition)) if action.precondition else 1
    return pre + sum(dnf_size(nnf(c)) for c in _conditions(action.effect))


def _grounded_parameters(action: ast.Action, static: frozenset[str]) -> list[ast.TypedName]:
    """The parameters in static atoms below a disjunction or in an effect condition."""
    regions: list[ast.Node] = []
    if action.precondition is not None:
        regions += [n for n in nnf(action.precondition).walk() if isinstance(n, ast.Or)]
    regions += _conditions(action.effect)
    names: set[str] = set()
    for region in regions:
        for atom in region.walk():
            if isinstance(atom, ast.Atom) and atom.predicate in static:
                names |= {a.name for a in atom.args if isinstance(a, ast.Variable)}
    return [p for p in action.parameters if p.name in names]


def _candidates(action: ast.Action, ground: list[ast.TypedName], universe: Universe, folder: Folder
                ) -> list[dict[str, ast.Term]]:
    """The bindings of `ground` worth trying: each object must pass the precondition's top-level static
    atoms on that parameter alone (in an untyped domain these are its type predicates)."""
    tops = [p for p in conjuncts(nnf(action.precondition))] if action.precondition else []
    bindings: list[dict[str, ast.Term]] = [{}]
    for parameter in ground:
        tests = [a for a in tops if isinstance(a, ast.Atom) and a.predicate in folder.static
                 and all(isinstance(t, ast.Constant) or t == ast.Variable(parameter.name) for t in a.args)]
        objects = [o for o in universe.objects(parameter.type)
                   if all(folder.formula(ast.substitute(t, {parameter.name: ast.Constant(o)})) == TRUE for t in tests)]
        bindings = [{**b, parameter.name: ast.Constant(o)} for b in bindings for o in objects]
    return bindings


def _decided_static(action: ast.Action, static: frozenset[str]) -> bool:
    """Whether the action has a ground static atom (decided by the initial state, not the domain)."""
    return any(isinstance(n, ast.Atom) and n.predicate in static and all(isinstance(a, ast.Constant) for a in n.args)
               for n in action.walk())


def fold_statics(task: ParsedTask, threshold: int = THRESHOLD) -> PassResult:
    """Instantiate and simplify the actions that would split into many cases (see the module docstring)."""
    domain, problem = task.domain, task.problem
    static = static_predicates(domain)
    folder = Folder(static, problem.init)
    universe = Universe(domain, problem)
    taken = names_in_use(domain)
    origins: dict[str, Origin] = {}
    structures: list[ast.Structure] = []
    grounded_any = False
    for s in domain.structures:
        if not isinstance(s, ast.Action):
            structures.append(s)
            continue
        blowup = _blowup(s)
        ground = _grounded_parameters(s, static) if blowup > 1 else []
        copies: list[tuple[dict[str, ast.Term], ast.Formula, ast.Effect | None]] = []
        if ground:
            bindings = _candidates(s, ground, universe, folder)
            # Below the threshold, instantiate only when that makes fewer cases than the planner would
            # meet grounding the action itself.
            if blowup > threshold or len(bindings) <= MAX_COPIES:
                normal = nnf(s.precondition) if s.precondition else TRUE
                for binding in bindings:
                    pre = folder.formula(ast.substitute(normal, binding))
                    if pre != FALSE:
                        copies.append((binding, pre, folder.effect(ast.substitute(s.effect, binding))
                                       if s.effect is not None else None))
                made = sum(_blowup(ast.Action(s.name, (), pre, eff)) for _, pre, eff in copies)
                if blowup <= threshold and made >= blowup * max(1, len(bindings)):
                    ground = []
            else:
                ground = []
        if not ground:
            # Still decide the static atoms and equalities that are ground already.
            precondition = folder.formula(nnf(s.precondition)) if s.precondition else None
            effect = folder.effect(s.effect) if s.effect is not None else None
            # Facts of this problem decided something: the domain is now this problem's.
            folded = precondition != (nnf(s.precondition) if s.precondition else None) or effect != s.effect
            grounded_any |= folded and _decided_static(s, static)
            if precondition == FALSE:
                continue
            origins[s.name] = Origin(s.name, tuple(range(len(s.parameters))))
            structures.append(replace(s, precondition=precondition, effect=effect))
            continue
        grounded_any = True
        kept = [p for p in s.parameters if p not in ground]
        index = {p.name: i for i, p in enumerate(kept)}
        for binding, precondition, effect in copies:
            suffix = "-".join(str(binding[p.name].name) for p in ground)  # type: ignore[union-attr]
            name = unique_name(f"{s.name}-{suffix}", taken)
            structures.append(replace(s, name=name, parameters=tuple(kept), precondition=precondition, effect=effect))
            args = tuple(index[p.name] if p.name in index else str(binding[p.name].name)  # type: ignore[union-attr]
                         for p in s.parameters)
            origins[name] = Origin(s.name, args)
    domain = replace(domain, structures=tuple(structures))
    copied = sum(1 for o in origins if o not in {a.name for a in task.domain.actions})
    notes = (f"instantiated {copied} copies to fold static facts",) if copied else (
        ("folded static facts of this problem",) if grounded_any else ())
    return PassResult(ParsedTask(domain, problem), origins, problem_specific=grounded_any, notes=notes)
