"""The IPC HTN tracks' scoring rules (IPC 2020 and 2023), over the same stored runs as the classical ones.

What the rules say (https://ipc2020.hierarchical-task.net/rules/metric, the IPC-2020 "Metric & Limits"
page; https://ipc2023-htn.github.io/ keeps the 2020 metric for the agile track and adds satisficing
and optimal tracks):

- agile (2020's only metric, 2023's agile track): a solved problem scores 1 when solved within a
  second, `min(1, 1 - log t / log T)` when solved in t seconds with the time limit T (30 min, 1800 s,
  unless the run recorded its own limit), 0 when unsolved.
- satisficing (2023): the plan's length against the shortest valid plan any entrant found, `L*/L`,
  where a plan's length is its number of primitive actions (all actions have unit cost in both years;
  the decomposition lines are not counted).
- optimal (2023): one point per problem solved.
- all tracks: an entrant that returns an invalid plan has every problem of that domain counted as
  unsolved; in the optimal track a plan longer than another entrant's valid plan is a wrong claim of
  optimality and is treated as an invalid one (listed among the penalties; an invalid plan shows as
  its run's status).
- each domain contributes equally: an entrant's domain score is its mean over the domain's problems
  (the problems any entrant was run on), so it lies in [0, 1], and its total is the sum over domains.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pddltools.score.reference import References
from pddltools.score.rules import (
    HTN_RULES,
    Penalty,
    ProblemScore,
    Scores,
    checked_reference,
    entrant_score,
    group_runs,
    log_time_points,
    rank,
    ratio,
    suboptimal,
)
from pddltools.score.store import Run

#: the IPC-2020 and IPC-2023 HTN time limit, used when a run did not record its own
TIME_LIMIT = 1800.0


def agile_points(seconds: float, limit: float = TIME_LIMIT) -> float:
    """The time score of a problem solved in `seconds` under a limit of `limit` seconds."""
    return log_time_points(seconds, limit)


def htn_length(run: Run) -> int:
    """A solved run's plan length: the validated number of primitive actions, or, for a plan stored
    without validation, the primitive steps its text holds."""
    if run.length is not None:
        return run.length
    if run.plan_text is not None:
        from pddltools.diagnostics import Source
        from pddltools.hddl.plan import parse_plan

        return len(parse_plan(Source(run.plan_text, run.problem_path)))
    raise ValueError(f"run of {run.planner} on {run.problem_path} is solved but has no plan length")


def score_htn(runs: Sequence[Run], rules: str, references: References | None = None) -> Scores:
    """`references`: each problem's best known (satisficing) or optimal plan length."""
    if rules not in HTN_RULES:
        raise ValueError(f"unknown HTN rules {rules!r}; known: {', '.join(HTN_RULES)}")
    names, by_problem, domain_of = group_runs(runs)
    invalid = {(names[run.planner, run.config], run.domain) for run in runs if run.status == "invalid-plan"}
    penalties: list[Penalty] = []
    problems: list[ProblemScore] = []
    solved_by = {problem: {name: run for name, run in entries.items() if run.status == "solved"}
                 for problem, entries in by_problem.items()}
    ignored = sorted(problem for problem, solved in solved_by.items() if not solved)
    notes: list[str] = []
    for problem, entries in sorted(by_problem.items()):
        solved = solved_by[problem]
        reference = None if references is None or rules.endswith("-agile") else references.get(problem)
        points, measures = _points(rules, solved, reference)
        if rules == "ipc2023-htn-opt" and solved:
            length = lambda run: float(htn_length(run))  # noqa: E731
            reference = checked_reference(solved, problem, reference, notes, length)
            penalties.extend(suboptimal(solved, domain_of[problem], problem, length, reference))
        for name, run in entries.items():
            problems.append(ProblemScore(name, domain_of[problem], problem, points.get(name, 0.0), run.status,
                                         measures.get(name)))
    scores = _totals(rules, sorted(set(names.values())), problems, ignored, penalties, invalid, domain_of)
    return replace(scores, notes=tuple(notes))


def _points(rules: str, solved: dict[str, Run], reference: float | None = None
            ) -> tuple[dict[str, float], dict[str, float]]:
    if not solved:
        return {}, {}
    if rules.endswith("-agile"):
        times = {name: run.wall for name, run in solved.items()}
        return ({name: agile_points(run.wall, run.wall_limit or TIME_LIMIT) for name, run in solved.items()},
                times)
    lengths = {name: float(htn_length(run)) for name, run in solved.items()}
    if rules == "ipc2023-htn-opt":
        return dict.fromkeys(solved, 1.0), lengths
    best = min([*lengths.values(), *([] if reference is None else [reference])])
    return {name: ratio(best, n) for name, n in lengths.items()}, lengths


def _totals(rules: str, entrants: list[str], problems: list[ProblemScore], ignored: list[str],
            penalties: list[Penalty], invalid: set[tuple[str, str]], domain_of: dict[str, str]) -> Scores:
    domains = sorted(set(domain_of.values()))
    size = {d: sum(1 for p in domain_of.values() if p == d) for d in domains}  # problems per domain
    penalised = invalid | {(p.entrant, p.domain) for p in penalties}
    totals = [entrant_score(name, domains, problems, penalised, mean_over=size) for name in entrants]
    return Scores(rules, tuple(rank(totals)), tuple(problems), tuple(ignored), tuple(penalties), tuple(domains))


__all__ = ["HTN_RULES", "TIME_LIMIT", "agile_points", "htn_length", "score_htn"]
