"""The compiled comparisons of 0-ary fluents and literals, and the compiled constant numeric effects,
mean what the general evaluation means: same truth for numbers, fractions, undefined values and
objects; same collected updates."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from pddltools.pddl import ast
from pddltools.pddl.parser import parse_text
from pddltools.semantics import GroundedTask, State
from pddltools.semantics.apply import Effects, collect
from pddltools.semantics.compiled import general_comparison, general_update

DOMAIN = """(define (domain d) (:requirements :numeric-fluents :object-fluents)
  (:types thing)
  (:constants a b - thing)
  (:functions (x) (y) (z) - number (owner) - thing)
  (:action go :parameters () :precondition (and) :effect (and (increase (x) 1) (decrease (y) 2.5)
      (assign (z) -3) (scale-up (x) 0.5))))"""
PROBLEM = "(define (problem p) (:domain d) (:init (= (x) 1)))"

OPERANDS: list[ast.Expression] = [ast.FunctionTerm("x"), ast.FunctionTerm("y"), ast.Number(2),
                                  ast.Number(Fraction(5, 2)), ast.FunctionTerm("owner")]
VALUES: list[int | Fraction | str | None] = [None, 2, Fraction(5, 2), -1, "a"]


@pytest.fixture(scope="module")
def task() -> GroundedTask:
    return GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))


def test_comparisons_agree_with_the_general_evaluation(task: GroundedTask) -> None:
    ev = task.evaluator

    def general(formula: ast.Comparison, b: dict[str, str], s: State) -> bool:
        return general_comparison(ev, formula)(b, s)
    # the fast closure, not the general one behind a lambda: what is compared below is the new path
    assert ev.compiled(ast.Comparison("<", OPERANDS[0], OPERANDS[2])).__name__ == "compare"
    checked = 0
    for x, y, owner in product(VALUES, VALUES, [None, "a", "b", 2]):
        values = {k: v for k, v in ((("x",), x), (("y",), y), (("owner",), owner)) if v is not None}
        state = State(frozenset(), values)
        for op, left, right in product(("=", "<", "<=", ">", ">="), OPERANDS, OPERANDS):
            formula = ast.Comparison(op, left, right)  # type: ignore[arg-type]
            assert ev.compiled(formula)({}, state) == general(formula, {}, state), (formula, values)
            checked += 1
    assert checked == 5 * 5 * 4 * 5 * 25


def test_constant_numeric_effects_collect_as_the_general_path(task: GroundedTask) -> None:
    ev = task.evaluator
    action = next(a for a in task.domain.actions if a.name == "go")
    state = task.initial_state()
    compiled = collect(ev, action.effect, {}, state)
    general = Effects()
    assert action.effect is not None
    assert isinstance(action.effect, ast.AndEffect)
    for part in action.effect.parts:
        assert isinstance(part, ast.Assign)
        general_update(ev, part)({}, state, general)
    assert compiled.updates == general.updates
    assert compiled.updates[("x",)] == [("increase", 1), ("scale-up", Fraction(1, 2))]
