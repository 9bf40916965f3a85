"""Every kind of plan goes through the one happening loop, each with its kind of time; and what a formula
means is one compiled definition, total over the formula nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.pddl import ast
from pddltools.pddl.parser import parse_text
from pddltools.semantics import GroundedTask, State
from pddltools.semantics.errors import Unsupported
from pddltools.validate import loop, pddlplus, sequential, temporal, validate_plan
from pddltools.validate.loop import Time

PLANS = Path(__file__).resolve().parents[2] / "corpus" / "plans"


@pytest.mark.parametrize(("folder", "plan", "kind", "verdict"), [
    ("adl", "valid.plan", "Steps", "valid"),
    ("adl", "not-open.plan", "Steps", "invalid"),
    ("temporal", "commute.plan", "Timeline", None),
    ("pddl+/tank", "valid.plan", "Instants", "valid"),
    ("pddl+/tank", "overflow.plan", "Instants", "invalid"),
    ("continuous/battery", "valid.plan", "Timeline", "valid"),
])
def test_every_kind_of_plan_is_validated_by_the_one_loop(monkeypatch: pytest.MonkeyPatch, folder: str, plan: str,
                                                         kind: str, verdict: str | None) -> None:
    seen: list[Time] = []

    def recording(time: Time) -> object:
        seen.append(time)
        return loop.run(time)
    for module in (sequential, temporal, pddlplus):
        monkeypatch.setattr(module, "run", recording)
    base = PLANS / folder
    task = GroundedTask.load(base / "domain.pddl", base / "problem.pddl")
    report = validate_plan(task, base / plan)
    assert [type(t).__name__ for t in seen] == [kind]
    if verdict is not None:
        assert report.verdict == verdict
    # the loop's time models are these three, and nothing else validates a plan
    assert {c.__name__ for c in Time.__subclasses__()} == {"Steps", "Timeline", "Instants"}


DOMAIN = """(define (domain d) (:requirements :adl :numeric-fluents :constraints)
  (:types thing) (:constants a b - thing) (:predicates (p ?x - thing)) (:functions (f) - number)
  (:action go :parameters (?x - thing) :precondition (exists (?y - thing) (and (p ?y) (not (= ?y ?x))))
   :effect (and (p ?x) (increase (f) 1))))"""
PROBLEM = "(define (problem q) (:domain d) (:init (p a) (= (f) 0)) (:goal (p b)))"


@pytest.fixture(scope="module")
def task() -> GroundedTask:
    return GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))


def test_a_trajectory_constraint_read_in_one_state_is_unsupported_with_its_place(task: GroundedTask) -> None:
    always = ast.Always(ast.Atom("p", (ast.Constant("a"),)))
    with pytest.raises(Unsupported, match="trajectory constraint"):
        task.evaluator.holds(always, {}, task.initial_state())


def test_quantifiers_comparisons_and_effects_mean_one_thing(task: GroundedTask) -> None:
    ev, state = task.evaluator, task.initial_state()
    schema = task.schemas["go"]
    assert isinstance(schema, ast.Action) and schema.precondition is not None
    assert ev.holds(schema.precondition, {"?x": "b"}, state)
    assert not ev.holds(schema.precondition, {"?x": "a"}, state)
    # the explanation of a false existential is the ground formula, read by the same closures
    assert [str(u) for u in ev.explain(schema.precondition, {"?x": "a"}, state)] == [
        "(exists (?y - thing) (and (p ?y) (not (= ?y a))))"]
    after = task.apply(task.ground("go", ("b",)), state)
    assert after.atoms >= {("p", "a"), ("p", "b")} and after.values[("f",)] == 1
    # an expression through `value` and through a comparison agree
    five = ast.Arithmetic("+", (ast.FunctionTerm("f"), ast.Number(4)))
    assert ev.value(five, {}, after) == 5
    assert ev.holds(ast.Comparison("=", five, ast.Number(5)), {}, after)
    assert not ev.holds(ast.Comparison("=", five, ast.Number(5)), {}, State(after.atoms, {}))  # undefined: false
