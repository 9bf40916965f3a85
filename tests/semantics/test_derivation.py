"""Derived predicates over ground rules (`semantics/derivation.py`) against the lifted evaluation they
replace, in arbitrary states and along random plans whose states are updated step by step; and the
compiled formulas keeping the lifted evaluation's errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.pddl import ast
from pddltools.pddl.parser import parse_text
from pddltools.semantics import Evaluator, GroundedTask, State, UnboundVariable

# Recursion through an existential, negation one stratum up, a universal, an implication, equality of
# objects, a static predicate (`road`) that decides much at grounding time (also under a universal,
# a negation and with a variable twice in one atom) and a fluent comparison that stays lifted.
DOMAIN = """(define (domain net) (:requirements :adl :typing :derived-predicates :numeric-fluents)
  (:types site)
  (:constants hq - site)
  (:predicates (road ?a ?b - site) (open ?a ?b - site) (lit ?x - site)
               (reach ?a ?b - site) (cut ?x - site) (all-lit) (guarded ?x - site) (busy ?x - site)
               (dead-end ?x - site) (mutual ?x - site) (looped ?x - site))
  (:functions (load ?x - site))
  (:derived (reach ?a ?b - site)
    (or (and (road ?a ?b) (open ?a ?b))
        (exists (?m - site) (and (road ?a ?m) (open ?a ?m) (reach ?m ?b)))))
  (:derived (cut ?x - site) (and (not (= ?x hq)) (not (reach hq ?x))))
  (:derived (all-lit) (forall (?x - site) (imply (not (cut ?x)) (lit ?x))))
  (:derived (guarded ?x - site) (or (lit ?x) (exists (?y - site) (and (road ?y ?x) (lit ?y) (reach ?y ?x)))))
  (:derived (busy ?x - site) (and (lit ?x) (> (load ?x) 2)))
  (:derived (dead-end ?x - site) (forall (?y - site) (imply (road ?x ?y) (not (open ?x ?y)))))
  (:derived (looped ?x - site) (and (road ?x ?x) (not (exists (?y - site) (and (road ?x ?y) (not (lit ?y)))))))
  (:derived (mutual ?x - site) (exists (?y - site) (and (road ?x ?y) (road ?y ?x) (lit ?y))))
  (:action open-road :parameters (?a ?b - site) :precondition (road ?a ?b) :effect (open ?a ?b))
  (:action close-road :parameters (?a ?b - site) :precondition (open ?a ?b) :effect (not (open ?a ?b)))
  (:action light :parameters (?x - site) :precondition (not (lit ?x)) :effect (and (lit ?x) (increase (load ?x) 2)))
  (:action dim :parameters (?x - site) :precondition (lit ?x) :effect (and (not (lit ?x)) (decrease (load ?x) 1))))"""
SITES = ("hq", "s1", "s2", "s3", "s4")
ROADS = (("hq", "s1"), ("s1", "s2"), ("s2", "s3"), ("s3", "s1"), ("s2", "s4"), ("s4", "hq"), ("s3", "s3"), ("s1", "s3"))
PROBLEM = ("(define (problem p) (:domain net) (:objects s1 s2 s3 s4 - site) (:init "
           + " ".join(f"(road {a} {b})" for a, b in ROADS) + " (open hq s1) "
           + " ".join(f"(= (load {s}) 0)" for s in SITES) + ") (:goal (all-lit)))")


@pytest.fixture(scope="module")
def task() -> GroundedTask:
    return GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))


def lifted(task: GroundedTask) -> Evaluator:
    """An evaluator that was never told the initial state: it keeps the lifted evaluation."""
    return Evaluator(task.domain, task.grounder)


def test_the_rules_are_ground(task: GroundedTask) -> None:
    derived = task.evaluator.derived(task.initial_state())
    program = task.evaluator._ground_program()
    assert program is not None and len(program.layers) == 8
    assert derived == lifted(task).derived(task.initial_state())
    assert ("reach", "hq", "s1") in derived and ("cut", "s2") in derived and ("all-lit",) not in derived


open_atoms = st.sets(st.sampled_from(ROADS)).map(lambda roads: {("open", a, b) for a, b in roads})
lit_atoms = st.sets(st.sampled_from(SITES)).map(lambda sites: {("lit", s) for s in sites})
loads = st.fixed_dictionaries({("load", s): st.integers(0, 4) for s in SITES})


@settings(max_examples=80, deadline=None)
@given(open_atoms, lit_atoms, loads)
def test_ground_rules_agree_with_the_lifted_evaluation(
        task: GroundedTask, opened: set[tuple[str, ...]], lit: set[tuple[str, ...]], values: dict[tuple[str, ...], int]
) -> None:
    roads = {("road", a, b) for a, b in ROADS}
    state = State(frozenset(roads | opened | lit), values)
    assert task.evaluator.derived(state) == lifted(task).derived(state)


def test_a_state_with_other_static_atoms_is_evaluated_lifted(task: GroundedTask) -> None:
    """The ground rules assume the initial state's roads; a state with another road still gets the
    derived atoms that road implies."""
    state = State(frozenset({("road", "hq", "s3"), ("open", "hq", "s3")}))
    derived = task.evaluator.derived(state)
    assert ("reach", "hq", "s3") in derived
    assert derived == lifted(task).derived(state)


steps = st.lists(st.one_of(
    st.tuples(st.sampled_from(("open-road", "close-road")), st.sampled_from(ROADS)),
    st.tuples(st.sampled_from(("light", "dim")), st.sampled_from(SITES).map(lambda s: (s,)))), max_size=25)


@settings(max_examples=60, deadline=None)
@given(steps, st.booleans(), st.integers(1, 3))
def test_updated_step_by_step_as_computed_from_scratch(task: GroundedTask, plan: list[tuple[str, tuple[str, ...]]],
                                                       in_place: bool, every: int) -> None:
    """Along a random plan (inapplicable steps skipped), the derived atoms updated from each step's
    changes equal those computed afresh, whether states are kept (`apply`) or changed in place
    (`advance`), and whether every state is asked or only some (the changes of the steps between are
    then accumulated)."""
    task = GroundedTask(task.domain, task.problem)
    reference = lifted(task)
    state = task.initial_state().thaw() if in_place else task.initial_state()
    for index, (name, args) in enumerate(plan):
        if index % every == 0:
            assert task.evaluator.derived(state) == reference.derived(State(frozenset(state.atoms), dict(state.values)))
        action = task.ground(name, args)
        if task.applicable(action, state):
            state = task.advance(action, state) if in_place else task.apply(action, state)
    assert task.evaluator.derived(state) == reference.derived(State(frozenset(state.atoms), dict(state.values)))


def test_compiled_formulas_keep_the_lifted_errors(task: GroundedTask) -> None:
    ev = task.evaluator
    free = ast.And((ast.Atom("lit", (ast.Variable("?x"),)),))
    with pytest.raises(UnboundVariable):
        ev.holds(free, {}, task.initial_state())
    assert ev.holds(free, {"?x": "hq"}, State(frozenset({("lit", "hq")}))) is True
    assert ev.holds(ast.Not(free), {"?x": "s1"}, State(frozenset({("lit", "hq")}))) is True


def test_closing_a_road_takes_away_what_a_cycle_held_up(task: GroundedTask) -> None:
    """s1 reaches s4 only through s2; after (s2 s4) closes, s1, and s3 on the cycle s1-s2-s3, must not
    keep reaching s4 by leaning on each other."""
    task = GroundedTask(task.domain, task.problem)
    state = task.initial_state().thaw()
    for a, b in (("s1", "s2"), ("s2", "s3"), ("s3", "s1"), ("s2", "s4")):
        state = task.advance(task.ground("open-road", (a, b)), state)
    assert {("reach", "s1", "s4"), ("reach", "s3", "s4")} <= task.evaluator.derived(state)
    state = task.advance(task.ground("close-road", ("s2", "s4")), state)
    derived = task.evaluator.derived(state)
    assert ("reach", "s1", "s4") not in derived and ("reach", "s3", "s4") not in derived
    assert ("reach", "s3", "s2") in derived
    assert derived == lifted(task).derived(State(frozenset(state.atoms), dict(state.values)))
