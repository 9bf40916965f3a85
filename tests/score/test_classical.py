"""The classical tracks of IPC-2014, IPC-2018 and IPC-2023, worked by hand on small competitions: the
arithmetic is written beside each check."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pddltools.check.features import Feature as F
from pddltools.check.tracks import Fit, verdicts
from pddltools.cli import main
from pddltools.diagnostics import Error
from pddltools.score.classical import CLASSICAL, CLASSICAL_RULES, MissingBounds, agile_2014
from pddltools.score.limits import GB, TRACK_LIMITS
from pddltools.score.reference import References, parse_references
from pddltools.score.rules import CLASSICAL_RULES as DECLARED
from pddltools.score.rules import RULES, score
from pddltools.score.store import Run


def run(planner: str, problem: str, status: str = "solved", *, cost: float | None = None, cpu: float = 1.0,
        domain: str = "d1") -> Run:
    return Run(planner=planner, track="classical", config="c", domain=domain,
               domain_path=f"/x/{domain}/domain.pddl", domain_hash="h", problem_path=f"/x/{domain}/{problem}.pddl",
               problem_hash="h", status=status, wall=cpu, cpu=cpu, peak_memory=0, value=cost, length=1,
               reason="step 2: precondition false" if status == "invalid-plan" else "")


def refs(**costs: float) -> References:
    """Reference costs keyed by `domain_problem` (d1_p1 -> /x/d1/p1.pddl)."""
    return References.of({f"/x/{k.split('_')[0]}/{k.split('_')[1]}.pddl": v for k, v in costs.items()})


def test_the_rule_sets_are_declared_where_score_looks() -> None:
    assert CLASSICAL_RULES == DECLARED and set(CLASSICAL_RULES) <= set(RULES)
    assert all(r.url.startswith("https://") for r in CLASSICAL.values())


def test_sat_scores_against_the_reference_not_only_the_best_entrant() -> None:
    # d1/p1: reference 10; A 10 -> 1, B 20 -> 0.5. d1/p2: reference 6, but A found 5: C* = 5, A 1, B 5/10.
    # d2/q1: no reference: C* = the cheapest valid plan, 4: A 4/8 = 0.5, B 1.
    runs = [run("A", "p1", cost=10), run("B", "p1", cost=20), run("A", "p2", cost=5), run("B", "p2", cost=10),
            run("A", "q1", cost=8, domain="d2"), run("B", "q1", cost=4, domain="d2")]
    s = score(runs, "ipc2023-sat", references=refs(d1_p1=10, d1_p2=6))
    assert s.entrant("A").total == pytest.approx(1 + 1 + 0.5)
    assert s.entrant("B").total == pytest.approx(0.5 + 0.5 + 1)
    # Against the entrants alone (IPC-2008), B's 20 would have been compared with 10 as well, but a lone
    # entrant would get 1: the reference is what keeps it honest.
    alone = score([run("B", "p1", cost=20)], "ipc2018-sat", references=refs(d1_p1=10))
    assert alone.entrant("B").total == pytest.approx(0.5)
    assert "no reference cost" in " ".join(s.notes)                        # q1 had none


def test_an_invalid_plan_voids_the_domain_from_2018_on_and_two_domains_disqualify() -> None:
    # A: an invalid plan in d1 (p2): its p1 (1 point) is lost too; another in d2: disqualified.
    # B: plain 0.5 + 1 in d1 and 1 in d2.
    runs = [run("A", "p1", cost=10), run("B", "p1", cost=20), run("A", "p2", "invalid-plan"),
            run("B", "p2", cost=3), run("A", "q1", "invalid-plan", domain="d2"), run("B", "q1", cost=1, domain="d2")]
    for rules in ("ipc2018-sat", "ipc2023-sat", "ipc2023-agile"):
        s = score(runs, rules, references=refs(d1_p1=10, d1_p2=3, d2_q1=1))
        a = s.entrant("A")
        assert a.domains == {"d1": 0.0, "d2": 0.0} and a.solved == 0 and a.disqualified, rules
        assert [e.name for e in s.entrants] == ["B", "A"]                  # disqualified entries rank last
        assert {(v.entrant, v.domain) for v in s.voided} == {("A", "d1"), ("A", "d2")}
    # IPC-2014 kept IPC-2008's rule: the invalid plan earns nothing for its own problem only.
    s = score(runs, "ipc2014-sat", references=refs(d1_p1=10, d1_p2=3, d2_q1=1))
    assert s.entrant("A").total == pytest.approx(1.0) and not s.entrant("A").disqualified and not s.voided


def test_an_optimal_track_plan_costlier_than_the_reference_is_an_error_voiding_the_domain() -> None:
    # Optimal costs: p1 7, p2 4. A is optimal on both; B's p1 plan costs 9 > 7 although no entrant found
    # 7 (C solved only p2): only the reference can tell. B's d2 problem still counts.
    runs = [run("A", "p1", cost=7), run("B", "p1", cost=9), run("A", "p2", cost=4), run("B", "p2", cost=4),
            run("C", "p2", cost=4), run("B", "q1", cost=2, domain="d2")]
    for rules in ("ipc2014-opt", "ipc2018-opt", "ipc2023-opt"):
        s = score(runs, rules, references=refs(d1_p1=7, d1_p2=4))
        assert s.entrant("A").total == 2 and s.entrant("C").total == 1
        b = s.entrant("B")
        assert b.domains == {"d1": 0.0, "d2": 1.0} and b.solved == 1 and not b.disqualified
        (void,) = s.voided
        assert (void.entrant, void.domain) == ("B", "d1")
        assert "not optimal" in void.reason and "costs 9" in void.reason and "reference" in void.reason
    # Without the reference, B alone on p1 would keep its point: the error is only visible against it.
    alone = score([run("B", "p1", cost=9)], "ipc2023-opt")
    assert alone.entrant("B").total == 1 and not alone.voided


def test_a_plan_cheaper_than_the_optimal_reference_says_the_reference_is_wrong() -> None:
    s = score([run("A", "p1", cost=5), run("B", "p1", cost=6)], "ipc2023-opt", references=refs(d1_p1=6))
    assert "below the reference" in " ".join(s.notes)
    # The reference is then set aside: B's 6 is costlier than A's valid 5, so B is the one not optimal.
    assert [(v.entrant, v.domain) for v in s.voided] == [("B", "d1")]


def test_agile_since_2018_ties_at_the_time_limit_at_zero() -> None:
    limit = 300.0
    runs = [run("A", "p1", cpu=0.4), run("B", "p1", cpu=30.0),          # A 1 (under a second); B 1 - log 30/log 300
            run("A", "p2", cpu=limit), run("B", "p2", cpu=limit),      # both at the limit: 1 - 1 = 0, a tie
            run("A", "p3", cpu=400.0)]                                  # beyond the limit: 0
    for rules in ("ipc2018-agile", "ipc2023-agile"):
        s = score(runs, rules)
        assert s.entrant("A").total == pytest.approx(1.0)
        assert s.entrant("B").total == pytest.approx(1 - math.log(30) / math.log(300))   # 0.4037
        p2 = [p.score for p in s.problems if p.problem.endswith("p2.pddl")]
        assert p2 == [0.0, 0.0]


def test_agile_2014_is_relative_to_the_fastest_and_ties_at_the_limit_share_full_marks() -> None:
    # p1: A 2 s, B 20 s: A 1, B 1/(1 + log10 10) = 0.5. p2: both at 300 s and nobody faster: 1 each.
    # p3: C at 0.2 s, A at 0.9 s: both raised to 1 s, 1 each.
    runs = [run("A", "p1", cpu=2.0), run("B", "p1", cpu=20.0), run("A", "p2", cpu=300.0), run("B", "p2", cpu=300.0),
            run("C", "p3", cpu=0.2), run("A", "p3", cpu=0.9)]
    s = score(runs, "ipc2014-agile")
    assert s.entrant("A").total == pytest.approx(3.0)
    assert s.entrant("B").total == pytest.approx(1.5)
    assert agile_2014({"x": 3.0, "y": 300.0})["y"] == pytest.approx(1 / (1 + 2))


def test_bounded_cost_counts_plans_within_the_bound_and_voids_the_domain_of_one_above() -> None:
    # bounds: p1 10, p2 5. A: 10 <= 10 and 5 <= 5: 2. B: 8 <= 10, but 6 > 5: an invalid plan, d1 voided.
    runs = [run("A", "p1", cost=10), run("B", "p1", cost=8), run("A", "p2", cost=5), run("B", "p2", cost=6)]
    s = score(runs, "ipc2018-bounded", references=refs(d1_p1=10, d1_p2=5))
    assert s.entrant("A").total == 2 and s.entrant("B").total == 0
    assert "above the cost bound 5" in s.voided[0].reason
    with pytest.raises(MissingBounds):
        score(runs, "ipc2018-bounded", references=refs(d1_p1=10))


def test_reference_files_match_by_path_folder_and_name(tmp_path: Path) -> None:
    text = "problem\tcost\n# a comment\nblocks/p01.pddl\t12\n/abs/other/p02.pddl 7.5  # trailing comment\n"
    r = parse_references(text, "costs.tsv", tmp_path)
    assert len(r) == 2
    assert r.get(str(tmp_path / "blocks" / "p01.pddl")) == 12                # by path
    assert r.get("/elsewhere/blocks/p01.pddl") == 12                          # by folder and name
    assert r.get("/elsewhere/p02.pddl") == 7.5                                # by name alone, unique
    assert r.get("/x/p03.pddl") is None
    with pytest.raises(Error) as bad:
        parse_references("p1.pddl\t-3\n", "costs.tsv", tmp_path)
    assert bad.value.diagnostics[0].code == "S045"


def test_presets_and_track_verdicts() -> None:
    assert TRACK_LIMITS["ipc2023-agile"].wall == 300 and TRACK_LIMITS["ipc2023"].memory == 8 * GB
    assert TRACK_LIMITS["ipc2014"].memory == 4 * GB and TRACK_LIMITS["ipc2018"].cpu == 1800
    strips_costs = {F.TYPING, F.ACTION_COSTS, F.NEGATIVE_PRECONDITIONS, F.CONDITIONAL_EFFECTS}
    found = verdicts(strips_costs)
    assert all(found[t].fit is Fit.FITS for t in ("ipc2014-sat", "ipc2018-opt", "ipc2023-agile"))
    assert found["ipc2023-learning"].fit is Fit.COMPILABLE                    # no conditional effects there
    derived = verdicts({F.DERIVED_PREDICATES})
    assert derived["ipc2018-sat"].fit is Fit.FITS and derived["ipc2023-sat"].fit is Fit.COMPILABLE
    assert verdicts({F.NUMERIC_FLUENTS})["ipc2023-sat"].fit is Fit.UNFIT


DOMAIN = """(define (domain hop) (:requirements :typing :action-costs)
  (:types place) (:predicates (at ?p - place) (link ?a ?b - place)) (:functions (total-cost) - number)
  (:action hop :parameters (?a ?b - place) :precondition (and (at ?a) (link ?a ?b))
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) 1))))
"""
PROBLEM = """(define (problem p1) (:domain hop) (:objects a b c - place)
  (:init (at a) (link a b) (link b c) (link a c) (= (total-cost) 0)) (:goal (at c)) (:metric minimize (total-cost)))
"""


def test_score_cli_reads_the_reference_and_reports_the_optimality_error(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "hop"
    folder.mkdir()
    (folder / "domain.pddl").write_text(DOMAIN)
    (folder / "p1.pddl").write_text(PROBLEM)
    lines = [{"planner": "direct", "plan_text": "(hop a c)\n", "cost": 1},
             {"planner": "detour", "plan_text": "(hop a b)\n(hop b c)\n", "cost": 2}]
    with open(tmp_path / "runs.jsonl", "w") as handle:
        for item in lines:
            handle.write(json.dumps({"planner": item["planner"], "domain": "hop/domain.pddl",
                                     "problem": "hop/p1.pddl", "plan": None, "plan_text": item["plan_text"],
                                     "time": 2.0, "status": "solved", "config": "c"}) + "\n")
    (tmp_path / "costs.tsv").write_text("hop/p1.pddl\t1\n")
    args = ["score", str(tmp_path / "runs.jsonl"), "--rules", "ipc2023-opt", "--reference", str(tmp_path / "costs.tsv")]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "detour solves nothing in hop" in out and "optimal (reference) cost is 1" in out
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["planners"]["direct"]["total"] == 1 and data["planners"]["detour"]["total"] == 0
    # satisficing against the same reference: 1/2 for the detour
    assert main([*args[:3], "ipc2023-sat", *args[4:], "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["planners"]["detour"]["total"] == pytest.approx(0.5)
