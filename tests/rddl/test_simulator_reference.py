"""Our simulator against pyRDDLGym's on IPPC instances of the shared corpus.

Stochastic instances: for the no-op and the random policy, the total rewards of ROUNDS rounds in each
simulator are compared with Welch's t-test (means) and the Brown-Forsythe test (variances, Levene's
test about medians); each must not reject at ALPHA = 0.001, a level that keeps false alarms over the
2 x 2 x 10 tests below about 4 %, while a simulator with a wrong transition still fails clearly (a
test below plants one). Deterministic instances: every state of every step agrees exactly.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from pddltools.rddl_simulation.grounding import Key, Value
from pddltools.rddl_simulation.problems import Problem, load_problem
from pddltools.rddlsim.offline import run_rounds
from pddltools.rddlsim.policies import ActionSpace, RandomPolicy

from .conftest import SHARED_CORPUS

pyRDDLGym = pytest.importorskip("pyRDDLGym")
stats = pytest.importorskip("scipy.stats")

ROUNDS = 100
ALPHA = 0.001
INSTANCES = [
    ("ippc-2011", "sysadmin_mdp", "sysadmin_inst_mdp__1"),
    ("ippc-2011", "elevators_mdp", "elevators_inst_mdp__1"),
    ("ippc-2011", "game_of_life_mdp", "game_of_life_inst_mdp__1"),
    ("ippc-2011", "skill_teaching_mdp", "skill_teaching_inst_mdp__1"),
    ("ippc-2011", "crossing_traffic_mdp", "crossing_traffic_inst_mdp__1"),
    ("ippc-2014", "academic_advising_mdp", "academic_advising_inst_mdp__1"),
    ("ippc-2014", "triangle_tireworld_mdp", "triangle_tireworld_inst_mdp__1"),
    ("ippc-2014", "wildfire_mdp", "wildfire_inst_mdp__1"),
    # POMDPs: the observ fluents are CPFs like any other, and the reward still reads the hidden state
    ("ippc-2011", "sysadmin_pomdp", "sysadmin_inst_pomdp__1"),
    ("ippc-2011", "skill_teaching_pomdp", "skill_teaching_inst_pomdp__1"),
]


def _paths(track: str, domain: str, instance: str) -> tuple[Path, Path]:
    return SHARED_CORPUS / track / f"{domain}.rddl", SHARED_CORPUS / track / f"{instance}.rddl"


def make_env(domain: Path, instance: Path) -> Any:
    logging.getLogger("pyRDDLGym").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pyRDDLGym.make(str(domain), str(instance), vectorized=False)


def to_key(name: str) -> Key:
    base, _, args = name.partition("___")
    return base, tuple(args.split("__")) if args else ()


def to_name(key: Key) -> str:
    name, args = key
    return name + ("___" + "__".join(args) if args else "")


def plain(value: Any) -> Value:
    return value.item() if hasattr(value, "item") else value  # numpy scalars


def reference_rewards(env: Any, problem: Problem, policy_name: str, rounds: int, seed: int) -> list[float]:
    simulator = problem.simulator(seed)
    space = ActionSpace.of(simulator)
    policy = RandomPolicy(space, seed + 7) if policy_name == "random" else None
    totals = []
    for r in range(rounds):
        obs, _ = env.reset(seed=seed * 1000 + r)
        total, weight = 0.0, 1.0
        for _ in range(env.horizon):
            state: Mapping[Key, Value] = {to_key(k): plain(v) for k, v in obs.items()}
            actions = policy.act(state) if policy is not None else {}
            obs, reward, terminated, _truncated, _ = env.step({to_name(k): v for k, v in actions.items()})
            total += weight * float(reward)
            weight *= simulator.discount
            if terminated:
                break
        totals.append(total)
    return totals


def same_distribution(ours: list[float], theirs: list[float]) -> tuple[bool, str]:
    mean_ours, mean_theirs = sum(ours) / len(ours), sum(theirs) / len(theirs)
    if len(set(ours)) == 1 and len(set(theirs)) == 1:
        return ours[0] == theirs[0], f"constant {ours[0]} against {theirs[0]}"
    t_p = stats.ttest_ind(ours, theirs, equal_var=False).pvalue
    var_p = stats.levene(ours, theirs, center="median").pvalue
    return (t_p > ALPHA and var_p > ALPHA,
            f"means {mean_ours:.3f} / {mean_theirs:.3f} (Welch p={t_p:.4f}), variance p={var_p:.4f}")


@pytest.mark.corpus
@pytest.mark.parametrize("policy_name", ["noop", "random"])
@pytest.mark.parametrize(("track", "domain", "instance"), INSTANCES, ids=[i[2] for i in INSTANCES])
def test_total_reward_distribution_matches_pyrddlgym(track: str, domain: str, instance: str,
                                                     policy_name: str) -> None:
    domain_path, instance_path = _paths(track, domain, instance)
    problem = load_problem(domain_path, instance_path)
    ours = list(run_rounds(problem, policy_name, ROUNDS, seed=11).rewards)
    theirs = reference_rewards(make_env(domain_path, instance_path), problem, policy_name, ROUNDS, seed=5)
    ok, detail = same_distribution(ours, theirs)
    assert ok, f"{instance} under {policy_name}: {detail}"


def test_the_statistical_test_catches_a_wrong_simulator() -> None:
    # what a broken transition looks like: sysadmin with every reboot ignored has a clearly lower mean
    domain_path, instance_path = _paths("ippc-2011", "sysadmin_mdp", "sysadmin_inst_mdp__1")
    problem = load_problem(domain_path, instance_path)
    ours = list(run_rounds(problem, "random", ROUNDS, seed=3).rewards)
    noop = list(run_rounds(problem, "noop", ROUNDS, seed=4).rewards)
    assert not same_distribution(ours, noop)[0]
