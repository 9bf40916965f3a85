"""The runner's validator child (`pddltools.score.isolated`): a plan's time is the child's CPU from its
request, so neither the child's start nor a busy machine is charged to the planner, and a plan that
needs more CPU than allowed ends as a crash saying so."""

from __future__ import annotations

from pathlib import Path

from pddltools.score.isolated import IsolatedValidator, _cpu_seconds

DOMAIN = """(define (domain ticks) (:requirements :strips)
  (:predicates (ticked))
  (:action tick :parameters () :precondition () :effect (ticked)))
"""
PROBLEM = "(define (problem t) (:domain ticks) (:init) (:goal (ticked)))\n"
MB = 1 << 20


def _task(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    (tmp_path / "problem.pddl").write_text(PROBLEM)
    return str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl")


def test_the_childs_start_is_not_charged_to_the_first_plan(tmp_path: Path) -> None:
    domain, problem = _task(tmp_path)
    # Starting the child (an interpreter, the validator's imports, the parser) costs far more CPU than
    # the allowance; only the plan's own work, a few milliseconds, is counted against it.
    with IsolatedValidator(memory=500 * MB, seconds=0.25) as validator:
        verdict = validator(domain, problem, "(tick)\n")
        assert child_cpu(validator) > 0.05  # the start was real work, and was done before the request
        assert (verdict.valid, verdict.length, verdict.crash) == (True, 1, False), verdict.reason
        again = validator(domain, problem, "(tick)\n(tick)\n")
        assert (again.valid, again.length) == (True, 2) and validator.started == 1


def child_cpu(validator: IsolatedValidator) -> float:
    child = validator._child
    assert child is not None
    return _cpu_seconds(child.pid)


def test_a_plan_needing_more_cpu_than_allowed_is_a_crash_saying_so(tmp_path: Path) -> None:
    domain, problem = _task(tmp_path)
    with IsolatedValidator(memory=1000 * MB, seconds=0.1) as validator:
        verdict = validator(domain, problem, "(tick)\n" * 400_000)
        assert verdict.crash and not verdict.valid
        assert verdict.reason == "validating its plan took more than 0.1 s of CPU (the run's wall limit)"
        # the child that broke the limit is gone; the next plan gets a fresh one and is judged
        after = validator(domain, problem, "(tick)\n")
        assert (after.valid, after.crash, validator.started) == (True, False, 2)
