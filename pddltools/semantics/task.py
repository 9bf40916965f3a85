"""A planning task in grounded-semantics terms: its initial state, ground actions, goal and metric.

This is the entry point for tools that need PDDL's meaning rather than its syntax: the validator runs
plans with it and the compiler's tests compare a compiled task with the original through it.

    task = GroundedTask.load("domain.pddl", "problem.pddl")
    state = task.initial_state()
    step = task.ground("pick-up", ("a",))
    if task.applicable(step, state):
        state = task.apply(step, state)
    task.goal_holds(state)
    successors = {str(a): task.apply(a, state) for a in task.applicable_actions(state)}
    states = task.run([("pick-up", ("a",)), ("stack", ("a", "b"))])   # the trajectory of a plan

Comparing a compiled task with its original: run the same plan through both (`run`), or compare the
ground actions applicable in corresponding states (`applicable_actions`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from pddltools.diagnostics import Error, error
from pddltools.pddl import ast
from pddltools.pddl.action_costs import COST, starts_at_zero
from pddltools.pddl.parser import parse_domain_file, parse_problem_file
from pddltools.pddl.zero_ary import resolve_task
from pddltools.semantics.apply import Effects, apply, collect, resolve
from pddltools.semantics.errors import NotStratified
from pddltools.semantics.evaluate import Evaluator, Unsatisfied
from pddltools.semantics.grounding import Grounder, Value
from pddltools.semantics.state import FluentValue, GroundAtom, GroundFluent, Number, State, normal

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

Schema = ast.Action | ast.DurativeAction


@dataclass(frozen=True, slots=True)
class GroundAction:
    """An action schema with objects for its parameters (and `?duration` for a durative action)."""

    schema: Schema
    args: tuple[str, ...]
    binding: dict[str, Value] = field(compare=False, hash=False)

    @property
    def name(self) -> str:
        return self.schema.name

    def __str__(self) -> str:
        return "(" + " ".join((self.schema.name, *self.args)) + ")"


@dataclass(frozen=True, slots=True)
class TimedLiteral:
    """A timed initial literal or fluent: at `time`, these effects happen."""

    time: Number
    element: ast.InitElement


class GroundedTask:
    """A domain and a problem, parsed once, with the objects, evaluator and initial state they imply."""

    def __init__(self, domain: ast.Domain, problem: ast.Problem, *, domain_path: str = "",
                 problem_path: str = "") -> None:
        """Raises `pddltools.diagnostics.Error` when the domain has no meaning (derived predicates that
        depend on their own negation)."""
        domain, problem = resolve_task(domain, problem)  # `(> v 5)`: v a 0-ary function, not an object
        self.domain = domain
        self.problem = problem
        self.domain_path = domain_path
        self.problem_path = problem_path
        self.grounder = Grounder(domain, problem)
        try:
            self.evaluator = Evaluator(domain, self.grounder)
        except NotStratified as exc:
            rules = domain.derived_predicates
            raise Error([error("V010", str(exc), rules[0].span if rules else domain.span)]) from None
        self.schemas: dict[str, Schema] = {
            s.name: s for s in domain.structures if isinstance(s, ast.Action | ast.DurativeAction)}
        self.functions = {f.name: f for f in domain.functions}
        self.predicates = {p.name: p for p in domain.predicates}
        #: actions whose precondition has preferences (counted at every application)
        self.soft_preconditions = frozenset(
            name for name, s in self.schemas.items()
            if isinstance(s, ast.Action) and any(isinstance(n, ast.Preference) for n in iter_nodes(s.precondition)))
        self.temporal = any(isinstance(s, ast.DurativeAction) for s in self.schemas.values())
        self._initial = self._build_initial()
        self.timed_literals: tuple[TimedLiteral, ...] = tuple(
            TimedLiteral(normal(e.time.value), e.body) for e in problem.init if isinstance(e, ast.TimedInitial))
        self.evaluator.set_initial(self._initial, frozenset(
            n.predicate for t in self.timed_literals for n in t.element.walk() if isinstance(n, ast.Atom)))

    @classmethod
    def load(cls, domain_path: str | Path, problem_path: str | Path) -> GroundedTask:
        """Parse a domain and a problem file; raises `pddltools.diagnostics.Error` for bad input."""
        domain = parse_domain_file(domain_path)
        problem = parse_problem_file(problem_path)
        return cls(domain, problem, domain_path=str(domain_path), problem_path=str(problem_path))

    # ----------------------------------------------------------------------------------------------
    # States

    def _build_initial(self) -> State:
        atoms: set[GroundAtom] = set()
        values: dict[GroundFluent, FluentValue] = {}
        for element in self.problem.init:
            if isinstance(element, ast.Atom):
                atoms.add(init_atom(element))
            elif isinstance(element, ast.InitAssignment):
                key, value = init_value(element)
                values[key] = value
        if starts_at_zero(self.domain, self.problem):  # the IPC's cost counter, as Fast Downward and VAL read it
            values[(COST,)] = 0
        return State(frozenset(atoms), values)

    def initial_state(self) -> State:
        return self._initial

    def apply_init_element(self, element: ast.InitElement, into: Effects) -> None:
        """Add a timed initial literal's effect to `into`."""
        if isinstance(element, ast.Atom):
            into.adds.add(init_atom(element))
        elif isinstance(element, ast.Not) and isinstance(element.body, ast.Atom):
            into.deletes.add(init_atom(element.body))
        elif isinstance(element, ast.InitAssignment):
            key, value = init_value(element)
            into.updates.setdefault(key, []).append(("assign", value))

    # ----------------------------------------------------------------------------------------------
    # Actions

    def ground(self, name: str, args: Sequence[str], duration: Number | None = None) -> GroundAction:
        """The ground action `(name args...)`; `KeyError` for an unknown name, `ValueError` for a wrong
        number of arguments (the validator checks both first, to report them with their place)."""
        schema = self.schemas[name]
        if len(args) != len(schema.parameters):
            raise ValueError(f"{name} takes {len(schema.parameters)} arguments, not {len(args)}")
        binding: dict[str, Value] = {p.name: a for p, a in zip(schema.parameters, args, strict=True)}
        if duration is not None:
            binding["?duration"] = duration
        return GroundAction(schema, tuple(args), binding)

    def bind_vars(self, action: GroundAction, state: State) -> GroundAction:
        """For a PDDL 1.2 action with `:vars`, the first values of them that satisfy the precondition
        (the first values at all when none does, so that the failure can be explained)."""
        schema = action.schema
        if not isinstance(schema, ast.Action) or not schema.vars:
            return action
        first: dict[str, Value] | None = None
        for binding in self.grounder.bindings(schema.vars, action.binding):
            first = first or binding
            if schema.precondition is None or self.evaluator.holds(schema.precondition, binding, state):
                return GroundAction(schema, action.args, binding)
        return GroundAction(schema, action.args, first or action.binding)

    def applicable(self, action: GroundAction, state: State) -> bool:
        pre = action.schema.precondition if isinstance(action.schema, ast.Action) else None
        return pre is None or self.evaluator.holds(pre, action.binding, state)

    def unsatisfied(self, action: GroundAction, state: State) -> list[Unsatisfied]:
        """Every precondition literal of `action` that is false in `state` (empty when applicable)."""
        pre = action.schema.precondition if isinstance(action.schema, ast.Action) else None
        return [] if pre is None else self.evaluator.explain(pre, action.binding, state)

    def effects(self, action: GroundAction, state: State) -> Effects:
        return collect(self.evaluator, action.schema.effect, action.binding, state)

    def apply(self, action: GroundAction, state: State) -> State:
        """The state after `action` (its precondition is not checked here); `state` is unchanged."""
        effects = self.effects(action, state)
        after = apply(state, effects)
        self.evaluator.succeeded(state, after, effects.adds, effects.deletes, bool(effects.updates))
        return after

    def advance(self, action: GroundAction, state: State) -> State:
        """The state after `action`, made by changing the thawed `state` in place (see `State.advance`)."""
        effects = self.effects(action, state)
        after = state.advance(effects.deletes, effects.adds, resolve(state, effects))
        self.evaluator.succeeded(state, after, effects.adds, effects.deletes, bool(effects.updates))
        return after

    def applicable_actions(self, state: State) -> Iterator[GroundAction]:
        """Every ground (non-durative) action applicable in `state`, grounded lazily: parameters are
        matched against the state's atoms through the precondition's positive atoms, then checked."""
        ev = self.evaluator
        for schema in self.schemas.values():
            if not isinstance(schema, ast.Action) or schema.vars:
                continue
            pre = schema.precondition
            parts = pre.parts if isinstance(pre, ast.And) else (() if pre is None else (pre,))
            for binding in ev.candidates(list(schema.parameters), parts, {}, state, schema):
                if pre is None or ev.holds(pre, binding, state):
                    args = tuple(str(binding[p.name]) for p in schema.parameters)
                    yield GroundAction(schema, args, binding)

    def run(self, steps: Iterable[tuple[str, Sequence[str]]]) -> list[State]:
        """The states a sequence of `(action, args)` steps goes through, from the initial state; raises
        `ValueError` naming the first step whose precondition is false."""
        states = [self.initial_state()]
        for index, (name, args) in enumerate(steps, 1):
            action = self.bind_vars(self.ground(name, args), states[-1])
            if not self.applicable(action, states[-1]):
                missing = ", ".join(str(u) for u in self.unsatisfied(action, states[-1]))
                raise ValueError(f"step {index} {action} is not applicable: {missing}")
            states.append(self.apply(action, states[-1]))
        return states

    # ----------------------------------------------------------------------------------------------
    # Goal

    def goal_holds(self, state: State) -> bool:
        goal = self.problem.goal
        return goal is None or self.evaluator.holds(goal, {}, state)

    def unmet_goals(self, state: State) -> list[Unsatisfied]:
        goal = self.problem.goal
        return [] if goal is None else self.evaluator.explain(goal, {}, state)

    def constraints(self) -> Iterator[ast.Formula]:
        for formula in (self.domain.constraints, self.problem.constraints):
            if formula is not None:
                yield formula


def iter_nodes(node: ast.Node | None) -> Iterator[ast.Node]:
    return iter(()) if node is None else node.walk()


def init_atom(atom: ast.Atom) -> GroundAtom:
    return (atom.predicate, *[t.name for t in atom.args if isinstance(t, ast.Constant)])


def init_value(element: ast.InitAssignment) -> tuple[GroundFluent, FluentValue]:
    key = (element.fluent.function, *[t.name for t in element.fluent.args if isinstance(t, ast.Constant)])
    value = element.value
    return key, (normal(value.value) if isinstance(value, ast.Number) else value.name)
