"""The IPC-2023 learning tracks (https://ipc2023-learning.github.io/): the organisers' protocol and its
scoring rules.

The protocol. Each entry is a learner and a planner, run by the organisers:
- `LEARN DK DOMAIN TASK1 TASK2 ...` once per domain, the training tasks in ascending difficulty (here:
  the domain folder's `training/easy`, `training/medium`, `training/hard`, each in name order), under
  the training limits (24 h, 32 GiB, one core). Past the time limit the learner gets SIGTERM, which it
  may catch to write its knowledge, and SIGKILL 60 s later. It writes its domain knowledge to DK, or
  to `DK.1`, `DK.2`, ... whenever it finds better knowledge: the last one counts.
- `PLAN DK DOMAIN TASK PLAN` once per test task (`testing/easy|medium|hard`) under the evaluation
  limits (30 min, 8 GiB, one core); it writes PLAN or `PLAN.1`, `PLAN.2`, ...; a learner that left no
  knowledge file has its planner not run on that domain. Every plan is validated.

The rules (the page's "Metrics"):
- `ipc2023-learning-quality` (the satisficing metric): `C*/C` per solved task, C* the reference cost
  (`--reference`; lowered to the cheapest valid plan found when that is cheaper).
- `ipc2023-learning-agile`: 1 when the task is solved within 1 s, `1 - log T / log 1800` for T up to the
  1800 s limit, 0 when unsolved; the plan's cost and the training time do not count.
- both: an invalid plan makes every task of that domain unsolved for the entry; invalid plans in more
  than one domain disqualify it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

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

PLAN_LIMIT = 1800.0  # seconds: the evaluation limit per task, where the agile score reaches 0
LEVELS = ("easy", "medium", "hard")


def level_of(problem_path: str) -> str:
    """The difficulty level of a test task: the name of its folder (easy, medium, hard), else `-`."""
    folder = Path(problem_path).parent.name.lower()
    return folder if folder in LEVELS else "-"


def score_learning(runs: Sequence[Run], rules: str, references: References | None = None) -> Scores:
    names, by_problem, domain_of = group_runs(runs)
    voided: dict[tuple[str, str], Voided] = {}
    problems: list[ProblemScore] = []
    ignored: list[str] = []
    unreferenced = 0
    for item in solved_problems(by_problem, domain_of, ignored, references, voided):
        solved = item.solved
        if rules == "ipc2023-learning-agile":
            measures = {name: run.cpu for name, run in solved.items()}
            points = {name: log_time_points(t, PLAN_LIMIT) for name, t in measures.items()}
        else:
            measures = {name: quality(run) for name, run in solved.items()}
            best = min(measures.values())
            unreferenced += item.reference is None
            c_star = best if item.reference is None else min(best, item.reference)
            points = {name: ratio(c_star, c) for name, c in measures.items()}
        for name, run in item.entries.items():
            problems.append(ProblemScore(name, item.domain, item.problem, points.get(name, 0.0), run.status,
                                         measures.get(name)))
    notes = ([f"{unreferenced} solved task(s) have no reference cost: there C* is the cheapest valid plan found"]
             if unreferenced else [])
    domains = sorted(set(domain_of.values()))
    totals = [voided_entrant_score(name, domains, problems, voided) for name in sorted(set(names.values()))]
    return Scores(rules, tuple(rank(totals)), tuple(problems), tuple(ignored), (), tuple(domains),
                  tuple(voided[key] for key in sorted(voided)), tuple(notes))


@dataclass(frozen=True)
class LevelScore:
    entrant: str
    domain: str
    level: str
    score: float
    solved: int
    tasks: int


def by_level(scores: Scores) -> list[LevelScore]:
    """Each entrant's score and solved count per domain and difficulty level (a voided domain scores 0
    and solves nothing), in domain and level order."""
    void = {(v.entrant, v.domain) for v in scores.voided}
    totals: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for item in scores.problems:
        cell = totals[item.entrant, item.domain, level_of(item.problem)]
        cell[2] += 1
        if (item.entrant, item.domain) not in void:
            cell[0] += item.score
            cell[1] += item.status == "solved"
    order = {level: i for i, level in enumerate((*LEVELS, "-"))}
    return [LevelScore(e, d, lv, s, int(n), int(t)) for (e, d, lv), (s, n, t)
            in sorted(totals.items(), key=lambda kv: (kv[0][1], order[kv[0][2]], kv[0][0]))]


__all__ = ["LEVELS", "PLAN_LIMIT", "LevelScore", "by_level", "level_of", "score_learning"]
