"""The plan formats ENHSP writes (seen from the jar of PyPI's up-enhsp 0.1.1): `-sp` files with a
`TIME: @PlanEND` line, and its printed `Found Plan:` block with waiting lines, saved as a log."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pddltools.diagnostics import Source
from pddltools.validate.planfile import read_plan
from tests.validate.test_planfile import test_syntax_errors_name_line_and_column as syntax_error_located

# What `enhsp -o d.pddl -f p.pddl -sp plan` wrote for Unified Planning's car_nl test task.
SAVED = "0: (start_car)\n0: (accelerate)\n1.0: (decelerate)\n189.0: (stop_car)\n189.0: @PlanEND \n"
# The same run's standard output around its plan.
LOG = ("Extracting plan with execution delta: 1.0\nProblem Solved\n\nFound Plan:\n0: (start_car)\n"
       "0: (accelerate)\n0: -----waiting---- [1.0]\n1.0: (decelerate)\n1.0: -----waiting---- [189.0]\n"
       "189.0: (stop_car)\n\nPlan-Length:193\nElapsed Time: 189.0\n")


def steps(text: str) -> list[tuple[str, Fraction | None, int]]:
    return [(str(s), s.time, s.line) for s in read_plan(Source(text, "p.plan")).steps]


def test_saved_plan_keeps_its_end_time() -> None:
    plan = read_plan(Source(SAVED, "p.plan"))
    assert [(str(s), s.time) for s in plan.steps] == [("(start_car)", 0), ("(accelerate)", 0),
                                                      ("(decelerate)", 1), ("(stop_car)", 189)]
    assert plan.end == 189 and plan.end_span is not None and plan.end_span.line == 5


def test_an_end_before_the_last_step_is_the_last_step() -> None:
    # ENHSP's car plan: its "Elapsed Time" 29 (the waits it printed reach 32) is what @PlanEND says.
    plan = read_plan(Source("0: (start_car)\n31.0: (decelerate)\n32.0: (stop_car)\n29.0: @PlanEND \n", "p.plan"))
    assert plan.end == 32


def test_log_gives_the_steps_between_found_plan_and_the_blank_line_on_their_own_lines() -> None:
    assert steps(LOG) == [("(start_car)", 0, 5), ("(accelerate)", 0, 6), ("(decelerate)", 1, 8),
                          ("(stop_car)", 189, 10)]
    assert read_plan(Source(LOG, "p.log")).end is None


def test_numeric_plan_with_step_numbers_reads_as_before() -> None:
    assert steps("0.0: (increment c3)\n1.0: (increment c2)\n") == [("(increment c3)", 0, 1), ("(increment c2)", 1, 2)]


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("0: (a)\n@PlanEND\n", 2, 1, "needs its time"),
    ("0: (a)\n3: @PlanEND\n4: (b)\n", 3, 1, "after @PlanEND"),
    ("0: (a)\nx: @PlanEND\n", 2, 1, "'x' is not a number"),
    ("0: (a)\n1: @PlanEND\n2: @PlanEND\n", 3, 1, "a second @PlanEND"),
    ("0: (a)\n1: @PlanEND (b)\n", 2, 1, "text after @PlanEND"),
    ("0: (a)\n  0: -----waiting---- 1.0\n", 2, 3, "TIME: -----waiting---- [UNTIL]"),
    ("0: (a)\n0: -----waiting---- [soon]\n", 2, 1, "'soon' is not a number"),
])
def test_bad_enhsp_lines_are_located(text: str, line: int, column: int, words: str) -> None:
    syntax_error_located(text, line, column, words)  # as any other syntax error of a plan
