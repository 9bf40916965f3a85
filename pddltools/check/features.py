"""Which language features a domain and its problems really use, and where each is first used.

"Use" is read from the formulas, not from `:requirements`: a domain that declares `:adl` but only
negates atoms uses `negative-preconditions` and nothing else. Polarity decides what a connective
costs a planner: `(not (and a b))` in a precondition is a disjunction, `(not (forall ...))` an
existential. `(not (= ?x ?y))` needs `equality` only, as every IPC domain that writes it declares.

Numbers: increasing `total-cost` (by constants or by functions no action changes) is `action-costs`;
`numeric-fluents` is any other numeric effect, a numeric comparison in a condition, or a metric over
other functions. Reading unchanging functions in a duration is neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import cast

from pddltools.check.facts import DomainFacts
from pddltools.diagnostics import Span
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import NUMBER
from pddltools.static_typing import assert_never

TOTAL_COST = "total-cost"
TOTAL_TIME = "total-time"  # the makespan, in metrics: not a function of the domain
DURATION = "?duration"  # a durative action's duration, read like a variable


class Feature(StrEnum):
    TYPING = "typing"
    NEGATIVE_PRECONDITIONS = "negative-preconditions"
    DISJUNCTIVE_PRECONDITIONS = "disjunctive-preconditions"
    EQUALITY = "equality"
    EXISTENTIAL_PRECONDITIONS = "existential-preconditions"
    UNIVERSAL_PRECONDITIONS = "universal-preconditions"
    CONDITIONAL_EFFECTS = "conditional-effects"
    UNIVERSAL_EFFECTS = "universal-effects"
    DERIVED_PREDICATES = "derived-predicates"
    ACTION_COSTS = "action-costs"
    NUMERIC_FLUENTS = "numeric-fluents"
    OBJECT_FLUENTS = "object-fluents"
    DURATIVE_ACTIONS = "durative-actions"
    DURATION_INEQUALITIES = "duration-inequalities"
    CONTINUOUS_EFFECTS = "continuous-effects"
    PROCESSES = "processes"
    EVENTS = "events"
    TIMED_INITIAL_LITERALS = "timed-initial-literals"
    PREFERENCES = "preferences"
    TRAJECTORY_CONSTRAINTS = "trajectory-constraints"
    GOAL_UTILITIES = "goal-utilities"


#: The requirement flags that declare each feature (any one of them, after expanding shorthands).
REQUIREMENT_OF: dict[Feature, tuple[str, ...]] = {
    Feature.TYPING: (":typing",),
    Feature.NEGATIVE_PRECONDITIONS: (":negative-preconditions",),
    Feature.DISJUNCTIVE_PRECONDITIONS: (":disjunctive-preconditions",),
    Feature.EQUALITY: (":equality",),
    Feature.EXISTENTIAL_PRECONDITIONS: (":existential-preconditions",),
    Feature.UNIVERSAL_PRECONDITIONS: (":universal-preconditions",),
    Feature.CONDITIONAL_EFFECTS: (":conditional-effects",),
    Feature.UNIVERSAL_EFFECTS: (":conditional-effects",),
    Feature.DERIVED_PREDICATES: (":derived-predicates",),
    # Domains written before :action-costs existed (PDDL 2.1) count costs with numeric fluents.
    Feature.ACTION_COSTS: (":action-costs", ":numeric-fluents"),
    Feature.NUMERIC_FLUENTS: (":numeric-fluents",),
    Feature.OBJECT_FLUENTS: (":object-fluents",),
    Feature.DURATIVE_ACTIONS: (":durative-actions",),
    Feature.DURATION_INEQUALITIES: (":duration-inequalities",),
    # PDDL+ declares processes, events and the continuous change they bring with :time alone.
    Feature.CONTINUOUS_EFFECTS: (":continuous-effects", ":time"),
    Feature.PROCESSES: (":time",),
    Feature.EVENTS: (":time",),
    Feature.TIMED_INITIAL_LITERALS: (":timed-initial-literals",),
    # IPC-2008's net-benefit domains declare their soft goals with :goal-utilities alone.
    Feature.PREFERENCES: (":preferences", ":goal-utilities"),
    Feature.TRAJECTORY_CONSTRAINTS: (":constraints",),
    Feature.GOAL_UTILITIES: (":goal-utilities", ":preferences"),
}


@dataclass(frozen=True)
class FeatureUse:
    feature: Feature
    span: Span | None  # the first use; None for a node built without a source (by a pass)


@dataclass(frozen=True)
class FeatureSet:
    """The features used, each with its first use, in the canonical order of `Feature`."""

    uses: tuple[FeatureUse, ...]

    def __contains__(self, feature: object) -> bool:
        return any(use.feature == feature for use in self.uses)

    def __iter__(self) -> Iterator[Feature]:
        return (use.feature for use in self.uses)

    def __len__(self) -> int:
        return len(self.uses)

    @property
    def features(self) -> frozenset[Feature]:
        return frozenset(use.feature for use in self.uses)

    def first_use(self, feature: Feature) -> Span | None:
        for use in self.uses:
            if use.feature == feature:
                return use.span
        return None


def detect(domain: ast.Domain, problems: Iterable[ast.Problem] = (), *,
           changed: frozenset[str] | None = None) -> FeatureSet:
    """The features `domain` and `problems` use (a problem's first uses come after the domain's).

    `changed`, the functions some effect updates, saves a walk over the domain when the caller knows it.
    """
    if changed is None:
        changed = frozenset(DomainFacts.of(domain).changed_functions)
    detector = _Detector(domain, changed)
    detector.domain(domain)
    for problem in problems:
        detector.problem(problem)
    order = list(Feature)
    uses = sorted(detector.found.items(), key=lambda item: order.index(item[0]))
    return FeatureSet(tuple(FeatureUse(feature, span) for feature, span in uses))


def object_functions(domain: ast.Domain) -> frozenset[str]:
    """The functions whose values are objects (declared with a type other than `number`)."""
    return frozenset(f.name for f in domain.functions if f.type is not None and _type_name(f.type) != NUMBER)


def _type_name(ref: ast.TypeRef) -> str | None:
    return ref.name if isinstance(ref, ast.TypeName) else None


class _Detector:
    def __init__(self, domain: ast.Domain, changed: frozenset[str]) -> None:
        self.found: dict[Feature, Span | None] = {}
        self.object_functions = object_functions(domain)
        self.declared_functions = frozenset(f.name for f in domain.functions)
        self.changed = changed
        self.goal_preferences: set[str] = set()

    def use(self, feature: Feature, node: ast.Node | None) -> None:
        if feature not in self.found:
            self.found[feature] = node.span if node is not None else None

    # -- declarations ------------------------------------------------------------------------

    def typed(self, names: Iterable[ast.TypedName]) -> None:
        for name in names:
            if name.type is not None:
                self.use(Feature.TYPING, name.type)
                return

    def domain(self, domain: ast.Domain) -> None:
        if domain.types:
            self.use(Feature.TYPING, domain.types[0])
        self.typed(domain.constants)
        for predicate in domain.predicates:
            self.typed(predicate.parameters)
        for function in domain.functions:
            self.typed(function.parameters)
            if function.name in self.object_functions:
                self.use(Feature.OBJECT_FLUENTS, function)
        if domain.constraints is not None:
            self.constraints(domain.constraints)
        for structure in domain.structures:
            if isinstance(structure, ast.Action):
                self.typed(structure.parameters)
                self.typed(structure.vars)
                if structure.precondition is not None:
                    self.formula(structure.precondition, True)
                if structure.effect is not None:
                    self.effect(structure.effect)
            elif isinstance(structure, ast.DurativeAction):
                self.use(Feature.DURATIVE_ACTIONS, structure)
                self.typed(structure.parameters)
                if structure.duration is not None:
                    self.duration(structure.duration)
                if structure.condition is not None:
                    self.formula(structure.condition, True)
                if structure.effect is not None:
                    self.effect(structure.effect)
            else:
                self.use(Feature.DERIVED_PREDICATES, structure)
                self.typed(structure.predicate.parameters)
                self.formula(structure.body, True)
        for happening in domain.processes_and_events:
            self.use(Feature.PROCESSES if isinstance(happening, ast.Process) else Feature.EVENTS, happening)
            self.typed(happening.parameters)
            if happening.precondition is not None:
                self.formula(happening.precondition, True)
            if happening.effect is not None:
                self.effect(happening.effect)

    def problem(self, problem: ast.Problem) -> None:
        self.typed(problem.objects)
        for element in problem.init:
            if not isinstance(element, ast.Atom):  # most of a large :init, and no feature of its own
                self.init(element)
        if problem.goal is not None:
            self.goal_preferences |= {
                node.name for node in problem.goal.walk() if isinstance(node, ast.Preference) and node.name
            }
            self.formula(problem.goal, True)
        if problem.constraints is not None:
            self.constraints(problem.constraints)
        if problem.metric is not None:
            self.metric(problem.metric)

    def constraints(self, constraints: ast.Formula) -> None:
        # `(:constraints (and))`, which some generated IPC-2006 problems carry, constrains nothing.
        if not (isinstance(constraints, ast.And) and not constraints.parts):
            self.use(Feature.TRAJECTORY_CONSTRAINTS, constraints)
            self.formula(constraints, True)

    def init(self, element: ast.InitElement) -> None:
        if isinstance(element, ast.TimedInitial):
            self.use(Feature.TIMED_INITIAL_LITERALS, element)
            self.init(element.body)
        elif isinstance(element, ast.InitAssignment) and element.fluent.function in self.object_functions:
            self.use(Feature.OBJECT_FLUENTS, element)

    def metric(self, metric: ast.Metric) -> None:
        for node in metric.expression.walk():
            if isinstance(node, ast.FunctionTerm):
                if node.function == TOTAL_TIME:
                    continue
                if node.function == TOTAL_COST:
                    self.use(Feature.ACTION_COSTS, node)
                elif node.function in self.declared_functions:  # an undeclared one is the checker's E602
                    self.use(Feature.NUMERIC_FLUENTS, node)
            elif isinstance(node, ast.IsViolated) and node.preference in self.goal_preferences:
                self.use(Feature.GOAL_UTILITIES, node)

    # -- formulas ------------------------------------------------------------------------------

    def formula(self, formula: ast.Formula, positive: bool) -> None:
        """`positive`: whether the formula occurs under an even number of negations."""
        stack: list[tuple[ast.Formula, bool]] = [(formula, positive)]
        while stack:
            node, positive = stack.pop()
            match node:
                case ast.Atom():
                    if not positive:
                        self.use(Feature.NEGATIVE_PRECONDITIONS, node)
                    self.terms(node.args)
                case ast.Not():
                    stack.append((node.body, not positive))
                case ast.And():
                    if not positive and len(node.parts) > 1:
                        self.use(Feature.DISJUNCTIVE_PRECONDITIONS, node)
                    stack.extend((part, positive) for part in reversed(node.parts))
                case ast.Or():
                    if positive and len(node.parts) > 1:
                        self.use(Feature.DISJUNCTIVE_PRECONDITIONS, node)
                    stack.extend((part, positive) for part in reversed(node.parts))
                case ast.Imply():
                    if positive:
                        self.use(Feature.DISJUNCTIVE_PRECONDITIONS, node)
                    stack.append((node.consequence, positive))
                    stack.append((node.condition, not positive))
                case ast.Exists() | ast.Forall():
                    existential = isinstance(node, ast.Exists) == positive
                    self.use(Feature.EXISTENTIAL_PRECONDITIONS if existential else Feature.UNIVERSAL_PRECONDITIONS,
                             node)
                    self.typed(node.variables)
                    stack.append((node.body, positive))
                case ast.Comparison():
                    self.comparison(node)
                case ast.Preference():
                    self.use(Feature.PREFERENCES, node)
                    stack.append((node.body, positive))
                case ast.Timed():
                    stack.append((cast(ast.Formula, node.body), positive))  # a condition's body is a formula
                case (ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter()
                      | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
                    # the PDDL 3 modal operators: their sub-formulas are ordinary conditions
                    self.use(Feature.TRAJECTORY_CONSTRAINTS, node)
                    stack.extend((cast(ast.Formula, child), positive) for child in reversed(node.child_list())
                                 if not isinstance(child, ast.Number))
                case _:
                    assert_never(node)

    def comparison(self, node: ast.Comparison) -> None:
        if node.op == "=" and self.is_object_term(node.left) and self.is_object_term(node.right):
            self.use(Feature.EQUALITY, node)
        else:
            self.use(Feature.NUMERIC_FLUENTS, node)
        for side in (node.left, node.right):
            self.expression(side)

    def is_object_term(self, expression: ast.Expression) -> bool:
        if isinstance(expression, ast.Variable | ast.Constant):
            return expression.name != DURATION
        return isinstance(expression, ast.FunctionTerm) and expression.function in self.object_functions

    def terms(self, terms: Iterable[ast.Term]) -> None:
        for term in terms:
            if isinstance(term, ast.FunctionTerm):
                if term.function in self.object_functions:
                    self.use(Feature.OBJECT_FLUENTS, term)
                self.terms(term.args)

    def expression(self, expression: ast.Expression) -> None:
        for node in expression.walk():
            if isinstance(node, ast.FunctionTerm) and node.function in self.object_functions:
                self.use(Feature.OBJECT_FLUENTS, node)
            elif isinstance(node, ast.ContinuousTime):
                self.use(Feature.CONTINUOUS_EFFECTS, node)

    def duration(self, duration: ast.Formula) -> None:
        constraints = duration.parts if isinstance(duration, ast.And) else (duration,)
        for constraint in constraints:
            if not (isinstance(constraint, ast.Comparison) and constraint.op == "="):
                self.use(Feature.DURATION_INEQUALITIES, constraint)
            for node in constraint.walk():
                if isinstance(node, ast.FunctionTerm) and node.function in self.changed:
                    self.use(Feature.NUMERIC_FLUENTS, node)

    # -- effects -------------------------------------------------------------------------------

    def effect(self, effect: ast.Effect) -> None:
        for node in ast.effect_parts(effect):
            match node:
                case ast.ForallEffect():
                    self.use(Feature.UNIVERSAL_EFFECTS, node)
                    self.typed(node.variables)
                case ast.When():
                    self.use(Feature.CONDITIONAL_EFFECTS, node)
                    self.formula(node.condition, True)
                case ast.Atom():
                    self.terms(node.args)
                case ast.Not():
                    if isinstance(node.body, ast.Atom):
                        self.terms(node.body.args)
                case ast.Assign():
                    self.assignment(node)
                case ast.AndEffect() | ast.Timed():
                    pass  # effect_parts goes on into their parts
                case _:
                    assert_never(node)

    def assignment(self, node: ast.Assign) -> None:
        function = node.fluent.function
        if function in self.object_functions:
            self.use(Feature.OBJECT_FLUENTS, node)
        elif function == TOTAL_COST and node.op == "increase" and not self.reads_changing(node.value):
            self.use(Feature.ACTION_COSTS, node)
        else:
            self.use(Feature.NUMERIC_FLUENTS, node)
        self.terms(node.fluent.args)
        self.expression(node.value)

    def reads_changing(self, expression: ast.Expression) -> bool:
        return any(isinstance(n, ast.FunctionTerm) and n.function in self.changed and n.function != TOTAL_COST
                   for n in expression.walk())


def declared_requirements(domain: ast.Domain, problems: Iterable[ast.Problem] = ()) -> frozenset[str]:
    """The flags a task declares, with every shorthand expanded (problems may add their own)."""
    from pddltools.pddl.requirements import expand

    flags = {r.name for r in domain.requirements}
    for problem in problems:
        flags |= {r.name for r in problem.requirements}
    return frozenset(expand(flags))


def undeclared(features: FeatureSet, requirements: frozenset[str]) -> list[FeatureUse]:
    """The uses of features that no declared flag covers."""
    return [use for use in features.uses if not any(flag in requirements for flag in REQUIREMENT_OF[use.feature])]

