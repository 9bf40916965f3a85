"""Rounds run offline, without a network: `pddltools rddl simulate` and the baselines IPPC scoring needs."""

from __future__ import annotations

import math
from dataclasses import dataclass

from pddltools.rddl_simulation.problems import Problem
from pddltools.rddlsim.policies import ActionSpace, Policy, load_policy


@dataclass(frozen=True)
class RoundsResult:
    instance: str
    domain: str
    policy: str
    seed: int
    horizon: int
    rewards: tuple[float, ...]

    @property
    def mean(self) -> float:
        return math.fsum(self.rewards) / len(self.rewards) if self.rewards else math.nan

    @property
    def std(self) -> float:
        """The sample standard deviation (n - 1), 0 for one round."""
        n = len(self.rewards)
        if n < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(math.fsum((r - mean) ** 2 for r in self.rewards) / (n - 1))

    def to_json(self) -> dict[str, object]:
        return {"instance": self.instance, "domain": self.domain, "policy": self.policy, "seed": self.seed,
                "horizon": self.horizon, "rounds": len(self.rewards), "mean": self.mean, "std": self.std,
                "rewards": list(self.rewards)}


def run_rounds(problem: Problem, policy_spec: str, rounds: int, seed: int = 0,
               policy: Policy | None = None) -> RoundsResult:
    """`rounds` rounds of `problem` under the policy; the simulator and the policy get their own seeds."""
    simulator = problem.simulator(seed)
    if policy is None:
        policy = load_policy(policy_spec, ActionSpace.of(simulator), seed + 1)
    rewards = []
    for _ in range(rounds):
        observation = simulator.reset()
        policy.reset()
        while not simulator.done:
            observation = simulator.step(policy.act(observation)).observation
        rewards.append(simulator.total_reward)
    return RoundsResult(problem.name, problem.domain.name, policy_spec, seed, simulator.horizon, tuple(rewards))
