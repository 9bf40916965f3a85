"""Feature detection reads what formulas do (with polarity), not what :requirements declare."""

from __future__ import annotations

import pytest

from pddltools.check import Feature, detect
from pddltools.pddl import parse_domain, parse_problem

F = Feature


def features(precondition: str = "(and)", effect: str = "(and)", extra: str = "", problem: str | None = None
             ) -> set[Feature]:
    domain = parse_domain(f"""(define (domain d) (:requirements :adl)
      (:predicates (p ?x) (q ?x) (r)) {extra}
      (:action a :parameters (?x ?y) :precondition {precondition} :effect {effect}))""")
    problems = [parse_problem(problem)] if problem else []
    return set(detect(domain, problems))


@pytest.mark.parametrize(("precondition", "expected"), [
    ("(p ?x)", set()),
    ("(not (p ?x))", {F.NEGATIVE_PRECONDITIONS}),
    ("(not (not (p ?x)))", set()),
    ("(or (p ?x) (q ?x))", {F.DISJUNCTIVE_PRECONDITIONS}),
    ("(not (and (p ?x) (q ?x)))", {F.DISJUNCTIVE_PRECONDITIONS, F.NEGATIVE_PRECONDITIONS}),
    ("(imply (p ?x) (q ?x))", {F.DISJUNCTIVE_PRECONDITIONS, F.NEGATIVE_PRECONDITIONS}),
    ("(exists (?z) (p ?z))", {F.EXISTENTIAL_PRECONDITIONS}),
    ("(not (forall (?z) (p ?z)))", {F.EXISTENTIAL_PRECONDITIONS, F.NEGATIVE_PRECONDITIONS}),
    ("(forall (?z) (p ?z))", {F.UNIVERSAL_PRECONDITIONS}),
    ("(not (= ?x ?y))", {F.EQUALITY}),
])
def test_preconditions_by_polarity(precondition: str, expected: set[Feature]) -> None:
    assert features(precondition) == expected


def test_effects_conditional_and_universal() -> None:
    assert features(effect="(when (p ?x) (q ?x))") == {F.CONDITIONAL_EFFECTS}
    assert features(effect="(forall (?z) (not (p ?z)))") == {F.UNIVERSAL_EFFECTS}
    assert features(effect="(not (p ?x))") == set()


def test_costs_from_static_functions_are_action_costs_and_other_numbers_are_numeric_fluents() -> None:
    extra = "(:functions (total-cost) (dist ?x ?y) (fuel))"
    assert features(effect="(increase (total-cost) (dist ?x ?y))", extra=extra) == {F.ACTION_COSTS}
    both = features(effect="(and (increase (total-cost) (fuel)) (decrease (fuel) 1))", extra=extra)
    assert both == {F.NUMERIC_FLUENTS}
    assert features("(> (fuel) 1)", extra=extra) == {F.NUMERIC_FLUENTS}


def test_object_fluents_in_terms_and_assignments() -> None:
    extra = "(:functions (holder ?x) - object)"
    assert features("(p (holder ?x))", extra=extra) == {F.OBJECT_FLUENTS}


def test_problem_features_first_use_is_located_in_the_problem() -> None:
    problem = """(define (problem p) (:domain d) (:objects o)
      (:init (at 5 (r))) (:goal (and (preference g (p o)) (not (q o))))
      (:metric minimize (is-violated g)))"""
    found = features(problem=problem)
    assert found == {F.TIMED_INITIAL_LITERALS, F.PREFERENCES, F.GOAL_UTILITIES, F.NEGATIVE_PRECONDITIONS}
    domain = parse_domain("(define (domain d) (:predicates (p ?x) (q ?x) (r)))")
    uses = detect(domain, [parse_problem(problem, "p.pddl")])
    span = uses.first_use(F.TIMED_INITIAL_LITERALS)
    assert span is not None and span.file == "p.pddl" and span.line == 2


def test_empty_constraints_are_not_trajectory_constraints() -> None:
    problem = "(define (problem p) (:domain d) (:init) (:goal (r)) (:constraints (and)))"
    assert F.TRAJECTORY_CONSTRAINTS not in features(problem=problem)
    problem = "(define (problem p) (:domain d) (:init) (:goal (r)) (:constraints (always (r))))"
    assert F.TRAJECTORY_CONSTRAINTS in features(problem=problem)
