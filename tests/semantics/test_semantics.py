"""The grounded semantics alone: states, effects, derived predicates, quantifiers, PDDL3 operators,
metric and the interference of concurrent events, on small tasks written here."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.diagnostics import Error
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_text
from pddltools.semantics import (
    EffectConflict,
    Effects,
    Footprint,
    GroundedTask,
    State,
    UndefinedValue,
    apply,
    holds_over,
    interference,
    metric_value,
    resolve,
)
from pddltools.semantics.errors import ArithmeticFault

DOMAIN = """(define (domain d) (:requirements :adl :typing :numeric-fluents :derived-predicates)
  (:types node - object hub - node)
  (:constants c - hub)
  (:predicates (edge ?a ?b - node) (p ?x - node) (q ?x - node) (linked ?a ?b - node) (lonely ?x - node))
  (:functions (f ?x - node) (g))
  (:derived (linked ?a ?b - node) (or (edge ?a ?b) (exists (?m - node) (and (edge ?a ?m) (linked ?m ?b)))))
  (:derived (lonely ?x - node) (not (exists (?y - node) (linked ?y ?x))))
  (:action toggle :parameters (?x - node) :precondition (and)
    :effect (and (not (p ?x)) (p ?x) (when (q ?x) (not (q ?x))) (forall (?y - node) (when (edge ?x ?y) (q ?y)))
                 (increase (g) 1) (increase (g) 2) (assign (f ?x) (g)))))"""
PROBLEM = """(define (problem t) (:domain d) (:objects n1 n2 n3 - node h - hub)
  (:init (edge n1 n2) (edge n2 n3) (q n1) (= (g) 10) (= (f n1) 0))
  (:goal (and (p n1) (q n2))) (:metric minimize (+ (g) (* 2 (f n1)))))"""


@pytest.fixture(scope="module")
def task() -> GroundedTask:
    return GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))


def formula(text: str) -> ast.Formula:
    problem = parse_text(f"(define (problem x) (:domain d) (:goal {text}))", kind="problem")
    assert problem.goal is not None
    return problem.goal


def test_objects_by_type_include_constants(task: GroundedTask) -> None:
    assert task.grounder.objects_of(ast.TypeName("node")) == ("c", "n1", "n2", "n3", "h")
    assert task.grounder.objects_of(ast.TypeName("hub")) == ("c", "h")
    assert task.grounder.fits("h", ast.TypeName("node")) and not task.grounder.fits("n1", ast.TypeName("hub"))


def test_effects_are_simultaneous(task: GroundedTask) -> None:
    state = task.initial_state()
    after = task.apply(task.ground("toggle", ("n1",)), state)
    assert ("p", "n1") in after  # deleted and added: true
    assert ("q", "n1") not in after and ("q", "n2") in after  # the condition read before the step
    assert after.value(("g",)) == 13  # two increases combine
    assert after.value(("f", "n1")) == 10  # the assignment read (g) before the step
    assert state.value(("g",)) == 10  # apply leaves its input alone


def test_advance_changes_a_thawed_state_in_place(task: GroundedTask) -> None:
    thawed = task.initial_state().thaw()
    after = task.advance(task.ground("toggle", ("n1",)), thawed)
    assert after.atoms is thawed.atoms and ("p", "n1") in after
    assert ("p", "n1") not in task.initial_state()
    with pytest.raises(TypeError):
        task.initial_state().advance((), ())


def test_conflicting_and_undefined_updates() -> None:
    state = State(frozenset(), {("x",): 1})
    with pytest.raises(EffectConflict):
        resolve(state, Effects(updates={("x",): [("assign", 1), ("assign", 2)]}))
    with pytest.raises(EffectConflict):
        resolve(state, Effects(updates={("x",): [("assign", 1), ("increase", 2)]}))
    with pytest.raises(EffectConflict):
        resolve(state, Effects(updates={("x",): [("scale-up", 2), ("increase", 2)]}))
    with pytest.raises(UndefinedValue):
        resolve(state, Effects(updates={("y",): [("increase", 1)]}))
    with pytest.raises(ArithmeticFault):
        resolve(state, Effects(updates={("x",): [("scale-down", 0)]}))
    assert resolve(state, Effects(updates={("x",): [("assign", 5), ("assign", 5)]})) == {("x",): 5}
    assert resolve(state, Effects(updates={("x",): [("scale-up", 3), ("scale-down", 2)]})) == {("x",): Fraction(3, 2)}
    assert apply(state, Effects({("a",)}, {("a",)})).atoms == {("a",)}


def test_derived_predicates_fixpoint_and_strata(task: GroundedTask) -> None:
    ev, state = task.evaluator, task.initial_state()
    assert ev.holds(formula("(linked n1 n3)"), {}, state)
    assert not ev.holds(formula("(linked n3 n1)"), {}, state)
    assert ev.holds(formula("(lonely n1)"), {}, state) and not ev.holds(formula("(lonely n3)"), {}, state)


def test_negation_inside_a_cycle_is_an_error() -> None:
    domain = parse_text("""(define (domain bad) (:requirements :derived-predicates)
      (:predicates (a) (b)) (:derived (a) (not (b))) (:derived (b) (a)))""", kind="domain")
    problem = parse_text("(define (problem p) (:domain bad) (:goal (a)))", kind="problem")
    with pytest.raises(Error, match="negation"):
        GroundedTask(domain, problem)


def test_explain_gives_ground_literals(task: GroundedTask) -> None:
    ev, state = task.evaluator, task.initial_state()
    found = ev.explain(formula("(and (p n1) (not (q n1)) (forall (?x - hub) (p ?x)) (> (g) 20))"), {}, state)
    assert [u.text for u in found] == ["(p n1)", "(not (q n1))", "(p c)", "(p h)", "(> (g) 20)"]
    assert found[-1].note == "(g) = 10"
    assert ev.explain(formula("(q n1)"), {}, state) == []


def test_comparisons_equality_and_undefined(task: GroundedTask) -> None:
    ev, state = task.evaluator, task.initial_state()
    assert ev.holds(formula("(= (+ (g) 0.5) 10.5)"), {}, state)
    assert ev.holds(formula("(not (= n1 n2))"), {}, state) and ev.holds(formula("(= c c)"), {}, state)
    assert not ev.holds(formula("(> (f n2) 0)"), {}, state)  # (f n2) is undefined
    assert not ev.holds(formula("(< (f n2) 0)"), {}, state)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.sampled_from(["n1", "n2", "n3", "h", "c"]), st.sampled_from(["n1", "n2", "n3", "h", "c"]))))
def test_existentials_by_join_agree_with_every_binding(edges: set[tuple[str, str]]) -> None:
    """The join over the state's atoms finds exactly what trying every object finds."""
    task = GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))
    state = State(frozenset(("edge", a, b) for a, b in edges))
    ev = task.evaluator
    nodes = task.grounder.objects_of(ast.TypeName("node"))
    hubs = task.grounder.objects_of(ast.TypeName("hub"))
    for x in nodes:
        found = ev.holds(formula("(exists (?y - node ?z - hub) (and (edge ?x ?y) (edge ?y ?z) (not (= ?x ?z))))"),
                         {"?x": x}, state)
        brute = any((x, y) in edges and (y, z) in edges and x != z for y, z in product(nodes, hubs))
        assert found == brute


def test_metric_with_total_time_and_violations(task: GroundedTask) -> None:
    ev = task.evaluator
    state = task.initial_state()
    assert task.problem.metric is not None
    assert metric_value(ev, task.problem.metric, state, 0, {}) == 10
    metric = ast.Metric("minimize", ast.Arithmetic("+", (ast.FunctionTerm("total-time"), ast.IsViolated("p"))))
    assert metric_value(ev, metric, state, Fraction(5, 2), {"p": 3}) == Fraction(11, 2)


def _trajectory(*facts: str) -> list[tuple[int, State]]:
    return [(k, State(frozenset((f,) for f in step.split()))) for k, step in enumerate(facts)]


@pytest.mark.parametrize(("constraint", "expected"), [
    ("(always (a))", False), ("(sometime (b))", True), ("(within 0 (b))", False), ("(within 1 (b))", True),
    ("(at-most-once (a))", False), ("(at-most-once (b))", True), ("(sometime-after (a) (b))", False),
    ("(sometime-after (b) (c))", True), ("(sometime-before (b) (a))", True), ("(sometime-before (a) (b))", False),
    ("(always-within 1 (b) (c))", True), ("(always-within 0 (b) (c))", False), ("(hold-during 0 2 (a))", True),
    ("(hold-during 0 3 (a))", False), ("(hold-after 3 (a))", True), ("(hold-after 2 (a))", False),
])
def test_trajectory_operators(task: GroundedTask, constraint: str, expected: bool) -> None:
    # times 0..3: a | a b | b c | a
    trajectory = _trajectory("a", "a b", "b c", "a")
    domain = parse_text("(define (domain m) (:predicates (a) (b) (c)))", kind="domain")
    problem = parse_text(f"(define (problem m) (:domain m) (:constraints {constraint}))", kind="problem")
    other = GroundedTask(domain, problem)
    assert problem.constraints is not None
    assert holds_over(other.evaluator, problem.constraints, {}, trajectory) is expected


def test_interference_of_concurrent_events() -> None:
    reader = Footprint("r", read_atoms={("p",)})
    writer = Footprint("w", effects=Effects(deletes={("p",)}))
    adder = Footprint("a", effects=Effects(adds={("q",)}))
    deleter = Footprint("d", effects=Effects(deletes={("q",)}))
    inc1 = Footprint("i", effects=Effects(updates={("x",): [("increase", 1)]}))
    inc2 = Footprint("j", effects=Effects(updates={("x",): [("decrease", 2)]}))
    setter = Footprint("s", effects=Effects(updates={("x",): [("assign", 2)]}))
    assert interference(reader, writer) and interference(adder, deleter)
    assert interference(inc1, inc2) is None and interference(inc1, setter)
    assert interference(reader, adder) is None


def test_applicable_actions_agree_with_every_grounding() -> None:
    from pddltools.semantics import GroundedTask
    from tests.validate.conftest import OWN

    task = GroundedTask.load(OWN / "adl" / "domain.pddl", OWN / "adl" / "problem.pddl")
    states = task.run([("pick", ("k1", "hall")), ("unlock", ("lab",)), ("move", ("hall", "lab"))])
    for state in states:
        found = {str(a) for a in task.applicable_actions(state)}
        brute = set()
        for schema in task.schemas.values():
            for binding in task.grounder.bindings(schema.parameters):
                action = task.ground(schema.name, tuple(str(binding[p.name]) for p in schema.parameters))
                if task.applicable(action, state):
                    brute.add(str(action))
        assert found == brute and found
    assert ("at-robot", "lab") in states[-1]
    with pytest.raises(ValueError, match=r"step 1 .* not applicable: \(open lab\)"):
        task.run([("move", ("hall", "lab"))])


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.sampled_from(["n1", "n2", "n3", "h", "c"]), st.sampled_from(["n1", "n2", "n3", "h", "c"]))))
def test_recursive_derived_predicates_are_the_transitive_closure(edges: set[tuple[str, str]]) -> None:
    """The worklist fixpoint of (linked ?a ?b) equals the transitive closure computed directly, and
    (lonely ?x), one stratum up, its negation."""
    task = GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))
    state = State(frozenset(("edge", a, b) for a, b in edges))
    closure = set(edges)
    while True:
        more = {(a, d) for a, b in closure for c, d in closure if b == c} - closure
        if not more:
            break
        closure |= more
    derived = task.evaluator.derived(state)
    assert {(x[1], x[2]) for x in derived if x[0] == "linked"} == closure
    nodes = task.grounder.objects_of(ast.TypeName("node"))
    lonely = {n for n in nodes if all((m, n) not in closure for m in nodes)}
    assert {x[1] for x in derived if x[0] == "lonely"} == lonely
