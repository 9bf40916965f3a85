"""The IPC scoring rules over stored runs.

Only runs with status `solved` (a validated plan) earn points; every other status counts as unsolved.
Problems that no entrant solved are listed as ignored and earn nobody anything. An entrant is a planner,
or `planner (config)` when the runs hold one planner under more than one configuration.

- `ipc2008-sat`: per problem, best known quality over the plan's quality: `C*/C` for a minimised metric
  (plan cost; the plan length when the problem has no metric), `Q/Q*` for a maximised one (net benefit).
- `ipc2008-opt`: one point per problem solved; an entrant whose plan is costlier than another valid plan
  for the same problem gets nothing for that whole domain (its plan was not optimal), and is named.
- `ipc2011-time`: `1 / (1 + log10(T / T*))`, where T is the run's time and T* the fastest, both raised
  to 1 s first so that all times below a second count as equal.
- `ipc2011-quality`: `N*/N` on plan length.
- `ipc2023-numeric-sat`, `-opt`, `-agile`: the numeric track's rules, in `pddltools.score.ipc2023`.
- `ipc2014-*`, `ipc2018-*`, `ipc2023-sat|opt|agile`: the classical tracks since 2014, against reference
  costs, in `pddltools.score.classical`.
- `ipc2023-learning-quality|agile`: the IPC-2023 learning tracks, in `pddltools.score.learning2023`.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from pddltools.diagnostics import InputError
from pddltools.reading import read_input_text
from pddltools.score.store import Run
from pddltools.score.verdicts import count_actions

if TYPE_CHECKING:
    from pddltools.score.reference import References

NUMERIC_RULES = ("ipc2023-numeric-sat", "ipc2023-numeric-opt", "ipc2023-numeric-agile")
# the HTN tracks' rules are computed in score/htn_rules.py (which builds on this module's types)
HTN_RULES = ("ipc2020-htn-agile", "ipc2023-htn-agile", "ipc2023-htn-sat", "ipc2023-htn-opt")
# the classical tracks since 2014, computed in score/classical.py (which builds on this module's types)
CLASSICAL_RULES = ("ipc2014-sat", "ipc2014-opt", "ipc2014-agile", "ipc2014-mco", "ipc2018-sat", "ipc2018-opt",
                   "ipc2018-agile", "ipc2018-bounded", "ipc2023-sat", "ipc2023-opt", "ipc2023-agile")
LEARNING_2023_RULES = ("ipc2023-learning-quality", "ipc2023-learning-agile")
RULES: tuple[str, ...] = ("ipc2008-sat", "ipc2008-opt", "ipc2011-time", "ipc2011-quality", *NUMERIC_RULES,
                          *HTN_RULES, *CLASSICAL_RULES, *LEARNING_2023_RULES)

Direction = Callable[[str], str]  # problem path -> "minimize" | "maximize"

_METRIC = re.compile(r"\(\s*:metric\s+(minimize|maximize)\b", re.IGNORECASE)


def metric_direction(problem_path: str) -> str:
    """The problem's metric direction, read from its text (comments removed); `minimize` without one."""
    try:
        text = read_input_text(problem_path, errors="replace")
    except InputError:
        return "minimize"
    match = _METRIC.search(re.sub(r";[^\n]*", "", text))
    return match.group(1).lower() if match else "minimize"


@dataclass(frozen=True)
class ProblemScore:
    entrant: str
    domain: str
    problem: str  # the problem file's path, as stored
    score: float
    status: str
    quality: float | None  # the value the rule compares (cost, length or time)


@dataclass(frozen=True)
class Penalty:
    """IPC-2008 optimal track: `entrant`'s plan for `problem` costs `cost`, another valid plan `best`."""

    entrant: str
    domain: str
    problem: str
    cost: float
    best: float
    best_by: str  # the entrant that found `best`, or REFERENCE
    plan_hash: str | None = None  # names the offending plan (SHA-256 of its text, as stored)

    def against(self) -> str:
        """What the plan lost to, in words."""
        if self.best_by == REFERENCE:
            return f"the optimal (reference) cost is {self.best:g}"
        return f"{self.best_by} found a plan costing {self.best:g}"


REFERENCE = "the reference (optimal cost)"


@dataclass(frozen=True)
class Voided:
    """`entrant` solves nothing in `domain`: its plan for `problem` was invalid (`reason` says how)."""

    entrant: str
    domain: str
    problem: str
    reason: str
    plan_hash: str | None = None


@dataclass(frozen=True)
class EntrantScore:
    name: str
    total: float
    solved: int
    domains: dict[str, float]
    solved_by_domain: dict[str, int]
    rank: int = 0
    disqualified: bool = False  # IPC-2023 numeric: invalid plans in more than one domain


@dataclass(frozen=True)
class Scores:
    rules: str
    entrants: tuple[EntrantScore, ...]  # best first
    problems: tuple[ProblemScore, ...]
    ignored: tuple[str, ...]  # problems no entrant solved
    penalties: tuple[Penalty, ...] = ()
    domains: tuple[str, ...] = ()
    voided: tuple[Voided, ...] = ()  # IPC-2023 numeric: domains an invalid plan made unsolved
    notes: tuple[str, ...] = ()  # what the reader must know to trust the numbers (a reference found wrong)

    def entrant(self, name: str) -> EntrantScore:
        return next(e for e in self.entrants if e.name == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "planners": {
                e.name: {"total": e.total, "solved": e.solved, "rank": e.rank, "domains": e.domains,
                         "solved_by_domain": e.solved_by_domain, "disqualified": e.disqualified}
                for e in self.entrants
            },
            "domains": list(self.domains),
            "ignored": list(self.ignored),
            "penalties": [p.__dict__ for p in self.penalties],
            "voided": [v.__dict__ for v in self.voided],
            "notes": list(self.notes),
            "problems": [p.__dict__ for p in self.problems],
        }


def entrant_names(runs: Iterable[Run]) -> dict[tuple[str, str], str]:
    """(planner, config) -> entrant name."""
    configs: dict[str, set[str]] = defaultdict(set)
    for run in runs:
        configs[run.planner].add(run.config)
    return {(planner, config): planner if len(cs) == 1 else f"{planner} ({config})"
            for planner, cs in configs.items() for config in cs}


def group_runs(runs: Iterable[Run]) -> tuple[dict[tuple[str, str], str], dict[str, dict[str, Run]], dict[str, str]]:
    """The entrant names, each problem's run per entrant, and each problem's domain."""
    runs = list(runs)
    names = entrant_names(runs)
    by_problem: dict[str, dict[str, Run]] = defaultdict(dict)
    domain_of: dict[str, str] = {}
    for run in runs:
        by_problem[run.problem_path][names[run.planner, run.config]] = run
        domain_of[run.problem_path] = run.domain
    return names, by_problem, domain_of


@dataclass(frozen=True)
class SolvedProblem:
    """A problem some entrant solved, as the rules score it."""

    problem: str
    domain: str
    entries: Mapping[str, Run]  # every entrant's run
    solved: dict[str, Run]  # the runs that earn points (status `solved`)
    reference: float | None  # its reference cost (or cost bound), when the rules read one


def solved_problems(by_problem: Mapping[str, Mapping[str, Run]], domain_of: Mapping[str, str], ignored: list[str],
                    references: References | None = None,
                    voided: dict[tuple[str, str], Voided] | None = None) -> Iterator[SolvedProblem]:
    """The problems of `group_runs` in path order, each some entrant solved with its runs and reference; a
    problem nobody solved is appended to `ignored` instead. With `voided` (the rules where an invalid plan
    zeroes a domain), every problem's invalid plans are recorded there first (`void_invalid`), solved or
    not, in the same order, so the first such problem is the one named."""
    for problem in sorted(by_problem):
        entries = by_problem[problem]
        domain = domain_of[problem]
        if voided is not None:
            void_invalid(voided, entries, domain, problem)
        solved = {name: run for name, run in entries.items() if run.status == "solved"}
        if not solved:
            ignored.append(problem)
            continue
        yield SolvedProblem(problem, domain, entries, solved, None if references is None else references.get(problem))


def void_invalid(voided: dict[tuple[str, str], Voided], entries: Mapping[str, Run], domain: str,
                 problem: str) -> None:
    """Record, for each entrant whose run on `problem` left an invalid plan, that `domain` is void for it
    (the first such problem is the one named): the rules where an invalid plan zeroes a domain."""
    for name, run in sorted(entries.items()):
        if run.status == "invalid-plan":
            why = run.reason or "invalid plan"
            voided.setdefault((name, domain), Voided(name, domain, problem, why, run.plan_hash))


def score(runs: Sequence[Run], rules: str, direction: Direction = metric_direction,
          references: References | None = None) -> Scores:
    """`references`: the reference (best known or optimal) cost, or the cost bound, of each problem, for
    the rules since 2014 that score against one."""
    if rules not in RULES:
        raise ValueError(f"unknown rules {rules!r}; known: {', '.join(RULES)}")
    if rules in CLASSICAL_RULES:
        from pddltools.score.classical import score_classical

        return score_classical(runs, rules, references)
    if rules in LEARNING_2023_RULES:
        from pddltools.score.learning2023 import score_learning

        return score_learning(runs, rules, references)
    if rules in NUMERIC_RULES:
        from pddltools.score.ipc2023 import score_numeric  # it builds on this module's types

        return score_numeric(runs, rules, direction, references)
    if rules in HTN_RULES:
        from pddltools.score.htn_rules import score_htn

        return score_htn(runs, rules, references)
    names, by_problem, domain_of = group_runs(runs)
    entrants = sorted(set(names.values()))
    problems: list[ProblemScore] = []
    penalties: list[Penalty] = []
    ignored: list[str] = []
    notes: list[str] = []
    for item in solved_problems(by_problem, domain_of, ignored, None if rules == "ipc2011-time" else references):
        problem, solved, reference = item.problem, item.solved, item.reference
        way = direction(problem) if rules == "ipc2008-sat" else ""
        points, measures = problem_points(rules, solved, way, reference)
        if rules == "ipc2008-opt":
            reference = checked_reference(solved, problem, reference, notes)
            penalties.extend(suboptimal(solved, item.domain, problem, reference=reference))
        for name, run in item.entries.items():
            problems.append(ProblemScore(name, item.domain, problem, points.get(name, 0.0), run.status,
                                         measures.get(name)))
    penalised = {(p.entrant, p.domain) for p in penalties}
    domains = sorted(set(domain_of.values()))
    totals = [entrant_score(name, domains, problems, penalised, solved_when_voided=True) for name in entrants]
    return Scores(rules, tuple(rank(totals)), tuple(problems), tuple(ignored), tuple(penalties), tuple(domains),
                  (), tuple(notes))


def entrant_score(name: str, domains: Sequence[str], problems: Sequence[ProblemScore],
                  voided: Collection[tuple[str, str]], *, solved_when_voided: bool = False,
                  mean_over: Mapping[str, int] | None = None) -> EntrantScore:
    """`name`'s total over `problems`, domain by domain. In a domain `voided` for it ((entrant, domain)
    pairs) it scores 0, and its problems there count as solved only when `solved_when_voided` (IPC-2008
    zeroes the score alone); with `mean_over` (problems per domain) a domain's points are their mean over
    that many problems (the HTN tracks)."""
    per_domain = dict.fromkeys(domains, 0.0)
    solved = dict.fromkeys(domains, 0)
    for item in problems:
        if item.entrant != name:
            continue
        void = (name, item.domain) in voided
        if item.status == "solved" and (solved_when_voided or not void):
            solved[item.domain] += 1
        if not void:
            per_domain[item.domain] += item.score if mean_over is None else item.score / mean_over[item.domain]
    return EntrantScore(name, sum(per_domain.values()), sum(solved.values()), per_domain, solved)


def voided_entrant_score(name: str, domains: Sequence[str], problems: Sequence[ProblemScore],
                         voided: Mapping[tuple[str, str], Voided], *, disqualify: bool = True) -> EntrantScore:
    """`entrant_score` where a voided domain scores nothing and solves nothing; with `disqualify`, invalid
    plans in more than one domain disqualify the entry (the rules since 2018)."""
    entry = entrant_score(name, domains, problems, voided.keys())
    bad_domains = sum(1 for entrant, _ in voided if entrant == name)
    return replace(entry, disqualified=disqualify and bad_domains > 1)


def quality(run: Run) -> float:
    """A plan's cost: its validated metric value, or its length when it has none."""
    if run.value is not None:
        return run.value
    if run.length is not None:
        return float(run.length)
    if run.plan_text is not None:
        return float(count_actions(run.plan_text))  # stored without validation: unit cost
    raise ValueError(f"run of {run.planner} on {run.problem_path} is solved but has neither value nor length")


def problem_points(rules: str, solved: dict[str, Run], direction: str, reference: float | None = None
                   ) -> tuple[dict[str, float], dict[str, float]]:
    """Each solver's points and the measure they rest on; `reference` is the best known quality (cost or
    length), which C* (N*, Q*) never falls short of."""
    if rules == "ipc2008-opt":
        return {name: 1.0 for name in solved}, {name: quality(run) for name, run in solved.items()}
    if rules == "ipc2011-time":
        times = {name: max(run.wall, 1.0) for name, run in solved.items()}
        best = min(times.values())
        return {name: 1.0 / (1.0 + math.log10(t / best)) for name, t in times.items()}, times
    if rules == "ipc2011-quality":
        lengths = {name: float(_length(run)) for name, run in solved.items()}
        best = min([*lengths.values(), *([] if reference is None else [reference])])
        return {name: ratio(best, n) for name, n in lengths.items()}, lengths
    costs = {name: quality(run) for name, run in solved.items()}
    known = [] if reference is None else [reference]
    if direction == "maximize":
        best = max([*costs.values(), *known])
        return {name: ratio(q, best) for name, q in costs.items()}, costs
    best = min([*costs.values(), *known])
    return {name: ratio(best, c) for name, c in costs.items()}, costs


def ratio(better: float, worse: float) -> float:
    """`better/worse` for the quality ratios, with a plan of quality 0 scoring 1 when the best is 0 too.

    Qualities at or below zero (a zero-cost plan, a net benefit that is not positive) make the ratio
    meaningless; the IPC rules assume positive ones, so such a plan scores 1 if it equals the best and 0
    otherwise.
    """
    if worse > 0 and better > 0:
        return min(1.0, better / worse)
    return 1.0 if better == worse else 0.0


def _length(run: Run) -> int:
    if run.length is not None:
        return run.length
    if run.plan_text is not None:
        return count_actions(run.plan_text)
    raise ValueError(f"run of {run.planner} on {run.problem_path} is solved but has no plan length")


def suboptimal(solved: dict[str, Run], domain: str, problem: str,
               measure: Callable[[Run], float] = quality, reference: float | None = None) -> list[Penalty]:
    """The plans `measure` (the plan's cost, or an HTN plan's length) finds worse than the best solved one,
    or than the optimal `reference` cost when there is one (see `checked_reference`)."""
    costs = {name: measure(run) for name, run in solved.items()}
    best_name = min(costs, key=lambda n: (costs[n], n))
    best = costs[best_name]
    if reference is not None:
        best_name, best = REFERENCE, reference
    # A small tolerance: costs are floats read back from validated metric values.
    return [Penalty(name, domain, problem, cost, best, best_name, solved[name].plan_hash)
            for name, cost in sorted(costs.items()) if cost > best + 1e-9 * max(1.0, abs(best))]


def checked_reference(solved: dict[str, Run], problem: str, reference: float | None, notes: list[str],
                      measure: Callable[[Run], float] = quality) -> float | None:
    """An optimal (reference) cost to check plans against, or None when there is none or a valid plan
    is cheaper, which shows the reference wrong (said in `notes`)."""
    if reference is None:
        return None
    costs = {name: measure(run) for name, run in solved.items()}
    cheapest = min(costs, key=lambda n: (costs[n], n))
    if costs[cheapest] < reference - 1e-9 * max(1.0, abs(reference)):
        notes.append(f"{problem}: {cheapest} found a valid plan costing {costs[cheapest]:g}, below the reference "
                     f"(optimal) cost {reference:g}: the reference is wrong")
        return None
    return reference


def log_time_points(seconds: float, limit: float) -> float:
    """The IPC's agile time score (IPC-2020 HTN, IPC-2023 numeric and HTN): 1 within a second,
    `1 - log t / log T` up to the time limit T, 0 from there on."""
    if seconds <= 1.0:
        return 1.0
    if seconds >= limit:
        return 0.0
    return 1.0 - math.log(seconds) / math.log(limit)


def rank(entries: Sequence[EntrantScore]) -> list[EntrantScore]:
    """Best total first, disqualified entries after all others; equal totals share a rank and the next
    rank skips (1, 2, 2, 4)."""
    ordered = sorted(entries, key=lambda e: (e.disqualified, -round(e.total, 9), -e.solved, e.name))
    ranked: list[EntrantScore] = []
    for index, entry in enumerate(ordered):
        tied = ranked and ranked[-1].disqualified == entry.disqualified and math.isclose(
            ranked[-1].total, entry.total, rel_tol=1e-9, abs_tol=1e-9)
        ranked.append(replace(entry, rank=ranked[-1].rank if tied else index + 1))
    return ranked


# -------------------------------------------------------------------------------------------------
# IPC-2011 learning track: the impact of learned knowledge


@dataclass(frozen=True)
class Impact:
    planner: str
    baseline: float
    dck: float
    pareto_rank: int
    special_award: bool | None  # None when no sequential winner was named

    @property
    def delta(self) -> float:
        return self.dck - self.baseline


@dataclass(frozen=True)
class LearningImpact:
    rules: str
    planners: tuple[Impact, ...]  # by Pareto rank, then baseline score
    sequential_winner: str | None
    sequential_winner_score: float | None
    scores: Scores = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "sequential_winner": self.sequential_winner,
            "sequential_winner_score": self.sequential_winner_score,
            "planners": {i.planner: {"baseline": i.baseline, "dck": i.dck, "delta": i.delta,
                                     "pareto_rank": i.pareto_rank, "special_award": i.special_award}
                         for i in self.planners},
        }


def learning_impact(runs: Sequence[Run], rules: str, sequential_winner: str | None = None) -> LearningImpact:
    """Each planner's score without (`baseline`) and with (`dck`) its knowledge, scored in one pool so
    both are on one scale; the Pareto ranking over (baseline score, delta); and the special award test:
    with knowledge the planner beats the sequential winner, without it does not.

    The sequential winner is a planner in `runs` (its `baseline` runs are its entry).
    """
    if rules not in ("ipc2011-time", "ipc2011-quality", "ipc2008-sat"):
        raise ValueError(f"the learning-impact view uses a quality or time rule, not {rules!r}")
    # A planner with both configurations is two entrants of one pool, so both meet the same best.
    scores = score(runs, rules)
    totals = {e.name: e.total for e in scores.entrants}
    names = entrant_names(runs)

    def total(planner: str, config: str) -> float | None:
        name = names.get((planner, config))
        return None if name is None else totals[name]

    winner_score = total(sequential_winner, "baseline") if sequential_winner else None
    if sequential_winner and winner_score is None:
        raise ValueError(f"the sequential winner {sequential_winner!r} has no baseline runs")
    pairs: dict[str, tuple[float, float]] = {}
    for planner in sorted({r.planner for r in runs}):
        if planner == sequential_winner:
            continue
        base, dck = total(planner, "baseline"), total(planner, "dck")
        if base is None or dck is None:
            continue  # a planner needs both configurations to show an impact
        pairs[planner] = (base, dck)
    fronts = pareto_ranks({p: (b, d - b) for p, (b, d) in pairs.items()})
    impacts = [
        Impact(p, b, d, fronts[p],
               None if winner_score is None else (d > winner_score and not b > winner_score))
        for p, (b, d) in pairs.items()
    ]
    impacts.sort(key=lambda i: (i.pareto_rank, -i.baseline, i.planner))
    return LearningImpact(rules, tuple(impacts), sequential_winner, winner_score, scores)


def pareto_ranks(points: dict[str, tuple[float, float]]) -> dict[str, int]:
    """Non-dominated sorting, both coordinates maximised: front 1 is dominated by nobody, front 2 only
    by front 1, and so on. `a` dominates `b` when it is at least as good in both and better in one."""

    def dominates(a: tuple[float, float], b: tuple[float, float]) -> bool:
        return a[0] >= b[0] and a[1] >= b[1] and a != b

    remaining = dict(points)
    ranks: dict[str, int] = {}
    front = 1
    while remaining:
        current = [name for name, p in remaining.items()
                   if not any(dominates(q, p) for other, q in remaining.items() if other != name)]
        for name in current:
            ranks[name] = front
            del remaining[name]
        front += 1
    return ranks
