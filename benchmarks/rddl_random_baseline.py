"""The random baseline (`--policy random`) against pyRDDLGym's RandomAgent on IPPC-2023 instances with
real or int actions.

    python benchmarks/rddl_random_baseline.py [DOMAIN:INSTANCE ...] [--rounds 30] [--json]

For each instance of rddlrepository's IPPC2023 archive (default: UAV, HVAC, PowerGen, Reservoir and
MarsRover, instance1 each), ROUNDS rounds of pyRDDLGym with its random agent (`num_actions` the instance's
max-nondef-actions, as its examples do) and ROUNDS rounds of ours, and, for comparison, RDDLSim's random
policy (`rddlsim-random`, which sends no real action). It prints both means, the 95 % confidence interval
of pyRDDLGym's (Student's t), whether ours lies inside it, and Welch's p-value. Nothing here fails on a
number (with identical distributions a mean falls outside the other's 95 % interval about one time in
six): the tests check the agreement on a small domain at a strict level.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import time
import warnings
from typing import Any

DEFAULT = ("UAV:instance1", "HVAC:instance1", "PowerGen:instance1", "Reservoir:instance1", "MarsRover:instance1")


def pyrddlgym_rewards(domain: str, instance: str, rounds: int, seed: int) -> list[float]:
    import pyRDDLGym
    from pyRDDLGym.core.policy import RandomAgent

    logging.getLogger("pyRDDLGym").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = pyRDDLGym.make(domain, instance, vectorized=False)
    agent = RandomAgent(env.action_space, num_actions=env.max_allowed_actions, seed=seed)
    totals = []
    for r in range(rounds):
        env.reset(seed=seed * 1000 + r)
        total, weight = 0.0, 1.0
        for _ in range(env.horizon):
            _, reward, terminated, truncated, _ = env.step(agent.sample_action())
            total += weight * float(reward)
            weight *= env.model.discount
            if terminated or truncated:
                break
        totals.append(total)
    return totals


def interval(values: list[float]) -> tuple[float, float, float]:
    from scipy import stats

    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = float(stats.t.ppf(0.975, len(values) - 1)) * sd / math.sqrt(len(values))
    return mean, mean - half, mean + half


def measure(case: str, rounds: int) -> dict[str, Any]:
    import rddlrepository
    from scipy import stats

    from pddltools.rddl_simulation.problems import load_problem
    from pddltools.rddlsim.offline import run_rounds

    name, _, instance = case.partition(":")
    folder = os.path.join(os.path.dirname(rddlrepository.__file__), "archive", "competitions", "IPPC2023", name)
    domain_file, instance_file = os.path.join(folder, "domain.rddl"), os.path.join(folder, f"{instance}.rddl")
    problem = load_problem(domain_file, instance_file)
    start = time.perf_counter()
    theirs = pyrddlgym_rewards(domain_file, instance_file, rounds, seed=5)
    middle = time.perf_counter()
    ours = list(run_rounds(problem, "random", rounds, seed=11).rewards)
    end = time.perf_counter()
    old = list(run_rounds(problem, "rddlsim-random", rounds, seed=11).rewards)
    mean, low, high = interval(theirs)
    our_mean = sum(ours) / len(ours)
    return {"case": case, "instance": problem.name, "pyrddlgym_mean": mean, "ci": [low, high], "ours_mean": our_mean,
            "inside": low <= our_mean <= high, "welch_p": float(stats.ttest_ind(ours, theirs, equal_var=False).pvalue),
            "rddlsim_random_mean": sum(old) / len(old), "pyrddlgym_seconds": middle - start,
            "ours_seconds": end - middle}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=list(DEFAULT), metavar="DOMAIN:INSTANCE")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    for case in args.cases:
        row = measure(case, args.rounds)
        if args.json:
            print(json.dumps(row))
            continue
        low, high = row["ci"]
        print(f"{row['case']} ({row['instance']}): pyRDDLGym {row['pyrddlgym_mean']:.2f} [{low:.2f}, {high:.2f}]; "
              f"ours {row['ours_mean']:.2f} ({'inside' if row['inside'] else 'OUTSIDE'}, Welch p "
              f"{row['welch_p']:.3f}); rddlsim-random {row['rddlsim_random_mean']:.2f}; "
              f"{row['pyrddlgym_seconds']:.1f} s / {row['ours_seconds']:.1f} s", flush=True)


if __name__ == "__main__":
    main()
