"""The IPC-2023 numeric track's rules on hand-worked examples; the arithmetic is written beside each check."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from pddltools.score.ipc2023 import agile_points
from pddltools.score.report import render_html
from pddltools.score.rules import score
from pddltools.score.store import Run


def run(planner: str, problem: str, status: str = "solved", *, value: float | None = None, cpu: float = 1.0,
        domain: str = "d1") -> Run:
    return Run(planner=planner, track="numeric", config="c", domain=domain, domain_path=f"/x/{domain}/domain.pddl",
               domain_hash="h", problem_path=f"/x/{domain}/{problem}.pddl", problem_hash="h", status=status,
               wall=cpu, cpu=cpu, peak_memory=0, value=value, length=1,
               reason="bad step 2" if status != "solved" else "")


def minimise(_: str) -> str:
    return "minimize"


def test_sat_is_best_cost_over_cost_and_an_invalid_plan_empties_its_domain() -> None:
    runs = [
        run("A", "p1", value=10), run("B", "p1", value=20),               # C* = 10: A 1, B 10/20 = 0.5
        run("A", "p2", value=8), run("B", "p2", value=4),                 # C* = 4:  A 4/8 = 0.5, B 1
        run("A", "q1", domain="d2", value=5), run("B", "q1", "invalid-plan", domain="d2"),  # C* = 5: A 1
        run("A", "q2", domain="d2", value=6), run("B", "q2", domain="d2", value=3),  # C* = 3: A 0.5, B 1 ...
    ]                                                                     # ... but B's d2 is voided: 0
    s = score(runs, "ipc2023-numeric-sat", minimise)
    assert s.entrant("A").total == pytest.approx(1 + 0.5 + 1 + 0.5)      # 3.0
    assert s.entrant("B").domains == {"d1": pytest.approx(0.5 + 1), "d2": 0.0}
    assert s.entrant("B").solved_by_domain == {"d1": 2, "d2": 0}         # "all its tasks there unsolved"
    assert not s.entrant("B").disqualified                                # one bad domain only
    assert [(v.entrant, v.domain, v.problem) for v in s.voided] == [("B", "d2", "/x/d2/q1.pddl")]
    assert [e.name for e in s.entrants] == ["A", "B"] and [e.rank for e in s.entrants] == [1, 2]


def test_opt_counts_solved_and_a_suboptimal_plan_counts_as_invalid() -> None:
    runs = [
        run("A", "p1", value=7), run("B", "p1", value=7), run("C", "p1", value=9),   # C: 9 > 7, not optimal
        run("A", "p2", value=2), run("B", "p2", "timeout"), run("C", "p2", value=2),
        run("A", "q1", domain="d2", value=1), run("C", "q1", domain="d2", value=1),
    ]
    s = score(runs, "ipc2023-numeric-opt", minimise)
    assert s.entrant("A").total == 3 and s.entrant("B").total == 1      # A: p1, p2, q1; B: p1
    assert s.entrant("C").domains == {"d1": 0.0, "d2": 1.0}              # d1 voided by p1, q1 still counts
    assert s.entrant("C").total == 1 and s.entrant("C").solved == 1
    (void,) = s.voided
    assert (void.entrant, void.domain) == ("C", "d1") and "costs 9" in void.reason and "costing 7" in void.reason


def test_agile_formula() -> None:
    assert agile_points(0.5) == 1.0                                       # below 1 s
    assert agile_points(1.0) == 1.0                                       # 1 - log 1 / log 300 = 1 - 0
    assert agile_points(300.0) == pytest.approx(0.0)                      # 1 - log 300 / log 300
    assert agile_points(301.0) == 0.0                                     # beyond the limit
    # 1 - ln 30 / ln 300 = 1 - 3.4012 / 5.7038 = 0.40370
    assert agile_points(30.0) == pytest.approx(1 - math.log(30) / math.log(300))
    assert agile_points(30.0) == pytest.approx(0.40370, abs=1e-5)


def test_agile_scores_each_plan_by_its_own_cpu_time() -> None:
    runs = [run("A", "p1", value=3, cpu=0.2), run("B", "p1", value=1, cpu=30.0),
            run("A", "p2", value=3, cpu=10.0), run("B", "p2", "timeout", cpu=300.0)]
    s = score(runs, "ipc2023-numeric-agile", minimise)
    # A: 1 (0.2 s) + 1 - ln 10 / ln 300 = 1 + 1 - 2.302585/5.703782 = 1.59631
    assert s.entrant("A").total == pytest.approx(1.59631, abs=1e-5)
    assert s.entrant("B").total == pytest.approx(0.40370, abs=1e-5)     # 30 s, as above; cost plays no part


def test_invalid_plans_in_two_domains_disqualify_the_entry() -> None:
    runs = [
        run("A", "p1", value=4), run("B", "p1", value=2), run("B", "p2", "invalid-plan"), run("A", "p2", value=1),
        run("A", "q1", domain="d2", value=1), run("B", "q1", "invalid-plan", domain="d2"),
        run("A", "r1", domain="d3", value=9), run("B", "r1", domain="d3", value=3),
    ]
    s = score(runs, "ipc2023-numeric-sat", minimise)
    # A: p1 2/4 = 0.5, p2 1, q1 1, r1 3/9 = 0.3333 -> 2.8333; B: d1 and d2 voided, r1 1 -> 1, disqualified
    assert s.entrant("A").total == pytest.approx(2.8333, abs=1e-4)
    assert s.entrant("B").total == pytest.approx(1.0) and s.entrant("B").disqualified
    data = s.to_json()
    assert data["planners"]["B"]["disqualified"] is True and data["planners"]["B"]["total"] == pytest.approx(1.0)
    assert data["planners"]["A"]["disqualified"] is False
    assert [(v["entrant"], v["domain"]) for v in data["voided"]] == [("B", "d1"), ("B", "d2")]
    json.dumps(data)
    # A disqualified entry ranks after every qualified one, even with a higher total.
    winning = [replace(r, value=1) if r.planner == "B" and r.status == "solved" else r for r in runs]
    extra = [run("B", f"x{i}", domain="d3", value=1) for i in range(5)]
    s = score(winning + extra, "ipc2023-numeric-sat", minimise)
    assert s.entrant("B").total > s.entrant("A").total
    assert [(e.name, e.rank) for e in s.entrants] == [("A", 1), ("B", 2)]
    html = render_html(runs, score(runs, "ipc2023-numeric-sat", minimise))
    assert "B (disqualified)" in html and 'id="disqualified"' in html and "bad step 2" in html
