"""IPC tasks beyond the VAL manifest: IPC-2008 net-benefit plans, and every IPC domain's first instance
read and judged (the empty plan) without a crash."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.diagnostics import Error
from pddltools.validate import GroundedTask, validate_plan
from tests.validate.conftest import OWN, SHARED, manifest

pytestmark = pytest.mark.corpus
IPC = SHARED / "corpus" / "pddl"
ELEVATOR_NB = IPC / "ipc-2008" / "elevator-net-benefit-optimal-strips"


@pytest.fixture(scope="module")
def elevator() -> GroundedTask:
    if not ELEVATOR_NB.is_dir():
        pytest.skip("the shared IPC corpus is not there")
    return GroundedTask.load(ELEVATOR_NB / "domain.pddl", ELEVATOR_NB / "instances" / "instance-1.pddl")


# The metric is (maximize (- 70 (+ (total-cost) (* (is-violated served0) 32) (* (is-violated served1) 36)
# (* (is-violated served2) 2)))): the net benefit, utilities of the soft goals achieved minus the cost.
@pytest.mark.parametrize(("plan", "value", "violated"), [
    ("", 0, {"served0": 1, "served1": 1, "served2": 1}),
    # p0 from n8 to n4 with slow1-0: 9 + 9 = 18 of cost for a utility of 32
    ("(move-up-slow slow1-0 n4 n8)\n(board p0 slow1-0 n8 n0 n1)\n(move-down-slow slow1-0 n8 n4)\n"
     "(leave p0 slow1-0 n4 n1 n0)\n", 70 - (18 + 36 + 2), {"served1": 1, "served2": 1}),
    # and p2 from n2 to n1 with slow0-0: 6 more of cost for a utility of 2, a worse net benefit
    ("(move-up-slow slow1-0 n4 n8)\n(board p0 slow1-0 n8 n0 n1)\n(move-down-slow slow1-0 n8 n4)\n"
     "(leave p0 slow1-0 n4 n1 n0)\n(board p2 slow0-0 n2 n0 n1)\n(move-down-slow slow0-0 n2 n1)\n"
     "(leave p2 slow0-0 n1 n1 n0)\n", 70 - (24 + 36), {"served1": 1}),
])
def test_net_benefit(elevator: GroundedTask, plan: str, value: int, violated: dict[str, int]) -> None:
    report = validate_plan(elevator, plan)
    assert report.valid, report.message
    assert report.value == value
    assert dict(report.violations) == violated


def _first_instances() -> list[tuple[Path, Path]]:
    pairs = []
    for folder in sorted(IPC.glob("ipc-*/*")):
        problem = folder / "instances" / "instance-1.pddl"
        domain = folder / "domain.pddl"
        if not domain.is_file():
            domain = folder / "domains" / "domain-1.pddl"
        if problem.is_file() and domain.is_file():
            pairs.append((domain, problem))
    return pairs


def test_every_ipc_domain_is_judged() -> None:
    pairs = _first_instances()
    if not pairs:
        pytest.skip("the shared IPC corpus is not there")
    verdicts: dict[str, int] = {}
    for domain, problem in pairs:
        try:
            task = GroundedTask.load(domain, problem)
        except Error:
            # ipc-1998/mystery-round-1-adl starts with (in-package "PDDL"): the parser's documented exception
            assert "mystery-round-1-adl" in str(domain)
            continue
        report = validate_plan(task, "")
        verdicts[report.reason or "valid"] = verdicts.get(report.reason or "valid", 0) + 1
        # an empty plan reaches the goal only when the goal is all preferences (or already true)
        if report.valid:
            assert report.value is not None
    assert set(verdicts) <= {"valid", "goal", "constraint"}
    assert verdicts["goal"] > 200


ELEVATOR_TEMPORAL = IPC / "ipc-2008" / "elevator-temporal-satisficing-strips"
# Four passengers moved by three elevators at once (written by hand, each event 0.001 after the one it
# depends on, as OPTIC writes them, so judged as the IPC judged them, at VAL's -t 0.001, and with the
# least separation of such events 0.001): the moves' durations come from the travel-time fluents,
# boarding needs the lift there over all of its duration, and p1 changes elevators at n4.
ELEVATOR_PLAN = """\
0.000: (move-down-slow slow0-0 n4 n3) [12.000]
0.000: (move-down-fast fast0 n8 n0) [17.000]
0.000: (move-up-slow slow1-0 n4 n7) [28.000]
12.001: (board p0 slow0-0 n3 n0 n1) [1.000]
13.002: (move-up-slow slow0-0 n3 n4) [12.000]
17.001: (board p3 fast0 n0 n0 n1) [1.000]
18.002: (move-up-fast fast0 n0 n2) [11.000]
25.003: (leave p0 slow0-0 n4 n1 n0) [1.000]
26.004: (move-down-slow slow0-0 n4 n1) [28.000]
28.001: (board p2 slow1-0 n7 n0 n1) [1.000]
29.002: (move-down-slow slow1-0 n7 n6) [12.000]
29.003: (leave p3 fast0 n2 n1 n0) [1.000]
41.003: (leave p2 slow1-0 n6 n1 n0) [1.000]
42.004: (move-down-slow slow1-0 n6 n4) [20.000]
54.005: (board p1 slow0-0 n1 n0 n1) [1.000]
55.006: (move-up-slow slow0-0 n1 n4) [28.000]
83.007: (leave p1 slow0-0 n4 n1 n0) [1.000]
84.008: (board p1 slow1-0 n4 n0 n1) [1.000]
85.009: (move-up-slow slow1-0 n4 n5) [12.000]
97.010: (leave p1 slow1-0 n5 n1 n0) [1.000]
"""


@pytest.fixture(scope="module")
def elevator_temporal() -> GroundedTask:
    if not ELEVATOR_TEMPORAL.is_dir():
        pytest.skip("the shared IPC corpus is not there")
    return GroundedTask.load(ELEVATOR_TEMPORAL / "domain.pddl", ELEVATOR_TEMPORAL / "instances" / "instance-1.pddl")


@pytest.mark.parametrize(("change", "verdict", "reason", "step"), [
    (None, "valid", None, None),
    # boarding before the lift arrives: the over-all (lift-at slow0-0 n3) is false at 11.5
    (("12.001: (board p0", "11.500: (board p0"), "invalid", "invariant", 4),
    # leaving n3 half an epsilon after arriving: the start reads (lift-at slow0-0 n3), which the end adds
    (("13.002: (move-up-slow slow0-0", "12.0005: (move-up-slow slow0-0"), "invalid", "epsilon", 5),
    # the same at the very moment of arrival: one happening, mutex
    (("13.002: (move-up-slow slow0-0", "12.000: (move-up-slow slow0-0"), "invalid", "mutex", 1),
    # a move whose duration is not the travel time
    (("[17.000]", "[16.000]"), "invalid", "duration", 2),
])
def test_temporal_ipc_plan(elevator_temporal: GroundedTask, change: tuple[str, str] | None, verdict: str,
                           reason: str | None, step: int | None) -> None:
    plan = ELEVATOR_PLAN if change is None else ELEVATOR_PLAN.replace(*change)
    report = validate_plan(elevator_temporal, plan, tolerance=Fraction("0.001"), epsilon=Fraction("0.001"))
    assert (report.verdict, report.reason, report.failed_step) == (verdict, reason, step), report.message
    if verdict == "valid":
        assert report.value == report.makespan == Fraction("98.01")


def test_threads_share_a_task() -> None:
    """The scorer validates plans of one task from several threads (derived predicates keep per-thread
    state during their fixpoint)."""
    from concurrent.futures import ThreadPoolExecutor

    rows = [r for r in manifest(SHARED / "plans" / "manifest_extra.tsv") if r["id"].startswith("optical04")]
    if not rows:
        pytest.skip("the shared plans are not there")
    task = GroundedTask.load(SHARED / rows[0]["domain_path"], SHARED / rows[0]["problem_path"])
    expected = [validate_plan(task, SHARED / r["plan_file"]).verdict for r in rows]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            found = list(pool.map(lambda r: validate_plan(task, SHARED / r["plan_file"]).verdict, rows))
            assert found == expected


FD_ROWS = manifest(OWN / "fd" / "manifest.tsv")


@pytest.mark.parametrize("row", FD_ROWS, ids=lambda r: r["id"])
def test_fast_downward_plans(row: dict[str, str]) -> None:
    """Plans Fast Downward found (corpus/plans/fd): valid, with the cost Fast Downward reported."""
    if not (SHARED / row["domain"]).is_file():
        pytest.skip("the shared IPC corpus is not there")
    task = GroundedTask.load(SHARED / row["domain"], SHARED / row["problem"])
    report = validate_plan(task, OWN / row["plan"])
    assert report.valid, report.message
    assert report.cost == int(row["fd_cost"])
