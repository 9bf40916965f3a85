"""The bridges on small inputs: what each target cannot express is refused at its place, action costs
and durative actions cross both ways, the examples of the interop guide (docs/guide/interop.md) run, and
the core never imports the frameworks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pddltools.interop import InteropError
from pddltools.interop.errors import require
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain, parse_domain_file, parse_problem, parse_problem_file

from .ast_normal import normal_form

pytest.importorskip("tarski")
pytest.importorskip("unified_planning")

from pddltools.interop.tarski import from_tarski, to_tarski
from pddltools.interop.unified_planning import from_up, to_up

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "interop"

DOMAIN = """(define (domain d)
  (:requirements :typing {requirements})
  (:types block - object {types})
  (:predicates (clear ?b - block) (held ?b - block) {predicates})
  {structures})"""
PROBLEM = """(define (problem p) (:domain d)
  (:objects a b - block)
  (:init (clear a) {init})
  (:goal {goal}){rest})"""
PICK = "(:action pick :parameters (?b - block) :precondition (clear ?b) :effect (and (held ?b) (not (clear ?b))))"


def task(structures: str = PICK, goal: str = "(held a)", init: str = "", rest: str = "", types: str = "",
         predicates: str = "", requirements: str = "") -> tuple[ast.Domain, ast.Problem]:
    domain = parse_domain(DOMAIN.format(requirements=requirements, types=types, predicates=predicates,
                                        structures=structures), "d.pddl")
    problem = parse_problem(PROBLEM.format(init=init, goal=goal, rest=rest), "p.pddl")
    return domain, problem


def refusal(convert: object, pair: tuple[ast.Domain, ast.Problem]) -> tuple[str, str, int]:
    with pytest.raises(InteropError) as caught:
        convert(*pair)  # type: ignore[operator]
    first = caught.value.diagnostics[0]
    assert first.span is not None, first
    return first.code, first.message, first.span.line


EVENT = "(:event fall :parameters (?b - block) :precondition (held ?b) :effect (not (held ?b)))"
DURATIVE = """(:durative-action move :parameters (?b - block) :duration (= ?duration 2)
    :condition (at start (clear ?b)) :effect (at end (held ?b)))"""


@pytest.mark.parametrize(("pair", "says", "line"), [
    (task(DURATIVE, requirements=":durative-actions"), "the durative action move", 5),
    (task(EVENT, requirements=":time"), "the PDDL+ event fall", 5),
    (task(types="tower - (either block object)"), "the type tower declared as (either ...)", 3),
    (task(goal="(preference p (held a))", requirements=":preferences"), "a preference", 4),
    (task(init="(at 5 (clear b))", requirements=":timed-initial-literals"), "a timed initial literal", 3),
    (task(predicates="(a)"), "the name a", 4),
    (task(rest=" (:constraints (always (clear a)))", requirements=":constraints"), "a problem's :constraints", 4),
])
def test_tarski_refuses_with_the_construct_and_its_place(pair: tuple[ast.Domain, ast.Problem], says: str,
                                                         line: int) -> None:
    code, message, at = refusal(to_tarski, pair)
    assert code == "E701"
    assert message.startswith(says) and "cannot be expressed in tarski" in message
    assert at == line


NESTED_FORALL = """(:action drop :parameters ()
    :effect (forall (?x - block) (forall (?y - block) (when (held ?x) (clear ?y)))))"""
SCALE = """(:action grow :parameters (?b - block) :effect (scale-up (size ?b) 2))"""
DURATION_USED = """(:durative-action move :parameters (?b - block) :duration (= ?duration 2)
    :condition (at start (clear ?b)) :effect (at end (increase (size ?b) ?duration)))"""
DERIVED = "(:derived (free ?b - block) (clear ?b))"


@pytest.mark.parametrize(("pair", "says", "line"), [
    (task(DERIVED, predicates="(free ?b - block)", requirements=":derived-predicates"),
     "the derived predicate free", 5),
    (task(PICK + NESTED_FORALL, requirements=":conditional-effects"), "a forall effect inside a forall effect", 6),
    (task(PICK + SCALE, predicates=") (:functions (size ?b - block)",
          requirements=":numeric-fluents"), "a scale-up effect", 5),
    (task(DURATION_USED, predicates=") (:functions (size ?b - block)", requirements=":durative-actions"),
     "?duration here", 6),
    (task(goal="(preference p (held a))", requirements=":preferences"), "a preference", 4),
    (task(EVENT, requirements=":time"), "the PDDL+ event fall", 5),
    (task(rest=" (:constraints (within 3 (held a)))", requirements=":constraints"),
     "the trajectory constraint Within", 4),
])
def test_up_refuses_with_the_construct_and_its_place(pair: tuple[ast.Domain, ast.Problem], says: str,
                                                     line: int) -> None:
    code, message, at = refusal(to_up, pair)
    assert code == "E702"
    assert message.startswith(says) and "cannot be expressed in Unified Planning" in message
    assert at == line


def test_action_costs_cross_both_ways() -> None:
    domain, problem = parse_domain_file(CORPUS / "domain.pddl"), parse_problem_file(CORPUS / "problem.pddl")
    from unified_planning.model.metrics import MinimizeActionCosts

    up_task = to_up(domain, problem)
    (metric,) = up_task.quality_metrics
    assert isinstance(metric, MinimizeActionCosts)
    assert {a.name: str(metric.get_action_cost(a)) for a in up_task.actions} == {
        "drive": "distance(from, to)", "load": "1", "unload": "1"}
    assert not up_task.has_fluent("total-cost")  # the metric holds the costs, as UP's reader makes it

    tarski_task = to_tarski(domain, problem)
    assert {name: str(a.cost) for name, a in tarski_task.actions.items()} == {
        "drive": "distance(?from, ?to)", "load": "1", "unload": "1"}

    for back in (from_up(up_task, domain.name), from_tarski(tarski_task)):
        assert normal_form(*back) == normal_form(domain, problem)
        assert any(r.name == ":action-costs" for r in back[0].requirements)


def test_durative_actions_and_timed_literals_round_trip_through_up() -> None:
    pair = task(DURATIVE + " (:action reset :parameters (?b - block) :effect (clear ?b))",
                requirements=":durative-actions",
                init="(at 5 (clear b)) (at 7.5 (not (clear a)))", rest=" (:metric minimize (total-time))")
    up_task = to_up(*pair)
    (move,) = [a for a in up_task.actions if a.name == "move"]
    assert str(move.duration) == "[2, 2]"
    assert sorted(str(t) for t in up_task.timed_effects) == ["start + 15/2", "start + 5"]
    assert normal_form(*from_up(up_task, "d")) == normal_form(*pair)


def test_from_up_refuses_what_pddl_cannot_say() -> None:
    from unified_planning.shortcuts import BoolType, Fluent, InstantaneousAction, Problem

    problem = Problem("p")
    f, g = Fluent("f", BoolType()), Fluent("g", BoolType())
    problem.add_fluent(f, default_initial_value=False)
    problem.add_fluent(g, default_initial_value=False)
    copy = InstantaneousAction("copy")
    copy.add_effect(f, g)  # f takes g's value: PDDL has no such effect
    problem.add_action(copy)
    with pytest.raises(InteropError) as caught:
        from_up(problem)
    assert caught.value.diagnostics[0].code == "E703"
    assert "a Boolean fluent set to an expression" in caught.value.diagnostics[0].message


def test_a_missing_framework_names_the_extra() -> None:
    with pytest.raises(InteropError) as caught:
        require("pddltools_no_such_framework", "up")
    assert caught.value.diagnostics[0].code == "E704"
    assert "pip install 'pddltools[up]'" in caught.value.diagnostics[0].message


def test_guide_examples() -> None:
    from tarski.grounding import NaiveGroundingStrategy
    from unified_planning.shortcuts import OneshotPlanner, get_environment

    domain, problem = parse_domain_file(CORPUS / "domain.pddl"), parse_problem_file(CORPUS / "problem.pddl")
    get_environment().credits_stream = None
    with OneshotPlanner(name="fast-downward-opt") as planner:
        plan = planner.solve(to_up(domain, problem)).plan
    assert [a.action.name for a in plan.actions] == ["load", "drive", "load", "drive", "unload", "unload"]
    grounding = NaiveGroundingStrategy(to_tarski(domain, problem))
    assert "on(parcel,school)" in {str(v) for v in grounding.ground_state_variables().objects}


def test_the_core_and_the_cli_do_not_import_the_frameworks() -> None:
    script = (
        "import sys, pddltools, pddltools.cli, pddltools.interop, pddltools.interop.tarski, "
        "pddltools.interop.unified_planning\n"
        "assert pddltools.cli.main(['parse', 'corpus/interop/domain.pddl']) == 0\n"
        "assert pddltools.cli.main(['check', 'corpus/interop/domain.pddl', 'corpus/interop/problem.pddl']) in (0, 1)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('tarski', 'unified_planning'))\n"
        "assert not loaded, loaded\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0, run.stderr


def test_every_refused_part_is_reported_at_once() -> None:
    pair = task(PICK + DURATIVE, requirements=":durative-actions :preferences :timed-initial-literals",
                goal="(preference p (held a))", init="(at 5 (clear b))")
    with pytest.raises(InteropError) as caught:
        to_tarski(*pair)
    found = [(d.message.split(" cannot")[0], d.span.line if d.span else None) for d in caught.value.diagnostics]
    assert found == [("the durative action move", 5), ("a timed initial literal", 3), ("a preference", 4)]
