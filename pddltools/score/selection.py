"""Instance selection by the IPC-2014 method.

For each domain the organisers generated 30-50 candidates and ran every (anonymised) planner on them.
Candidates are ordered by how many planners solved them (ties: fastest best solve first, then name).
- If fewer than `min_solved` were solved by some planner, or most candidates are trivial, the sizes must
  be chosen again: the report says which and why.
- If at most `size` were solved by some planner (roughly 10-20), the first `size` in that order are kept:
  all the solved ones, topped up with the unsolved ones nearest to being solved.
- Otherwise the trivial ones (solved by every planner within `trivial_time`), easiest first, then the
  too-hard ones (solved by none) are dropped until `size` remain; if still more remain, the easiest
  (most planners, fastest) are dropped.
Planners are only counted, never named, so the report stays anonymous.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pddltools.score.store import Run
from pddltools.wording import natural


@dataclass(frozen=True)
class Thresholds:
    size: int = 20
    min_solved: int = 10
    trivial_time: float = 5.0  # seconds
    max_trivial_fraction: float = 0.5


@dataclass(frozen=True)
class Candidate:
    problem: str
    solved_by: int
    planners: int
    best_time: float | None
    trivial: bool
    kept: bool
    why: str


@dataclass(frozen=True)
class DomainSelection:
    domain: str
    verdict: str  # "selected" or "resize"
    reason: str
    candidates: tuple[Candidate, ...]  # in the method's order

    @property
    def kept(self) -> list[str]:
        return [c.problem for c in self.candidates if c.kept]

    def to_json(self) -> dict[str, Any]:
        return {"domain": self.domain, "verdict": self.verdict, "reason": self.reason, "kept": self.kept,
                "candidates": [c.__dict__ for c in self.candidates]}


def select(runs: Sequence[Run], thresholds: Thresholds = Thresholds()) -> list[DomainSelection]:
    by_domain: dict[str, dict[str, list[Run]]] = defaultdict(lambda: defaultdict(list))
    entrants = {(r.planner, r.config) for r in runs}
    for r in runs:
        by_domain[r.domain][r.problem_path].append(r)
    return [_select_domain(domain, problems, len(entrants), thresholds)
            for domain, problems in sorted(by_domain.items())]


def _select_domain(domain: str, problems: dict[str, list[Run]], planners: int, t: Thresholds) -> DomainSelection:
    rows = []
    for problem, runs in problems.items():
        solved = [r for r in runs if r.status == "solved"]
        best = min((r.wall for r in solved), default=None)
        trivial = len(solved) == planners and all(r.wall <= t.trivial_time for r in solved)
        rows.append((problem, len(solved), best, trivial))
    rows.sort(key=lambda row: (-row[1], row[2] if row[2] is not None else float("inf"), natural(row[0])))
    total = len(rows)
    solved_some = sum(1 for row in rows if row[1] > 0)
    trivial_count = sum(1 for row in rows if row[3])
    counts = f"{solved_some} of {total} candidates solved by some planner, {trivial_count} trivial"

    def table(kept: set[str], why: dict[str, str]) -> tuple[Candidate, ...]:
        return tuple(Candidate(p, n, planners, b, tr, p in kept, why[p]) for p, n, b, tr in rows)

    if solved_some < t.min_solved:
        why = {row[0]: "sizes to be chosen again" for row in rows}
        return DomainSelection(domain, "resize", f"too few solved ({counts}; at least {t.min_solved} needed): "
                               "generate smaller instances", table(set(), why))
    if trivial_count > t.max_trivial_fraction * total:
        why = {row[0]: "sizes to be chosen again" for row in rows}
        return DomainSelection(domain, "resize", f"most candidates are trivial ({counts}; solved by every "
                               f"planner within {t.trivial_time:g} s): generate larger instances",
                               table(set(), why))
    if solved_some <= t.size:
        kept = {row[0] for row in rows[: t.size]}
        why = {row[0]: (f"kept: among the first {t.size} by planners solving" if row[0] in kept
                        else f"dropped: beyond the first {t.size}") for row in rows}
        for row in rows:
            if row[0] in kept and row[1] == 0:
                why[row[0]] = "kept: unsolved, nearest to being solved, to make up the number"
        return DomainSelection(domain, "selected", f"{counts}: first {t.size} in order kept", table(kept, why))
    # More solved than needed: drop trivial (easiest first), then too hard, then the easiest left.
    kept = {row[0] for row in rows}
    why = {row[0]: "kept" for row in rows}
    order = ([(row, "dropped: trivial") for row in rows if row[3]]
             + [(row, "dropped: too hard (solved by none)") for row in reversed(rows) if row[1] == 0]
             + [(row, "dropped: among the easiest left") for row in rows if not row[3] and row[1] > 0])
    for row, reason in order:
        if len(kept) <= t.size:
            break
        if row[0] in kept:
            kept.discard(row[0])
            why[row[0]] = reason
    return DomainSelection(domain, "selected", f"{counts}: {total - len(kept)} dropped to keep {len(kept)}",
                           table(kept, why))
