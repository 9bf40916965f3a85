"""The classical (sequential, deterministic) tracks of IPC-2014, IPC-2018 and IPC-2023.

The rules pages:
- IPC-2014: https://helios.hud.ac.uk/scommv/IPC-14/rules.html (sequential satisficing, optimal,
  agile, multi-core; the track pages seqsat/seqopt/seqagi/seqmco.html).
- IPC-2018: https://ipc2018-classical.bitbucket.io/ (optimal, bounded-cost, satisficing, agile).
- IPC-2023: https://ipc2023-classical.github.io/ (optimal, satisficing, agile).

What they say, as scored here (C* is the problem's reference cost from `--reference`, lowered to the
cheapest valid plan any entrant found when that is cheaper; without a reference, that cheapest plan):
- satisficing (all three years) and IPC-2014 multi-core: `C*/C` per solved problem, C the plan's cost.
- optimal: one point per solved problem. A plan costlier than the reference cost (the proven optimum),
  or, for a problem without one, than another entrant's valid plan, is not optimal: an error shown in
  the report, and every problem of that domain counts as unsolved for that entrant.
- bounded-cost (IPC-2018): one point per problem solved within its cost bound (the reference file
  gives the bounds); a plan above the bound is treated as an invalid plan.
- agile, IPC-2018 and IPC-2023: by CPU time T alone, 1 when T <= 1 s, `1 - log T / log 300` up to the
  300 s limit, 0 from there on (a plan at the limit scores 0, so entrants tied there tie at 0).
- agile, IPC-2014: `1 / (1 + log10(T / T*))` with T* the fastest entrant's CPU time on the problem,
  both raised to 1 s first (IPC-2011's time score, with the 5-minute limit).
- IPC-2018 and IPC-2023: one invalid plan makes every problem of that domain unsolved for that entrant,
  and invalid plans in more than one domain disqualify the entry. IPC-2014's rules keep IPC-2008's: an
  invalid plan earns nothing for its problem, and only a non-optimal plan voids the domain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pddltools.score.reference import References
from pddltools.score.rules import (
    ProblemScore,
    Scores,
    Voided,
    group_runs,
    log_time_points,
    quality,
    rank,
    ratio,
    solved_problems,
    voided_entrant_score,
)
from pddltools.score.store import Run

AGILE_LIMIT = 300.0  # seconds of CPU time: every agile track's limit since 2014
_TOLERANCE = 1e-9  # costs are floats read back from validated metric values


@dataclass(frozen=True)
class ClassicalRules:
    id: str
    kind: str  # sat | opt | agile | bounded
    url: str
    void_on_invalid: bool  # an invalid plan makes the domain unsolved for the entrant
    disqualify: bool  # ... and in more than one domain disqualifies the entry
    agile_formula: str = "log-limit"  # log-limit: 1 - log T / log 300; log10-best: 1 / (1 + log10(T / T*))


_IPC2014 = "https://helios.hud.ac.uk/scommv/IPC-14/rules.html"
_IPC2018 = "https://ipc2018-classical.bitbucket.io/"
_IPC2023 = "https://ipc2023-classical.github.io/"

CLASSICAL: dict[str, ClassicalRules] = {r.id: r for r in (
    ClassicalRules("ipc2014-sat", "sat", _IPC2014, False, False),
    ClassicalRules("ipc2014-opt", "opt", _IPC2014, False, False),
    ClassicalRules("ipc2014-agile", "agile", _IPC2014, False, False, "log10-best"),
    ClassicalRules("ipc2014-mco", "sat", _IPC2014, False, False),
    ClassicalRules("ipc2018-sat", "sat", _IPC2018, True, True),
    ClassicalRules("ipc2018-opt", "opt", _IPC2018, True, True),
    ClassicalRules("ipc2018-agile", "agile", _IPC2018, True, True),
    ClassicalRules("ipc2018-bounded", "bounded", _IPC2018, True, True),
    ClassicalRules("ipc2023-sat", "sat", _IPC2023, True, True),
    ClassicalRules("ipc2023-opt", "opt", _IPC2023, True, True),
    ClassicalRules("ipc2023-agile", "agile", _IPC2023, True, True),
)}
CLASSICAL_RULES = tuple(CLASSICAL)
#: the rules that read C* (or the bound) from --reference
USES_REFERENCE = tuple(r.id for r in CLASSICAL.values() if r.kind in ("sat", "opt", "bounded"))


class MissingBounds(ValueError):
    """The bounded-cost track scores against bounds, and some solved problems have none."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        super().__init__(f"{len(self.problems)} solved problem(s) have no cost bound in --reference, e.g. "
                         f"{self.problems[0]}")


def agile_2014(times: dict[str, float]) -> dict[str, float]:
    """IPC-2014's agile points: `1 / (1 + log10(T / T*))`, every time raised to 1 s first."""
    raised = {name: max(t, 1.0) for name, t in times.items()}
    best = min(raised.values())
    return {name: 1.0 / (1.0 + math.log10(t / best)) for name, t in raised.items()}


def score_classical(runs: Sequence[Run], rules: str, references: References | None = None) -> Scores:
    rule = CLASSICAL[rules]
    if rule.kind == "bounded":
        refs = references or References.of({})
        unbounded = sorted({r.problem_path for r in runs if r.status == "solved" and refs.get(r.problem_path) is None})
        if unbounded:
            raise MissingBounds(unbounded)
    names, by_problem, domain_of = group_runs(runs)
    voided: dict[tuple[str, str], Voided] = {}
    problems: list[ProblemScore] = []
    ignored: list[str] = []
    notes: list[str] = []
    unreferenced = 0
    for item in solved_problems(by_problem, domain_of, ignored, references,
                                voided if rule.void_on_invalid else None):
        problem, domain, solved, reference = item.problem, item.domain, item.solved, item.reference
        if reference is None and rule.kind in ("sat", "opt"):
            unreferenced += 1
        points, measures = _points(rule, solved, reference)
        for name, reason in _wrong(rule, solved, reference, notes, problem):
            voided.setdefault((name, domain), Voided(name, domain, problem, reason, solved[name].plan_hash))
        for name, run in item.entries.items():
            problems.append(ProblemScore(name, domain, problem, points.get(name, 0.0), run.status, measures.get(name)))
    if unreferenced and rule.kind in ("sat", "opt"):
        what = "C* is the cheapest valid plan found" if rule.kind == "sat" else "optimality is checked against " \
            "the cheapest valid plan found"
        notes.append(f"{unreferenced} solved problem(s) have no reference cost: there {what}")
    domains = sorted(set(domain_of.values()))
    totals = [voided_entrant_score(name, domains, problems, voided, disqualify=rule.disqualify)
              for name in sorted(set(names.values()))]
    return Scores(rules, tuple(rank(totals)), tuple(problems), tuple(ignored), (), tuple(domains),
                  tuple(voided[key] for key in sorted(voided)), tuple(notes))


def _points(rule: ClassicalRules, solved: dict[str, Run], reference: float | None
            ) -> tuple[dict[str, float], dict[str, float]]:
    if rule.kind == "agile":
        times = {name: run.cpu for name, run in solved.items()}
        if rule.agile_formula == "log10-best":
            within = {name: t for name, t in times.items() if t <= AGILE_LIMIT}
            return (agile_2014(within) if within else {}), times
        return {name: log_time_points(t, AGILE_LIMIT) for name, t in times.items()}, times
    costs = {name: quality(run) for name, run in solved.items()}
    if rule.kind == "sat":
        best = min(costs.values())
        c_star = best if reference is None else min(reference, best)
        return {name: ratio(c_star, c) for name, c in costs.items()}, costs
    if rule.kind == "bounded":
        assert reference is not None  # checked before scoring
        return {name: 1.0 for name, c in costs.items() if c <= reference + _slack(reference)}, costs
    return dict.fromkeys(costs, 1.0), costs  # opt: the domain voids below take a wrong claim back


def _wrong(rule: ClassicalRules, solved: dict[str, Run], reference: float | None, notes: list[str],
           problem: str) -> list[tuple[str, str]]:
    """The entrants whose valid plan breaks the track's cost rule, each with why."""
    if rule.kind not in ("opt", "bounded"):
        return []
    costs = {name: quality(run) for name, run in solved.items()}
    if rule.kind == "bounded":
        assert reference is not None
        return [(name, f"costs {c:g}, above the cost bound {reference:g}")
                for name, c in sorted(costs.items()) if c > reference + _slack(reference)]
    cheapest_name = min(costs, key=lambda n: (costs[n], n))
    cheapest = costs[cheapest_name]
    if reference is not None and cheapest < reference - _slack(reference):
        notes.append(f"{problem}: {cheapest_name} found a valid plan costing {cheapest:g}, below the reference "
                     f"(optimal) cost {reference:g}: the reference is wrong")
        reference = None
    if reference is None:
        return [(name, f"not optimal: costs {c:g}, {cheapest_name} found a plan costing {cheapest:g}")
                for name, c in sorted(costs.items()) if c > cheapest + _slack(cheapest)]
    return [(name, f"not optimal: costs {c:g}, the optimal (reference) cost is {reference:g}")
            for name, c in sorted(costs.items()) if c > reference + _slack(reference)]


def _slack(cost: float) -> float:
    return _TOLERANCE * max(1.0, abs(cost))


__all__ = ["AGILE_LIMIT", "CLASSICAL", "CLASSICAL_RULES", "USES_REFERENCE", "ClassicalRules", "MissingBounds",
           "agile_2014", "score_classical"]
