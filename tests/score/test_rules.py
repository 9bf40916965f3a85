"""The IPC formulas on small hand-worked examples; the arithmetic is written out beside each check."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.score.rules import learning_impact, metric_direction, pareto_ranks, score
from pddltools.score.store import Run


def run(planner: str, problem: str, status: str = "solved", *, value: float | None = None,
        length: int | None = None, wall: float = 1.0, domain: str = "d1", config: str = "baseline") -> Run:
    return Run(planner=planner, track="t", config=config, domain=domain, domain_path=f"/x/{domain}/domain.pddl",
               domain_hash="h", problem_path=f"/x/{domain}/{problem}.pddl", problem_hash="h", status=status,
               wall=wall, cpu=wall, peak_memory=0, value=value, length=length)


def minimise(_: str) -> str:
    return "minimize"


def test_ipc2008_sat_cost_ratio() -> None:
    runs = [
        run("A", "p1", value=10), run("B", "p1", value=20),        # C* = 10: A 10/10 = 1, B 10/20 = 0.5
        run("A", "p2", value=8), run("B", "p2", value=6),          # C* = 6:  A 6/8 = 0.75, B 6/6 = 1
        run("A", "p3", "timeout"), run("B", "p3", value=5),        # only B: B 1, A 0
        run("A", "p4", "invalid-plan", value=1), run("B", "p4", "crash"),  # nobody solved: ignored
    ]
    s = score(runs, "ipc2008-sat", minimise)
    assert s.entrant("A").total == pytest.approx(1 + 0.75)         # 1.75
    assert s.entrant("B").total == pytest.approx(0.5 + 1 + 1)      # 2.5
    assert s.entrant("A").solved == 2 and s.entrant("B").solved == 3
    assert [e.name for e in s.entrants] == ["B", "A"] and [e.rank for e in s.entrants] == [1, 2]
    assert s.ignored == ("/x/d1/p4.pddl",)
    data = s.to_json()
    assert data["rules"] == "ipc2008-sat"
    assert data["planners"]["B"]["domains"] == {"d1": pytest.approx(2.5)}


def test_ipc2008_sat_without_metric_uses_length_and_net_benefit_is_maximised() -> None:
    runs = [run("A", "p1", length=4), run("B", "p1", length=5)]    # lengths: A 4/4 = 1, B 4/5 = 0.8
    s = score(runs, "ipc2008-sat", minimise)
    assert s.entrant("B").total == pytest.approx(0.8)
    runs = [run("A", "nb", value=30), run("B", "nb", value=40)]    # maximise: Q* = 40, A 30/40 = 0.75
    s = score(runs, "ipc2008-sat", lambda _: "maximize")
    assert s.entrant("A").total == pytest.approx(0.75) and s.entrant("B").total == pytest.approx(1.0)


def test_ipc2008_opt_counts_solved_and_zeroes_a_domain_with_a_costlier_plan() -> None:
    runs = [
        run("A", "p1", value=10), run("B", "p1", value=10),
        replace(run("C", "p1", value=12), plan_hash="c-p1"),  # C is not optimal
        run("A", "p2", value=3), run("B", "p2", "timeout"), run("C", "p2", value=3),
        run("A", "q1", value=7, domain="d2"), run("C", "q1", value=7, domain="d2"),
    ]
    s = score(runs, "ipc2008-opt")
    # A: d1 2 + d2 1 = 3; B: d1 1; C: d1 would be 2 but p1 costs 12 > 10, so d1 counts 0; d2 1 -> 1.
    assert s.entrant("A").total == 3 and s.entrant("B").total == 1 and s.entrant("C").total == 1
    assert s.entrant("C").domains == {"d1": 0.0, "d2": 1.0}
    assert s.entrant("C").solved == 3  # still solved three problems
    [penalty] = s.penalties
    assert (penalty.entrant, penalty.domain, penalty.problem, penalty.cost, penalty.best) == (
        "C", "d1", "/x/d1/p1.pddl", 12, 10)
    assert penalty.plan_hash == "c-p1"
    # B and C tie on 1 point: they share rank 2 (A is 1).
    assert {e.name: e.rank for e in s.entrants} == {"A": 1, "B": 2, "C": 2}


def test_ipc2011_time_with_the_one_second_floor() -> None:
    runs = [
        run("A", "p1", wall=0.2, length=1), run("B", "p1", wall=0.9, length=1),  # both below 1 s: 1 and 1
        run("A", "p2", wall=10, length=1), run("B", "p2", wall=100, length=1),   # T* = 10: A 1; B 1/(1+1) = 0.5
        run("A", "p3", wall=0.5, length=1), run("B", "p3", wall=1000, length=1),  # T* = 1: B 1/(1+3) = 0.25
    ]
    s = score(runs, "ipc2011-time")
    assert s.entrant("A").total == pytest.approx(3.0)
    assert s.entrant("B").total == pytest.approx(1 + 0.5 + 0.25)
    # a middle value: T = 5, T* = 2 -> 1/(1+log10(2.5)) = 1/1.39794 = 0.71534
    s = score([run("A", "p", wall=2, length=1), run("B", "p", wall=5, length=1)], "ipc2011-time")
    assert s.entrant("B").total == pytest.approx(1 / (1 + math.log10(2.5))) == pytest.approx(0.71534, abs=1e-5)


def test_ipc2011_quality_on_length() -> None:
    runs = [run("A", "p1", length=10, value=100), run("B", "p1", length=8, value=500),  # N* = 8: A 0.8
            run("A", "p2", length=6), run("B", "p2", "memout")]                        # A 1
    s = score(runs, "ipc2011-quality")
    assert s.entrant("A").total == pytest.approx(0.8 + 1) and s.entrant("B").total == pytest.approx(1.0)


def test_pareto_fronts() -> None:
    points = {"a": (10, 1), "b": (8, 3), "c": (7, 2), "d": (5, 0), "e": (10, 1)}
    # a, b and e are dominated by nobody (a and e are equal); c is dominated by b; d by everyone.
    assert pareto_ranks(points) == {"a": 1, "b": 1, "e": 1, "c": 2, "d": 3}


def test_learning_impact_and_special_award() -> None:
    runs = []
    # Quality on length, two problems. Best lengths: p1 10, p2 10.
    for problem, lengths in {"p1": {"W": 10, "L1-b": 20, "L1-k": 10, "L2-b": 10, "L2-k": 10},
                             "p2": {"W": 10, "L1-b": 20, "L1-k": 10, "L2-b": 10, "L2-k": 20}}.items():
        for who, n in lengths.items():
            planner, _, config = who.partition("-")
            runs.append(run(planner, problem, length=n, config={"b": "baseline", "k": "dck", "": "baseline"}[config]))
    impact = learning_impact(runs, "ipc2011-quality", sequential_winner="W")
    # W: 1 + 1 = 2.  L1 baseline 0.5 + 0.5 = 1, with knowledge 1 + 1 = 2: delta +1.
    # L2 baseline 1 + 1 = 2, with knowledge 1 + 0.5 = 1.5: delta -0.5.
    by = {i.planner: i for i in impact.planners}
    assert impact.sequential_winner_score == pytest.approx(2.0)
    assert (by["L1"].baseline, by["L1"].dck, by["L1"].delta) == pytest.approx((1.0, 2.0, 1.0))
    assert (by["L2"].baseline, by["L2"].dck, by["L2"].delta) == pytest.approx((2.0, 1.5, -0.5))
    # (1, +1) and (2, -0.5): neither dominates the other, both on front 1.
    assert by["L1"].pareto_rank == by["L2"].pareto_rank == 1
    # Special award: with knowledge beats W (2 > 2 is false for L1), so neither wins it here ...
    assert by["L1"].special_award is False and by["L2"].special_award is False
    # ... but make L1's knowledge give one shorter plan on p2 (8 instead of 10): best on p2 becomes 8,
    # W scores 1 + 0.8 = 1.8, L1 with knowledge 1 + 1 = 2 > 1.8, baseline 0.5 + 8/20 = 0.9 <= 1.8: award.
    runs = [r if not (r.planner == "L1" and r.config == "dck" and r.problem == "p2") else
            run("L1", "p2", length=8, config="dck") for r in runs]
    by = {i.planner: i for i in learning_impact(runs, "ipc2011-quality", "W").planners}
    assert by["L1"].special_award is True and by["L1"].baseline == pytest.approx(0.9)
    assert by["L2"].special_award is False  # baseline 1 + 0.8 = 1.8, not above W's 1.8; dck 1 + 0.4 = 1.4


def test_metric_direction_is_read_from_the_problem(tmp_path: Path) -> None:
    problem = tmp_path / "p.pddl"
    problem.write_text("(define (problem p) (:domain d)\n ; (:metric minimize (x))\n (:goal (g))\n"
                       " (:METRIC  Maximize (- (reward) (total-cost))))")
    assert metric_direction(str(problem)) == "maximize"
    problem.write_text("(define (problem p) (:domain d) (:goal (g)))")
    assert metric_direction(str(problem)) == "minimize"


@st.composite
def run_sets(draw: st.DrawFn) -> list[Run]:
    planners = draw(st.lists(st.sampled_from("ABCD"), min_size=1, max_size=4, unique=True))
    runs = []
    for problem in range(draw(st.integers(1, 5))):
        for planner in planners:
            solved = draw(st.booleans())
            runs.append(run(planner, f"p{problem}", "solved" if solved else "timeout",
                            value=draw(st.integers(1, 50)), length=draw(st.integers(1, 50)),
                            wall=draw(st.floats(0.01, 1000)), domain=draw(st.sampled_from(["d1", "d2"]))))
    return runs


@settings(max_examples=60, deadline=None)
@given(run_sets(), st.sampled_from(["ipc2008-sat", "ipc2011-time", "ipc2011-quality"]), st.randoms())
def test_scores_are_ratios_with_the_best_at_one(runs: list[Run], rules: str, rnd: random.Random) -> None:
    s = score(runs, rules, minimise)
    by_problem: dict[str, list[float]] = {}
    for item in s.problems:
        assert 0.0 <= item.score <= 1.0
        assert item.score == 0.0 or item.status == "solved"
        by_problem.setdefault(item.problem, []).append(item.score)
    for problem, points in by_problem.items():
        assert max(points) == pytest.approx(1.0), problem  # somebody solved it, and the best scores 1
    shuffled = list(runs)
    rnd.shuffle(shuffled)
    again = score(shuffled, rules, minimise)
    assert {e.name: (round(e.total, 9), e.rank) for e in again.entrants} == {
        e.name: (round(e.total, 9), e.rank) for e in s.entrants}
    assert sum(e.total for e in s.entrants) == pytest.approx(sum(p.score for p in s.problems))
