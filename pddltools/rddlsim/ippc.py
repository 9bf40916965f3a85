"""IPPC scores from a results log: per instance `max(0, (R - R_base) / (R_best - R_base))`.

R is a client's mean round reward on the instance (over the round-end records of the log, the last
30 when there are more, as the rules say), R_best the best such mean of any client, R_base the better
of the random and the no-op policy's means. A client named `random` or `noop` in the log is that
baseline; a baseline the log lacks is run here, offline, for `baseline_rounds` rounds. When nobody
beats the baseline (R_best <= R_base) every client scores 0 on the instance. Scores are averaged per
domain, and the domain averages overall.

The rules are named for the competitions that used them; they differ in the random baseline:
- `ippc2011` (http://users.cecs.anu.edu.au/~ssanner/IPPC_2011/) and `ippc2014`
  (https://cs.uwaterloo.ca/~mgrzes/IPPC_2014/), run on RDDLSim: RDDLSim's random policy
  (`rddlsim-random`: boolean and enum actions set away from their defaults, up to max-nondef-actions).
- `ippc2023` (https://ataitler.github.io/IPPC2023/), run on pyRDDLGym: its random agent (`random`:
  every action fluent drawn over its range, reals and ints within the bounds of the preconditions).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Error, InputError, error
from pddltools.serving import read_results

BASELINES = ("random", "noop")


@dataclass(frozen=True)
class IppcRules:
    id: str
    url: str
    random_policy: str  # the policy that stands for the random baseline when the log lacks it
    trials: int = 30  # a client's last `trials` rounds per instance count


IPPC_RULES: dict[str, IppcRules] = {r.id: r for r in (
    IppcRules("ippc2011", "http://users.cecs.anu.edu.au/~ssanner/IPPC_2011/", "rddlsim-random"),
    IppcRules("ippc2014", "https://cs.uwaterloo.ca/~mgrzes/IPPC_2014/", "rddlsim-random"),
    IppcRules("ippc2023", "https://ataitler.github.io/IPPC2023/", "random"),
)}


class LogError(InputError):
    """A results log that cannot be read, or holds no round results."""


@dataclass(frozen=True)
class InstanceScore:
    instance: str
    domain: str
    mean: float
    rounds: int
    base: float
    best: float
    score: float

    def to_json(self) -> dict[str, Any]:
        return {"instance": self.instance, "domain": self.domain, "mean": self.mean, "rounds": self.rounds,
                "base": self.base, "best": self.best, "score": self.score}


@dataclass(frozen=True)
class ClientScore:
    client: str
    instances: tuple[InstanceScore, ...]

    @property
    def domains(self) -> dict[str, float]:
        by_domain: dict[str, list[float]] = {}
        for item in self.instances:
            by_domain.setdefault(item.domain, []).append(item.score)
        return {d: sum(s) / len(s) for d, s in sorted(by_domain.items())}

    @property
    def overall(self) -> float:
        domains = self.domains
        return sum(domains.values()) / len(domains) if domains else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"client": self.client, "instances": [i.to_json() for i in self.instances],
                "domains": self.domains, "overall": self.overall}


def read_records(path: str | Path) -> list[dict[str, Any]]:
    try:
        return read_results(path, "R370")
    except InputError as exc:
        raise LogError(exc.diagnostics) from None


def round_means(records: Iterable[Mapping[str, Any]], trials: int | None = None
                ) -> dict[tuple[str, str], tuple[float, int, str]]:
    """(client, instance) → (mean round reward, rounds, domain), over the last `trials` rounds."""
    sums: dict[tuple[str, str], list[float]] = {}
    domains: dict[str, str] = {}
    for record in records:
        if record.get("event") != "round-end":
            continue
        key = (str(record.get("client")), str(record.get("instance")))
        sums.setdefault(key, []).append(float(record.get("reward", 0.0)))
        domains[key[1]] = str(record.get("domain", "?"))
    kept = {k: v[-trials:] if trials else v for k, v in sums.items()}
    return {k: (math.fsum(v) / len(v), len(v), domains[k[1]]) for k, v in kept.items()}


Baseline = Callable[[str, str], float]  # (instance, "random" | "noop") → mean reward


def score(records: Iterable[Mapping[str, Any]], baseline: Baseline | None = None, rules: str = "ippc2023"
          ) -> tuple[list[ClientScore], dict[str, dict[str, Any]]]:
    """Every client's scores under `rules`, and for each instance the baselines used and where they came
    from; `baseline(instance, policy)` runs a missing one (`random` stands for the rules' random policy)."""
    rule = IPPC_RULES[rules]
    means = round_means(records, rule.trials)
    if not means:
        raise LogError([error("R371", "the results log holds no round-end records")])
    instances = sorted({instance for _, instance in means})
    baselines: dict[str, dict[str, Any]] = {}
    for instance in instances:
        entry: dict[str, Any] = {}
        for policy in BASELINES:
            logged = means.get((policy, instance))
            if logged is not None:
                entry[policy], entry[f"{policy}_source"] = logged[0], "log"
            elif baseline is not None:
                run = rule.random_policy if policy == "random" else policy
                entry[policy], entry[f"{policy}_source"] = baseline(instance, run), "simulated"
                if policy == "random":
                    entry["random_policy"] = run
        if not any(p in entry for p in BASELINES):
            raise LogError([error("R372", f"no baseline for {instance}: none in the log and no RDDL files "
                                          "given to run them (--rddl)")])
        entry["base"] = max(entry[p] for p in BASELINES if p in entry)
        baselines[instance] = entry
    best = {instance: max([m for (_, i), (m, _, _) in means.items() if i == instance] +
                          [baselines[instance]["base"]]) for instance in instances}
    clients = sorted({client for client, _ in means} - set(BASELINES)) or sorted({c for c, _ in means})
    results = []
    for client in clients:
        rows = []
        for instance in instances:
            found = means.get((client, instance))
            if found is None:
                continue
            mean, rounds, domain = found
            base, top = baselines[instance]["base"], best[instance]
            value = max(0.0, (mean - base) / (top - base)) if top > base else 0.0
            rows.append(InstanceScore(instance, domain, mean, rounds, base, top, value))
        results.append(ClientScore(client, tuple(rows)))
    return results, baselines


def simulated_baselines(paths: Iterable[str | Path], rounds: int, seed: int) -> Baseline:
    """Baselines run offline from the RDDL files in `paths` (parsed once, on first use)."""
    from pddltools.rddl_simulation.problems import find_problems
    from pddltools.rddlsim.offline import run_rounds

    folders = list(paths)
    cache: dict[str, Any] = {}

    def run(instance: str, policy: str) -> float:
        if "problems" not in cache:
            cache["problems"] = find_problems(folders)
        problems = cache["problems"]
        if instance not in problems:
            raise LogError([error("R372", f"instance {instance} is in none of {', '.join(map(str, folders))}")])
        return run_rounds(problems[instance], policy, rounds, seed).mean

    return run


__all__ = ["IPPC_RULES", "ClientScore", "Error", "InstanceScore", "IppcRules", "LogError", "read_records", "score",
           "simulated_baselines"]
