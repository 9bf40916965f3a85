"""The IPC-2023 numeric track's scoring rules.

Source: the rules as issue 18 states them (the track's own rules page could not be reached from here):
- `ipc2023-numeric-sat`: per problem `C*/C`, C* the best cost of any valid plan found for it.
- `ipc2023-numeric-opt`: one point per problem solved; a plan costlier than the best known plan (the
  cheapest valid plan any entrant found) was not optimal and counts as an invalid plan.
- `ipc2023-numeric-agile`: by CPU time T alone: 1 when T < 1 s, `1 - log T / log 300` up to 300 s, 0 beyond.

And, unlike IPC-2008, for all three: one invalid plan makes every task of that domain unsolved for that
planner (it scores 0 and solves nothing there), and invalid plans in more than one domain disqualify
the entry (it is ranked after every qualified entry, its total shown as scored).
"""

from __future__ import annotations

from collections.abc import Sequence

from pddltools.score.reference import References
from pddltools.score.rules import (
    Direction,
    ProblemScore,
    Scores,
    Voided,
    checked_reference,
    group_runs,
    log_time_points,
    problem_points,
    rank,
    solved_problems,
    suboptimal,
    void_invalid,
    voided_entrant_score,
)
from pddltools.score.store import Run

AGILE_LIMIT = 300.0  # seconds of CPU time: the agile track's time limit, where the score reaches 0

# Voided and void_invalid were defined here first: importers of them from this module keep working
__all__ = ["AGILE_LIMIT", "Voided", "agile_points", "score_numeric", "void_invalid"]


def agile_points(cpu: float) -> float:
    """The agile score of a plan found in `cpu` seconds."""
    return log_time_points(cpu, AGILE_LIMIT)


def score_numeric(runs: Sequence[Run], rules: str, direction: Direction, references: References | None = None
                  ) -> Scores:
    names, by_problem, domain_of = group_runs(runs)
    voided: dict[tuple[str, str], Voided] = {}
    problems: list[ProblemScore] = []
    ignored: list[str] = []
    notes: list[str] = []
    for item in solved_problems(by_problem, domain_of, ignored, references, voided):
        problem, domain, solved, reference = item.problem, item.domain, item.solved, item.reference
        if rules == "ipc2023-numeric-agile":
            points = {name: agile_points(run.cpu) for name, run in solved.items()}
            measures = {name: run.cpu for name, run in solved.items()}
        else:  # C*/C and the solved count are IPC-2008's formulas
            points, measures = problem_points(rules.replace("ipc2023-numeric", "ipc2008"), solved,
                                              direction(problem) if rules == "ipc2023-numeric-sat" else "", reference)
        if rules == "ipc2023-numeric-opt":
            reference = checked_reference(solved, problem, reference, notes)
            for p in suboptimal(solved, domain, problem, reference=reference):
                voided.setdefault((p.entrant, domain), Voided(
                    p.entrant, domain, problem, f"not optimal: costs {p.cost:g}, {p.against()}", p.plan_hash))
        for name, run in item.entries.items():
            problems.append(ProblemScore(name, domain, problem, points.get(name, 0.0), run.status,
                                         measures.get(name)))
    domains = sorted(set(domain_of.values()))
    totals = [voided_entrant_score(name, domains, problems, voided) for name in sorted(set(names.values()))]
    return Scores(rules, tuple(rank(totals)), tuple(problems), tuple(ignored), (), tuple(domains),
                  tuple(voided[key] for key in sorted(voided)), tuple(notes))
