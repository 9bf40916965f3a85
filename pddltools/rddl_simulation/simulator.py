"""Step an RDDL instance: the model behind `pddltools rddl simulate` and the RDDLSim server.

    env = Simulator(domain, instance, seed=0, non_fluents=nf)
    observation = env.reset()
    step = env.step({("reboot", ("c1",)): True})      # StepOutcome(observation, reward, done, turn)

A step checks the actions (names, arguments, value types, `max-nondef-actions`, state-action
constraints and action preconditions), evaluates the CPFs in dependency order (interm and derived
fluents by level, then next-state fluents, which may read each other's primed values as RDDL2
allows, then observ fluents), the reward on (s, a, s'), then moves to s' and checks the
state invariants and `termination`. Observations are the state for an MDP and the observ fluents
for a POMDP (nothing before the first step, as RDDLSim's first turn shows).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pddltools.diagnostics import Diagnostic, Error, Span, error
from pddltools.rddl import ast
from pddltools.rddl.expressions import pvariable_uses
from pddltools.rddl_simulation.evaluate import Compiler, Frame
from pddltools.rddl_simulation.grounding import Key, Model, Value, fail, key_text
from pddltools.rddl_simulation.sampling import SamplingError
from pddltools.rddl_simulation.specialise import Ground, Specialiser

_INTERMEDIATE = ("derived-fluent", "interm-fluent")


class ActionError(Error):
    """An action the client may not send: unknown name, wrong arguments or value, too many at once."""


class ConstraintViolation(Error):
    """The actions break a state-action constraint or an action precondition in this state."""


class EvaluationError(Error):
    """An expression could not be evaluated: a NaN stored in an int fluent, an object-valued argument
    that names no object, an operator applied to values it does not take."""


#: what evaluating a model's expressions can raise when the model, not pddltools, is at fault
_EVALUATION_ERRORS = (ValueError, OverflowError, TypeError, ZeroDivisionError, KeyError)


def _holds(fn: Ground, frame: Frame, expr: ast.Expr) -> bool:
    try:
        return bool(fn(frame))
    except _EVALUATION_ERRORS as exc:
        raise EvaluationError([error("R316", f"evaluating {expr} failed: {type(exc).__name__}: {exc}",
                                     expr.span)]) from None


class InvariantViolation(Error):
    """A state reached breaks a state invariant: the model, not the planner, is at fault."""


@dataclass(frozen=True, slots=True)
class StepOutcome:
    observation: dict[Key, Value]
    reward: float
    done: bool
    turn: int


@dataclass(frozen=True, slots=True)
class _GroundCpf:
    name: str
    into_next: bool
    coerce: Callable[[Any], Value]
    groundings: tuple[tuple[Key, Ground], ...]
    span: Span | None
    #: a derived fluent that reads its own groundings: cleared before each step, so that reading one
    #: not computed yet fails rather than finding the previous step's value
    recursive: bool = False


def _keep(value: Any) -> Value:
    return value  # type: ignore[no-any-return]


def _coercer(range_name: str, model: Model) -> Callable[[Any], Value]:
    if model.is_tuple(range_name):
        return _keep  # a Vector, whose members keep the types they were computed with
    if range_name == "bool":
        return bool
    if range_name == "int":
        return int
    if range_name == "real":
        return float
    return str


class Simulator:
    """One instance, ready to run rounds; `reset()` starts a round, `step(actions)` advances it."""

    def __init__(self, domain: ast.Domain, instance: ast.Instance, seed: int | None = None,
                 non_fluents: ast.NonFluents | None = None, unroll_budget: int = 200_000) -> None:
        """`unroll_budget` bounds how far one grounding's aggregations are unrolled (see `specialise`);
        0 keeps every expression lifted."""
        self.model = Model(domain, instance, non_fluents)
        self.horizon = self.model.horizon
        self.discount = self.model.discount
        self.max_nondef_actions = self.model.max_nondef_actions
        self.partially_observed = self.model.partially_observed
        self.rng = np.random.default_rng(seed)
        self._initial = self.model.initial_values()
        fixed = {k: v for k, v in self._initial.items() if self.model.decls[k[0]].kind == "non-fluent"}
        compiler = Specialiser(self.model, Compiler(self.model), fixed, unroll_budget)
        self.state_keys = self.model.keys(["state-fluent"])
        self.action_keys = self.model.keys(["action-fluent"])
        self.observ_keys = self.model.keys(["observ-fluent"])
        self.action_defaults: dict[Key, Value] = {k: self._initial[k] for k in self.action_keys}
        self._action_decls = {n: d for n, d in self.model.decls.items() if d.kind == "action-fluent"}
        self._cpfs = self._ground_cpfs(compiler)
        self._reward = compiler.ground(domain.reward, {}) if domain.reward is not None else (lambda f: 0.0)
        self._action_constraints = [(c, compiler.ground(c, {})) for c in
                                    domain.state_action_constraints + domain.action_preconditions]
        self._invariants = [(c, compiler.ground(c, {})) for c in domain.state_invariants]
        self._termination = [(c, compiler.ground(c, {})) for c in domain.termination]
        if self.model.terminate_when is not None:
            condition = self.model.terminate_when
            self._termination.append((condition, compiler.ground(condition, {})))
        self._values: dict[Key, Value] = {}
        self.turn = 0
        self.total_reward = 0.0
        self._weight = 1.0
        self._terminated = False

    # -- set-up ----------------------------------------------------------------------------------

    def _ground_cpfs(self, compiler: Specialiser) -> list[_GroundCpf]:
        decls = self.model.decls
        by_node: dict[str, ast.Cpf] = {}
        for cpf in self.model.domain.cpfs:
            decl = decls.get(cpf.name)
            if decl is None or decl.kind in ("action-fluent", "non-fluent"):
                raise fail("R313", f"a CPF for {cpf.name}, which is not a state, interm or observ fluent", cpf)
            by_node[self._node(cpf.name, decl.kind == "state-fluent")] = cpf
        for name, decl in decls.items():
            if decl.kind not in ("action-fluent", "non-fluent") and self._node(name, decl.kind == "state-fluent") \
                    not in by_node:
                raise fail("R314", f"{decl.kind} {name} has no CPF", decl)
        order = self._order(by_node)
        ground: list[_GroundCpf] = []
        for node in order:
            cpf = by_node[node]
            decl = decls[cpf.name]
            if len(cpf.params) != len(decl.params) and cpf.params:
                raise fail("R303", f"the CPF of {cpf.name} has {len(cpf.params)} parameters, the fluent "
                           f"{len(decl.params)}", cpf)
            # a CPF that names no parameters of a parameterised fluent (`randDir' = Dirichlet(...)`) is
            # evaluated, and drawn, once per grounding, as RDDLSim does
            groundings = tuple(((cpf.name, args), compiler.ground(cpf.expr, dict(zip(cpf.params, args, strict=False))))
                               for args in self.model.groundings[cpf.name])
            recursive = decl.kind == "derived-fluent" and cpf.name in {u.name for u in pvariable_uses(cpf.expr)}
            ground.append(_GroundCpf(cpf.name, decl.kind == "state-fluent", _coercer(decl.range, self.model),
                                     groundings, cpf.span, recursive))
        return ground

    @staticmethod
    def _node(name: str, state: bool) -> str:
        return name + "'" if state else name

    def _order(self, by_node: dict[str, ast.Cpf]) -> list[str]:
        """CPFs so that each comes after what it reads (Kahn's algorithm), RDDLSim's order otherwise."""
        decls = self.model.decls

        def rank(node: str) -> tuple[int, float, int]:
            decl = decls[by_node[node].name]
            kind = 0 if decl.kind in _INTERMEDIATE else 1 if decl.kind == "state-fluent" else 2
            level = decl.level.value if isinstance(decl.level, (ast.Integer, ast.Real)) else 0
            return kind, float(level), list(decls).index(decl.name)

        needs: dict[str, set[str]] = {}
        for node, cpf in by_node.items():
            deps = set()
            for use in pvariable_uses(cpf.expr):
                decl = decls.get(use.name)
                if decl is None:
                    continue
                if use.primed and decl.kind == "state-fluent":
                    deps.add(use.name + "'")
                elif use.name == cpf.name and decl.kind == "derived-fluent":
                    # RDDL2's recursive derived fluents read their own groundings: computed in object
                    # order, each may read those before it (an unreached one fails as an evaluation error)
                    continue
                elif decl.kind in _INTERMEDIATE or decl.kind == "observ-fluent":
                    deps.add(use.name)
            needs[node] = deps & set(by_node)
        order: list[str] = []
        done: set[str] = set()
        pending = sorted(by_node, key=rank)
        while pending:
            ready = next((n for n in pending if needs[n] <= done), None)
            if ready is None:
                raise fail("R315", "the CPFs of " + ", ".join(sorted(pending)) + " depend on each other in a "
                           "cycle", by_node[pending[0]])
            order.append(ready)
            done.add(ready)
            pending.remove(ready)
        return order

    # -- running ---------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> dict[Key, Value]:
        """Start a round from the instance's initial state; the observation before any action."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        self._values = dict(self._initial)
        self.turn = 0
        self.total_reward = 0.0
        self._weight = 1.0
        self._terminated = False
        self._check_invariants(Frame(self._values, self.rng))
        return {} if self.partially_observed else self.state

    @property
    def state(self) -> dict[Key, Value]:
        return {k: self._values[k] for k in self.state_keys}

    @property
    def done(self) -> bool:
        return self._terminated or self.turn >= self.horizon

    def check_actions(self, actions: Mapping[Key, Value]) -> dict[Key, Value]:
        """Every action fluent's value for `actions` (defaults filled in); raises `ActionError`."""
        full = dict(self.action_defaults)
        for key, value in actions.items():
            name, args = key
            decl = self._action_decls.get(name)
            if decl is None:
                raise ActionError([error("R330", f"{name} is not an action fluent of "
                                                  f"{self.model.domain.name}")])
            if len(args) != len(decl.params):
                raise ActionError([error("R331", f"action {name} takes {len(decl.params)} arguments, "
                                                  f"not {len(args)}")])
            for arg, param in zip(args, decl.params, strict=False):
                if arg not in self.model.of_type(param):
                    raise ActionError([error("R332", f"{arg} is not an object of type {param} "
                                                      f"(in action {key_text(key)})")])
            full[(name, tuple(args))] = self._action_value(decl, key, value)
        changed = sum(1 for k, v in full.items() if v != self.action_defaults[k])
        if changed > self.max_nondef_actions:
            raise ActionError([error("R334", f"{changed} non-default actions, more than max-nondef-actions = "
                                              f"{int(self.max_nondef_actions)}")])
        return full

    def _action_value(self, decl: ast.PVariableDecl, key: Key, value: Value) -> Value:
        kind = decl.range
        ok: bool
        if kind == "bool":
            ok = isinstance(value, (bool, np.bool_))
        elif kind == "int":
            ok = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
        elif kind == "real":
            ok = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)
        else:
            ok = isinstance(value, str) and value in self.model.of_type(kind)
        if not ok:
            raise ActionError([error("R333", f"{value!r} is not a value of {kind} (action {key_text(key)})")])
        return self.model.coerce(decl, value)

    def legal(self, actions: Mapping[Key, Value]) -> bool:
        """Whether `step(actions)` would accept `actions` in the current state."""
        try:
            full = self.check_actions(actions)
        except ActionError:
            return False
        return self._violated(full) is None

    def legal_in(self, state: Mapping[Key, Value], actions: Mapping[Key, Value]) -> bool:
        """Whether `actions` would be accepted in `state` (state fluents by key; the rest as now)."""
        try:
            full = self.check_actions(actions)
        except ActionError:
            return False
        return self._violated(full, state) is None

    def _violated(self, full: Mapping[Key, Value], state: Mapping[Key, Value] | None = None) -> ast.Expr | None:
        if not self._action_constraints:
            return None
        values = dict(self._values or self._initial)
        if state is not None:
            values.update(state)
        values.update(full)
        frame = Frame(values, self.rng)
        for expr, fn in self._action_constraints:
            if not _holds(fn, frame, expr):
                return expr
        return None

    def step(self, actions: Mapping[Key, Value]) -> StepOutcome:
        """Apply `actions` (action fluents left out keep their defaults) and advance one step."""
        if self.done:
            raise ActionError([error("R335", f"the round is over (horizon {self.horizon}); reset() first")])
        full = self.check_actions(actions)
        broken = self._violated(full)
        if broken is not None:
            raise ConstraintViolation([error("R336", f"the actions break the constraint {broken}",
                                             broken.span)])
        values = self._values
        values.update(full)
        frame = Frame(values, self.rng)
        nxt = frame.next
        for cpf in self._cpfs:
            coerce = cpf.coerce
            store = nxt if cpf.into_next else values
            if cpf.recursive:
                for key, _ in cpf.groundings:
                    values.pop(key, None)
            try:
                for key, fn in cpf.groundings:
                    store[key] = coerce(fn(frame))
            except SamplingError as exc:
                # say which grounding of which CPF drew the bad parameter: the draw itself cannot know
                found = exc.diagnostics[0]
                prime = "'" if cpf.into_next else ""
                raise SamplingError([Diagnostic(found.code, found.severity,
                                                f"computing {key_text(key)}{prime}: {found.message}",
                                                cpf.span)]) from None
            except _EVALUATION_ERRORS as exc:
                prime = "'" if cpf.into_next else ""
                raise EvaluationError([error("R316", f"computing {key_text(key)}{prime} failed: "
                                                     f"{type(exc).__name__}: {exc}", cpf.span)]) from None
        try:
            reward = float(self._reward(frame))
        except _EVALUATION_ERRORS as exc:
            raise EvaluationError([error("R316", f"computing the reward failed: {type(exc).__name__}: {exc}",
                                         getattr(self.model.domain.reward, "span", None))]) from None
        for key in self.state_keys:
            values[key] = nxt[key]
        self.turn += 1
        self.total_reward += self._weight * reward
        self._weight *= self.discount
        after = Frame(values, self.rng)
        self._check_invariants(after)
        self._terminated = any(_holds(fn, after, expr) for expr, fn in self._termination)
        observation = ({k: values[k] for k in self.observ_keys} if self.partially_observed else self.state)
        return StepOutcome(observation, reward, self.done, self.turn)

    def _check_invariants(self, frame: Frame) -> None:
        for expr, fn in self._invariants:
            if not _holds(fn, frame, expr):
                raise InvariantViolation([error("R337", f"the state breaks the invariant {expr}", expr.span)])
