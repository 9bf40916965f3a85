"""Remove `exists` and `forall` from preconditions, goals, effect conditions and effects.

Requires: a task of actions (no durative actions); derived predicates, if any, are left as they are.
Guarantees, for the features asked for:
- existential preconditions: an `exists` in an action's precondition that every disjunction leaves alone
  (a conjunct at the top, or below such) becomes extra action parameters, at the end of the parameter
  list (the back map drops them); any other `exists` (under `or`, in a goal or an effect condition) is
  expanded into a disjunction over the objects of its type.
- universal preconditions: each `forall` becomes the conjunction of its body over the objects of its
  type (a disjunction for `exists` under negation, which negation normal form turns into `forall`).
- universal effects: each `forall` effect becomes its body once per object.
An expansion over a type with objects of the problem makes the result problem-specific; one over a
type with only the domain's constants keeps it domain-level (for every problem that adds no objects of
that type).
A problem-specific expansion substitutes each case into the body before expanding the quantifiers
inside it, and decides the ground static atoms of the case from the initial state: a static atom that
picks a few objects (`(trans ?pt ?t ?s ?s2)`, `(is-a-process ?p ?pt)`) then prunes the cases of the
quantifiers below it instead of multiplying them. Deadlock goals over derived predicates
(optical telegraph) shrink by orders of magnitude this way.
Formulas come out in negation normal form, without `imply`.
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.check.features import Feature
from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import (
    FALSE,
    TRUE,
    Fresh,
    Rewriter,
    Universe,
    conjoin,
    disjoin,
    nnf,
    variables_in,
)
from pddltools.compile.statics import Folder
from pddltools.compile.task import Origin, ParsedTask, PassResult, rewrite_actions, same_action
from pddltools.pddl import ast
from pddltools.pddl.changes import static_predicates

MAX_NODES = 2_000_000
NAMES = frozenset({Feature.EXISTENTIAL_PRECONDITIONS, Feature.UNIVERSAL_PRECONDITIONS, Feature.UNIVERSAL_EFFECTS})


class _Expander(Rewriter):
    def __init__(self, universe: Universe, remove: frozenset[Feature], folder: Folder) -> None:
        self.universe = universe
        self.folder = folder
        self.universal = Feature.UNIVERSAL_PRECONDITIONS in remove
        self.existential = Feature.EXISTENTIAL_PRECONDITIONS in remove
        self.effects = Feature.UNIVERSAL_EFFECTS in remove
        self.expanded = False
        self.size = 0  # nodes made by expansions so far, against the size guard
        self.constants: set[str] = set()

    def formula(self, formula: ast.Formula) -> ast.Formula:
        """Expand the asked-for quantifiers of a formula in negation normal form."""
        if isinstance(formula, ast.Exists | ast.Forall) and (
                self.universal if isinstance(formula, ast.Forall) else self.existential):
            problem_objects = self.note(formula.variables)
            cases: list[ast.Formula] = []
            for binding in self.universe.bindings(formula.variables):
                case = ast.substitute(formula.body, binding)
                if problem_objects:  # the result is this problem's anyway: let its static facts decide
                    case = self.folder.formula(case)
                case = self.formula(case)
                self.grow(_size(case), formula)
                cases.append(case)
            if isinstance(formula, ast.Forall):
                return conjoin(cases) if cases else TRUE
            return disjoin(cases) if cases else FALSE
        return super().formula(formula)

    def condition(self, formula: ast.Formula) -> ast.Formula:
        return self.formula(nnf(formula))

    def effect(self, effect: ast.Effect) -> ast.Effect:
        if isinstance(effect, ast.ForallEffect) and self.effects:
            body = self.effect(effect.body)
            self.note(effect.variables)
            bindings = self.universe.bindings(effect.variables)
            self.grow(_size(body) * len(bindings), effect)  # every copy is as large: refuse before making them
            return ast.AndEffect(tuple(ast.substitute(body, b) for b in bindings))
        return super().effect(effect)

    def note(self, variables: tuple[ast.TypedName, ...]) -> bool:
        """Whether an expansion ranges over problem objects. That makes the domain this problem's; one
        over the domain's constants alone does not (every problem that adds no objects of those types
        gets the same)."""
        if any(o not in self.constants for v in variables for o in self.universe.objects(v.type)):
            self.expanded = True
            return True
        return False

    def grow(self, nodes: int, quantifier: ast.Node) -> None:
        self.size += nodes
        if self.size > MAX_NODES:
            raise compile_error("E803", f"expanding the quantifiers would make more than {MAX_NODES} formula "
                                "nodes; the task is too large to compile this way", quantifier.span)


def _size(node: ast.Node) -> int:
    return sum(1 for _ in node.walk())


def _lift(formula: ast.Formula, fresh: Fresh, parameters: list[ast.TypedName]) -> ast.Formula:
    """Turn the existentials a precondition's conjunctions reach into parameters (appended to `parameters`)."""
    if isinstance(formula, ast.And):
        return conjoin(_lift(p, fresh, parameters) for p in formula.parts)
    if isinstance(formula, ast.Exists):
        mapping: dict[str, ast.Term] = {}
        for variable in formula.variables:
            name = fresh("?" + variable.name.lstrip("?") + "-")
            mapping[variable.name] = ast.Variable(name)
            parameters.append(ast.TypedName(name, variable.type))
        return _lift(ast.substitute(formula.body, mapping), fresh, parameters)
    return formula


def remove_quantifiers(task: ParsedTask, remove: frozenset[Feature]) -> PassResult:
    """Remove the quantifier features in `remove` (see the module docstring)."""
    folder = Folder(static_predicates(task.domain), task.problem.init)
    expander = _Expander(Universe(task.domain, task.problem), remove, folder)
    expander.constants = {c.name for c in task.domain.constants}

    def expand(action: ast.Action) -> list[tuple[ast.Action, Origin]]:
        parameters = list(action.parameters) + list(action.vars)
        precondition = action.precondition
        if precondition is not None:
            precondition = nnf(precondition)
            if expander.existential:
                precondition = _lift(precondition, Fresh(variables_in(action)), parameters)
            precondition = expander.formula(precondition)
        effect = expander.effect(action.effect) if action.effect is not None else None
        return [(replace(action, parameters=tuple(parameters), vars=(), precondition=precondition, effect=effect),
                 same_action(action))]

    structures, origins = rewrite_actions(task.domain, expand)
    problem = task.problem
    if problem.goal is not None:
        problem = replace(problem, goal=expander.formula(nnf(problem.goal)))
    domain = replace(task.domain, structures=tuple(structures))
    return PassResult(ParsedTask(domain, problem), origins, problem_specific=expander.expanded)
