"""Policies: what chooses actions, offline (`pddltools rddl simulate`) and as a client (`rddl client`).

A policy is any class built as `Policy(space, seed)` with `reset()` (a round starts) and
`act(observation) -> actions`; `--policy MODULE:CLASS` loads one. Observations and actions map keys
`(fluent name, (arg, ...))` to values (bool, int, float, or a name for enum values and objects);
actions left out keep their defaults, so `{}` is the no-op.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from pddltools.diagnostics import Error, error
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

    @classmethod
    def of(cls, simulator: Simulator) -> ActionSpace:
        model = simulator.model
        ranges = {k: model.decls[k[0]].range for k in simulator.action_keys}
        values = {r: model.objects[r] for r in set(ranges.values()) if r in model.objects}
        return cls(tuple(simulator.action_keys), ranges, dict(simulator.action_defaults), values,
                   simulator.max_nondef_actions, not simulator.partially_observed,
                   lambda observation, actions: _legal(simulator, observation, actions))


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
    """Up to `max-nondef-actions` action fluents at random, each set away from its default: the second
    baseline. Boolean actions are flipped, enum and object actions take a random other value; int and
    real actions keep their defaults (no bounds are known to draw from). A choice the constraints
    reject is drawn again, up to 30 times, then the no-op is sent."""

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


BUILT_IN: dict[str, type[NoopPolicy] | type[RandomPolicy]] = {"noop": NoopPolicy, "random": RandomPolicy}


def load_policy(spec: str, space: ActionSpace, seed: int | None = None) -> Policy:
    """`random`, `noop`, or `MODULE:CLASS` (a class taking `(space, seed)`)."""
    if spec in BUILT_IN:
        return BUILT_IN[spec](space, seed)
    module_name, _, class_name = spec.partition(":")
    if not class_name:
        raise PolicyError([error("R340", f"--policy {spec}: expected random, noop or MODULE:CLASS")])
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, class_name)
    except (ImportError, AttributeError) as exc:
        raise PolicyError([error("R340", f"--policy {spec}: cannot load it ({exc})")]) from None
    policy = cls(space, seed)
    if not isinstance(policy, Policy):
        raise PolicyError([error("R340", f"--policy {spec}: {class_name} has no reset() and act(observation)")])
    return policy
