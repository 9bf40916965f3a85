"""IPC tasks beyond the VAL manifest: IPC-2008 net-benefit plans, and every IPC domain's first instance
read and judged (the empty plan) without a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.diagnostics import Error
from pddltools.validate import Task, validate_plan
from tests.validate.conftest import SHARED

pytestmark = pytest.mark.corpus
IPC = SHARED / "corpus" / "pddl"
ELEVATOR_NB = IPC / "ipc-2008" / "elevator-net-benefit-optimal-strips"


@pytest.fixture(scope="module")
def elevator() -> Task:
    if not ELEVATOR_NB.is_dir():
        pytest.skip("the shared IPC corpus is not there")
    return Task.load(ELEVATOR_NB / "domain.pddl", ELEVATOR_NB / "instances" / "instance-1.pddl")


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
def test_net_benefit(elevator: Task, plan: str, value: int, violated: dict[str, int]) -> None:
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
            task = Task.load(domain, problem)
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
