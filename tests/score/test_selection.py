"""The IPC-2014 selection method on made-up candidate sets with three planners."""

from __future__ import annotations

from pddltools.score.selection import Thresholds, select
from pddltools.score.store import Run


def runs_for(solvers: list[int], wall: list[float] | None = None, domain: str = "d") -> list[Run]:
    """Candidate i is solved by the first solvers[i] of three planners, in wall[i] seconds."""
    out = []
    for i, count in enumerate(solvers):
        for planner in range(3):
            solved = planner < count
            out.append(Run(planner=f"p{planner}", track="t", config="baseline", domain=domain,
                           domain_path=f"/{domain}/domain.pddl", domain_hash="",
                           problem_path=f"/{domain}/c{i:02d}.pddl",
                           problem_hash="", status="solved" if solved else "timeout",
                           wall=(wall[i] if wall else 100.0) if solved else 900.0, cpu=0.0, peak_memory=0, length=1))
    return out


def test_ten_to_twenty_solved_keeps_the_first_twenty_in_order() -> None:
    # 30 candidates: 15 solved by some planner (c00-c14: 3, 2, 1, 3, 2, ...), 15 by none.
    solvers = [3 - i % 3 for i in range(15)] + [0] * 15
    [selection] = select(runs_for(solvers))
    assert selection.verdict == "selected"
    kept = selection.kept
    assert len(kept) == 20
    # Order: 5 solved by 3, 5 by 2, 5 by 1, then the unsolved by name: c15..c19 make up the number.
    assert kept[:5] == [f"/d/c{i:02d}.pddl" for i in (0, 3, 6, 9, 12)]
    assert kept[-5:] == [f"/d/c{i:02d}.pddl" for i in range(15, 20)]
    assert "make up the number" in selection.candidates[19].why
    assert not selection.candidates[20].kept


def test_too_few_solved_asks_for_new_sizes() -> None:
    [selection] = select(runs_for([1] * 5 + [0] * 25))
    assert selection.verdict == "resize" and "too few solved" in selection.reason and "5 of 30" in selection.reason
    assert selection.kept == []


def test_mostly_trivial_asks_for_new_sizes() -> None:
    # 20 of 30 solved by all three planners in 1 s: trivial; 20 > 0.5 * 30.
    [selection] = select(runs_for([3] * 20 + [1] * 10, wall=[1.0] * 30))
    assert selection.verdict == "resize" and "trivial" in selection.reason


def test_many_solved_drops_trivial_then_too_hard() -> None:
    # 40 candidates: 8 trivial (all solve in 1 s), 24 solved by one or two, 8 by none. 40 - 20 = 20 to drop:
    # the 8 trivial, the 8 too hard, then the 4 easiest left (solved by 2, fastest first).
    solvers = [3] * 8 + [2] * 12 + [1] * 12 + [0] * 8
    wall = [1.0] * 8 + [float(10 + i) for i in range(32)]
    [selection] = select(runs_for(solvers, wall), Thresholds(size=20))
    assert len(selection.kept) == 20
    reasons = [c.why for c in selection.candidates]
    assert reasons.count("dropped: trivial") == 8
    assert reasons.count("dropped: too hard (solved by none)") == 8
    assert reasons.count("dropped: among the easiest left") == 4
    assert all(c.solved_by in (1, 2) for c in selection.candidates if c.kept)
    assert select(runs_for(solvers, wall)) == select(list(reversed(runs_for(solvers, wall))))  # deterministic
