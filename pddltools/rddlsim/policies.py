"""Policies: what chooses actions, offline (`pddltools rddl simulate`) and as a client (`rddl client`).

A policy is any class built as `Policy(space, seed)` with `reset()` (a round starts) and
`act(observation) -> actions`; `--policy MODULE:CLASS` loads one. Observations and actions map keys
`(fluent name, (arg, ...))` to values (bool, int, float, or a name for enum values and objects);
actions left out keep their defaults, so `{}` is the no-op.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from pddltools.diagnostics import Error, error
from pddltools.rddl_simulation.bounds import Box, action_bounds
from pddltools.rddl_simulation.grounding import Key, Value
from pddltools.rddl_simulation.simulator import Simulator

Observation = Mapping[Key, Value]
Actions = dict[Key, Value]


@dataclass(frozen=True)
class ActionSpace:
    """What a policy may do: the grounded action fluents, their ranges and defaults, and a legality test."""

    keys: tuple[Key, ...]
    ranges: Mapping[Key, str]
    defaults: Mapping[Key, Value]
    values: Mapping[str, tuple[str, ...]]  # the values of every enum or object range
    max_nondef_actions: float
    fully_observed: bool
    legal: Callable[[Observation, Mapping[Key, Value]], bool]
    bounds: Mapping[Key, Box] = field(default_factory=dict)  # int and real actions: (low, high), ±inf if open

    @classmethod
    def of(cls, simulator: Simulator) -> ActionSpace:
        model = simulator.model
        ranges = {k: model.decls[k[0]].range for k in simulator.action_keys}
        values = {r: model.objects[r] for r in set(ranges.values()) if r in model.objects}
        return cls(tuple(simulator.action_keys), ranges, dict(simulator.action_defaults), values,
                   simulator.max_nondef_actions, not simulator.partially_observed,
                   lambda observation, actions: _legal(simulator, observation, actions), action_bounds(model))


def _legal(simulator: Simulator, observation: Observation, actions: Mapping[Key, Value]) -> bool:
    # constraints read the state: only an MDP's observation gives it; a POMDP policy checks the rest
    if simulator.partially_observed or not observation:
        try:
            simulator.check_actions(actions)
        except Error:
            return False
        return True
    return simulator.legal_in(observation, actions)


@runtime_checkable
class Policy(Protocol):
    def reset(self) -> None: ...

    def act(self, observation: Observation) -> Actions: ...


class NoopPolicy:
    """Every action fluent at its default, every turn: the first IPPC baseline."""

    def __init__(self, space: ActionSpace, seed: int | None = None) -> None:
        self.space = space

    def reset(self) -> None:
        pass

    def act(self, observation: Observation) -> Actions:
        return {}


class RandomPolicy:
    """The random baseline as pyRDDLGym's `RandomAgent` draws it (IPPC-2023): each turn, as many action
    fluents as `max-nondef-actions` allows (all of them for pos-inf), chosen uniformly without
    replacement, each set to a value drawn over its whole range: a fair coin for a boolean, a uniform
    value of an enum or object type, a uniform integer or real within the bounds the action
    preconditions put on it (`pddltools.rddl_simulation.bounds`). A real bounded on one side only is
    its bound plus or minus an exponential draw, an unbounded real a standard normal one (gym's `Box`);
    an int without both bounds keeps its default. A draw the constraints reject is drawn again, up to
    30 times, then the no-op is sent."""

    ATTEMPTS = 30

    def __init__(self, space: ActionSpace, seed: int | None = None) -> None:
        self.space = space
        self.rng = np.random.default_rng(seed)
        self.choices = [k for k in space.keys if self._drawable(k)]

    def _drawable(self, key: Key) -> bool:
        kind = self.space.ranges[key]
        if kind in ("bool", "real"):
            return True
        if kind == "int":
            low, high = self.space.bounds.get(key, (-math.inf, math.inf))
            return math.isfinite(low) and math.isfinite(high) and low <= high
        return len(self.space.values.get(kind, ())) > 0

    def reset(self) -> None:
        pass

    def act(self, observation: Observation) -> Actions:
        if not self.choices:
            return {}
        count = int(min(self.space.max_nondef_actions, len(self.choices)))
        for _ in range(self.ATTEMPTS):
            picked = self.rng.choice(len(self.choices), size=count, replace=False) if count else ()
            actions = {self.choices[i]: self._draw(self.choices[i]) for i in picked}
            if self.space.legal(observation, actions):
                return actions
        return {}

    def _draw(self, key: Key) -> Value:
        kind = self.space.ranges[key]
        if kind == "bool":
            return bool(self.rng.integers(2))
        if kind in ("int", "real"):
            low, high = self.space.bounds.get(key, (-math.inf, math.inf))
            if kind == "int":
                return int(self.rng.integers(int(low), int(high) + 1))
            if math.isfinite(low) and math.isfinite(high):
                return float(self.rng.uniform(low, high)) if high > low else float(low)
            if math.isfinite(low):
                return float(low + self.rng.exponential())
            if math.isfinite(high):
                return float(high - self.rng.exponential())
            return float(self.rng.standard_normal())
        values = self.space.values[kind]
        return values[int(self.rng.integers(len(values)))]


class RDDLSimRandomPolicy:
    """RDDLSim's random baseline (IPPC 2011 and 2014): up to `max-nondef-actions` action fluents at
    random, each set away from its default. Boolean actions are flipped, enum and object actions take a
    random other value; int and real actions keep their defaults (the boolean competitions had none).
    A choice the constraints reject is drawn again, up to 30 times, then the no-op is sent."""

    ATTEMPTS = 30

    def __init__(self, space: ActionSpace, seed: int | None = None) -> None:
        self.space = space
        self.rng = np.random.default_rng(seed)
        self.choices = [k for k in space.keys if space.ranges[k] == "bool"
                        or len(space.values.get(space.ranges[k], ())) > 1]

    def reset(self) -> None:
        pass

    def act(self, observation: Observation) -> Actions:
        if not self.choices:
            return {}
        limit = int(min(self.space.max_nondef_actions, len(self.choices)))
        for _ in range(self.ATTEMPTS):
            count = int(self.rng.integers(0, limit + 1))
            picked: list[int] = list(self.rng.choice(len(self.choices), size=count, replace=False)) if count else []
            actions = {self.choices[i]: self._other(self.choices[i]) for i in picked}
            if self.space.legal(observation, actions):
                return actions
        return {}

    def _other(self, key: Key) -> Value:
        default = self.space.defaults[key]
        if self.space.ranges[key] == "bool":
            return not default
        others = [v for v in self.space.values[self.space.ranges[key]] if v != default]
        return others[int(self.rng.integers(len(others)))]


class PolicyError(Error):
    """`--policy` names nothing that can be loaded."""


BUILT_IN: dict[str, type[NoopPolicy] | type[RandomPolicy] | type[RDDLSimRandomPolicy]] = {
    "noop": NoopPolicy, "random": RandomPolicy, "rddlsim-random": RDDLSimRandomPolicy}


def load_policy(spec: str, space: ActionSpace, seed: int | None = None) -> Policy:
    """`random`, `rddlsim-random`, `noop`, or `MODULE:CLASS` (a class taking `(space, seed)`)."""
    if spec in BUILT_IN:
        return BUILT_IN[spec](space, seed)
    module_name, _, class_name = spec.partition(":")
    if not class_name:
        raise PolicyError([error("R340", f"--policy {spec}: expected random, rddlsim-random, noop or MODULE:CLASS")])
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, class_name)
    except (ImportError, AttributeError) as exc:
        raise PolicyError([error("R340", f"--policy {spec}: cannot load it ({exc})")]) from None
    policy = cls(space, seed)
    if not isinstance(policy, Policy):
        raise PolicyError([error("R340", f"--policy {spec}: {class_name} has no reset() and act(observation)")])
    return policy
