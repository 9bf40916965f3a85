"""The IPC HTN tracks' scores on small hand-worked examples; the arithmetic is written out beside each check."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.score.htn_rules import agile_points, htn_length
from pddltools.score.rules import RULES, score
from pddltools.score.store import Run


def run(planner: str, problem: str, status: str = "solved", *, length: int | None = None, wall: float = 1.0,
        domain: str = "d1", plan_text: str | None = None) -> Run:
    return Run(planner=planner, track="htn", config="c", domain=domain, domain_path=f"/x/{domain}/domain.hddl",
               domain_hash="h", problem_path=f"/x/{domain}/{problem}.hddl", problem_hash="h", status=status,
               wall=wall, cpu=wall, peak_memory=0, length=length, plan_text=plan_text)


def test_the_htn_rule_sets_are_offered_by_score() -> None:
    assert {"ipc2020-htn-agile", "ipc2023-htn-agile", "ipc2023-htn-sat", "ipc2023-htn-opt"} <= set(RULES)


def test_agile_points_follow_the_ipc_2020_formula() -> None:
    assert agile_points(0.3) == 1.0 and agile_points(1.0) == 1.0          # within a second: 1
    assert agile_points(1800.0) == 0.0                                     # at the limit: log T / log T = 1
    # 1 - log 60 / log 1800 = 1 - 4.0943 / 7.4955 = 0.45377
    assert agile_points(60.0) == pytest.approx(1 - math.log(60) / math.log(1800))
    assert agile_points(60.0) == pytest.approx(0.45377, abs=1e-5)
    assert agile_points(10.0, limit=100.0) == pytest.approx(0.5)            # 1 - 1/2 with T = 100


def test_satisficing_is_the_ratio_to_the_shortest_plan_and_each_domain_counts_once() -> None:
    runs = [
        run("A", "p1", length=10), run("B", "p1", length=20),     # L* = 10: A 1, B 0.5
        run("A", "p2", "timeout"), run("B", "p2", length=4),      # only B: B 1
        run("A", "q1", length=3, domain="d2"), run("B", "q1", length=6, domain="d2"),  # A 1, B 0.5
    ]
    s = score(runs, "ipc2023-htn-sat")
    # domain d1 has two problems: A (1 + 0)/2 = 0.5, B (0.5 + 1)/2 = 0.75; d2 has one
    assert s.entrant("A").domains == {"d1": pytest.approx(0.5), "d2": pytest.approx(1.0)}
    assert s.entrant("B").domains == {"d1": pytest.approx(0.75), "d2": pytest.approx(0.5)}
    assert s.entrant("A").total == pytest.approx(1.5) and s.entrant("B").total == pytest.approx(1.25)
    assert [e.name for e in s.entrants] == ["A", "B"]


def test_the_length_counts_primitive_actions_only() -> None:
    text = "==>\n0 drive t a b\n1 drive t b c\nroot 2\n2 go t c -> m-go 0 1\n<==\n"
    assert htn_length(run("A", "p1", plan_text=text)) == 2       # the decomposition line is not an action
    runs = [run("A", "p1", plan_text=text), run("B", "p1", length=4)]
    assert score(runs, "ipc2023-htn-sat").entrant("B").total == pytest.approx(0.5)  # 2/4


def test_agile_scores_the_time_and_an_invalid_plan_zeroes_its_domain() -> None:
    runs = [
        run("A", "p1", wall=0.5), run("B", "p1", wall=60.0),           # A 1, B 0.45377
        run("A", "p2", "invalid-plan", wall=2.0), run("B", "p2", wall=1.0),  # A's invalid plan: d1 is 0 for A
        run("A", "q1", wall=1800.0 ** 0.5, domain="d2"),               # sqrt(T): 1 - 1/2 = 0.5
    ]
    s = score(runs, "ipc2020-htn-agile")
    assert s.entrant("A").domains == {"d1": 0.0, "d2": pytest.approx(0.5)}
    assert s.entrant("B").domains["d1"] == pytest.approx((0.45377 + 1) / 2, abs=1e-5)
    assert s.entrant("A").solved_by_domain == {"d1": 0, "d2": 1}


def test_optimal_counts_solved_problems_and_a_longer_plan_is_a_wrong_claim() -> None:
    runs = [
        run("A", "p1", length=5), run("B", "p1", length=7),      # B's 7 > 5: not optimal, d1 is 0 for B
        run("A", "p2", length=3), run("B", "p2", length=3),
        run("A", "q1", "timeout", domain="d2"), run("B", "q1", length=2, domain="d2"),
    ]
    s = score(runs, "ipc2023-htn-opt")
    assert s.entrant("A").domains == {"d1": pytest.approx(1.0), "d2": 0.0}     # (1 + 1) / 2
    assert s.entrant("B").domains == {"d1": 0.0, "d2": pytest.approx(1.0)}
    [penalty] = s.penalties
    assert (penalty.entrant, penalty.cost, penalty.best, penalty.best_by) == ("B", 7.0, 5.0, "A")


def test_score_validates_htn_plans_with_the_htn_verifier(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    walk = Path(__file__).resolve().parents[2] / "corpus" / "hddl" / "plans" / "walk"
    lines = [{"planner": planner, "domain": str(walk / "domain.hddl"), "problem": str(walk / "problem.hddl"),
              "plan": str(walk / plan), "time": 2.0, "status": "solved", "config": "c"}
             for planner, plan in (("A", "valid.plan"), ("B", "valid.swap.plan"))]
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["score", str(results), "--rules", "ipc2023-htn-sat", "--format", "json"]) == 0
    planners = json.loads(capsys.readouterr().out)["planners"]
    # A's plan verifies (1 = 2/2 primitive actions); B's swapped plan breaks m-go's order: unsolved
    assert (planners["A"]["total"], planners["A"]["solved"]) == (1.0, 1)
    assert (planners["B"]["total"], planners["B"]["solved"]) == (0.0, 0)
