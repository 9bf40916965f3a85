"""The validator's hostile inputs of ../shared/fuzz/turn3 (Zeno behaviour, a long finite cascade, a fault
inside an event, an approximation that blows up, a long temporal plan over many static atoms): each a
located verdict in bounded time and memory.

Each plan is validated in a child process (this module run as a script) under a time limit and an
address-space cap, which prints the report as JSON and its own peak memory: a regression to a hang, a
traceback or a state kept per happening fails here instead of stalling CI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # the child: this worktree's tests.* importable as when pytest runs
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fuzzing import REPO, TURN3, cap_address_space, child_env, peak_mb

#: Seconds a child may take (loading the task, validating): generous, CI machines are shared; before
#: the fixes the Zeno plan and the 5,000-step temporal plan never ended or took 32 s.
TIMEOUT = 60
#: The child's address space, in bytes: the 1,000-step temporal plan took 1.0 GB before.
ADDRESS_SPACE = 1536 * 2**20


def child(folder: str, domain: str, problem: str, plan: str, delta: str | None) -> None:
    from fractions import Fraction

    from pddltools.validate import GroundedTask, validate_plan

    base = TURN3 / folder
    task = GroundedTask.load(base / domain, base / problem)
    before = peak_mb()
    report = validate_plan(task, base / plan, delta=Fraction(delta) if delta else None)
    grown = peak_mb() - before
    found = report.to_json()
    found["grown_mb"] = grown
    print(json.dumps(found))


if __name__ == "__main__":
    child(*sys.argv[1:5], sys.argv[5] if len(sys.argv) > 5 else None)
else:
    import pytest

    needs_turn3 = pytest.mark.skipif(not TURN3.is_dir(), reason=f"the reproducers are not at {TURN3}")

    def judge(folder: str, domain: str, problem: str, plan: str, delta: str | None = None) -> dict[str, Any]:
        args = [sys.executable, __file__, folder, domain, problem, plan, *([delta] if delta else [])]
        done = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT,
                              preexec_fn=lambda: cap_address_space(ADDRESS_SPACE), cwd=REPO, env=child_env(),
                              check=False)
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
        found: dict[str, Any] = json.loads(done.stdout)
        return found

    @needs_turn3
    def test_zeno_behaviour_is_a_verdict_not_a_hang() -> None:
        # bounces at 1, 2, 2.5, 2.75, ...: infinitely many before 3
        assert judge("pddlplus-zeno-hang", "bounce-domain.pddl", "bounce-problem.pddl", "before-limit.plan")["valid"]
        zeno = judge("pddlplus-zeno-hang", "bounce-domain.pddl", "bounce-problem.pddl", "zeno.plan")
        assert zeno["verdict"] == "invalid" and zeno["reason"] == "zeno" and "Zeno" in zeno["message"]
        assert 2.99 < float(zeno["failed_time"]) < 3 and zeno["failed_step"] is None

    @needs_turn3
    def test_a_finite_cascade_has_no_cap() -> None:
        # 1,001 distinct events firing one after another at time 0, each once: no loop
        report = judge("pddlplus-cascade-cap", "casc-domain.pddl", "casc1001-problem.pddl", "casc.plan")
        assert report["valid"], report["message"]

    @needs_turn3
    def test_a_fault_inside_an_event_is_the_events() -> None:
        report = judge("pddlplus-event-error-blames-step", "div2-domain.pddl", "div-problem.pddl", "ev.plan")
        assert report["verdict"] == "invalid" and report["reason"] == "arithmetic"
        assert report["failed_step"] is None and float(report["failed_time"]) == 1
        assert "the event (boom) (" in report["message"] and "div2-domain.pddl:7:3)" in report["message"]

    @needs_turn3
    def test_an_approximation_that_blows_up_is_a_verdict() -> None:
        # dx/dt = x^2 from 1 blows up at 1; Euler's steps of 0.1 pass the largest double before 3
        report = judge("pddlplus-euler-overflow", "blow-domain.pddl", "blow1-problem.pddl", "blow3.plan", "0.1")
        assert report["verdict"] == "invalid" and report["reason"] == "unbounded"
        assert 1 < float(report["failed_time"]) < 3 and "(grow)" in report["message"]
        assert "(x)" in report["message"] and "approximated with --delta 0.1" in report["message"]

    @needs_turn3
    def test_a_long_temporal_plan_keeps_no_state_per_happening() -> None:
        # 1,000 durative steps over 10,000 static atoms: 1.0 GB when every happening's state was kept
        report = judge("temporal-validate-memory", "tw2-domain.pddl", "tw2-problem.pddl", "tw2-1000.plan")
        assert report["valid"] and report["value"] == 1499.5
        assert report["grown_mb"] < 100
