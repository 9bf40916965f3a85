"""An object declared twice with different types belongs to each (W217), in the validator as in the
checker: IPC-2011's temporal machine shop fires kiln0 both as a kiln8 and as a kiln20."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.pddl.type_hierarchy import typed_objects
from pddltools.validate import GroundedTask, validate_plan

TMS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pddl" / "ipc-2011" / \
    "temporal-machine-shop-temporal-satisficing"


def test_typed_objects_gives_a_twice_declared_object_each_type_once() -> None:
    domain = parse_domain("(define (domain d) (:requirements :typing) (:types a b c) (:constants k - a))")
    problem = parse_problem("(define (problem p) (:domain d) (:objects k - b k - a x - c x - (either a c)))")
    assert typed_objects(domain, problem) == {"k": ("a", "b"), "x": ("c", "a")}


@pytest.mark.corpus
def test_a_machine_shop_plan_may_fire_kiln0_as_either_kiln() -> None:
    if not TMS.is_dir():
        pytest.skip("the shared IPC corpus is not beside the repository")
    task = GroundedTask.load(TMS / "domain.pddl", TMS / "instances" / "instance-1.pddl")
    plan = "0.000: (fire-kiln1 kiln0) [8.000]\n10.000: (fire-kiln2 kiln0) [20.000]\n"
    report = validate_plan(task, plan)
    # Every step is read (kiln0 is a kiln8 and a kiln20); the plan is only too short for the goal.
    assert report.verdict == "invalid" and report.reason == "goal", report.message
