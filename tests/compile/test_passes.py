"""Each pass alone, on a small domain written for it (corpus/compile): the feature goes, the output
checks clean and declares exactly what it uses, and the compiled task reaches the same goal states."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from pddltools.check import Feature, check, detect
from pddltools.compile.errors import CompileError
from pddltools.compile.pipeline import Result, compile_task, removals, requirements_of
from pddltools.compile.planmap import PlanMap, format_plan, unmap
from pddltools.compile.task import ParsedTask
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain, parse_domain_file, parse_problem, parse_problem_file
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from tests.compile.search import first_plan, goal_states, plan_text, predicates_of, reachable

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "compile"


def load(name: str) -> ParsedTask:
    return ParsedTask(parse_domain_file(CORPUS / f"{name}-domain.pddl"),
                      parse_problem_file(CORPUS / f"{name}-problem.pddl"))


def semantics(task: ParsedTask) -> GroundedTask:
    return GroundedTask(task.domain, task.problem)


def assert_equivalent(original: ParsedTask, result: Result, depth: int, slack: int = 0) -> None:
    """Same goal states (on the original predicates) within `depth` steps; `slack` extra steps for the
    compiled task's auxiliary actions (a goal-achieving action)."""
    before, after = semantics(original), semantics(result.task)
    names = [p for p in predicates_of(original.domain) if p not in {d.name for d in original.domain.derived_predicates}]
    expected = goal_states(before, depth, names)
    got = goal_states(after, depth + slack, names)
    assert expected, "the test task should reach its goal within the depth"
    assert expected <= got
    assert got <= goal_states(before, depth + slack, names)


def assert_plans_map_back(original: ParsedTask, result: Result, depth: int) -> None:
    plan = first_plan(semantics(result.task), depth)
    assert plan is not None
    plan_map = PlanMap(result.origins, {})
    report = validate_plan(semantics(original), format_plan(unmap(plan_map, plan_text(plan))))
    assert report.valid


def assert_clean(result: Result, removed: Feature) -> None:
    task = result.task
    assert removed not in detect(task.domain, [task.problem])
    assert check(task.domain, [task.problem]).errors == []
    assert tuple(r.name for r in task.domain.requirements) == requirements_of(task)


CASES = [
    ("negation", Feature.NEGATIVE_PRECONDITIONS, 3, 0),
    ("disjunction", Feature.DISJUNCTIVE_PRECONDITIONS, 3, 1),
    ("quantifiers", Feature.EXISTENTIAL_PRECONDITIONS, 4, 0),
    ("quantifiers", Feature.UNIVERSAL_PRECONDITIONS, 4, 0),
    ("quantifiers", Feature.UNIVERSAL_EFFECTS, 4, 0),
    ("conditional", Feature.CONDITIONAL_EFFECTS, 3, 0),
    ("equality", Feature.EQUALITY, 4, 0),
    ("derived", Feature.DERIVED_PREDICATES, 2, 0),
    ("typing", Feature.TYPING, 4, 0),
    ("costs", Feature.ACTION_COSTS, 2, 0),
    ("objects", Feature.OBJECT_FLUENTS, 4, 0),
]


@pytest.mark.parametrize(("name", "feature", "depth", "slack"), CASES, ids=[f"{c[0]}-{c[1].value}" for c in CASES])
def test_pass_alone(name: str, feature: Feature, depth: int, slack: int) -> None:
    original = load(name)
    assert feature in detect(original.domain, [original.problem])
    result = compile_task(original, removals(None, [feature.value]), method="direct")
    assert_clean(result, feature)
    assert_equivalent(original, result, depth, slack)
    assert_plans_map_back(original, result, depth + slack)


def test_polynomial_conditional_effects() -> None:
    original = load("conditional")
    result = compile_task(original, removals(None, ["conditional-effects"]))
    notes = [note for p in result.passes for note in p.notes]
    assert any("sweep" in n and "polynomial" in n for n in notes)
    assert any("toggle" in n and "direct" in n for n in notes)
    assert_clean(result, Feature.CONDITIONAL_EFFECTS)
    # sweep takes 1 start + 7 evaluations + 3 delete + 1 apply + 4 add steps: 16 steps.
    assert_plans_map_back(original, result, 20)


def test_negation_keeps_complements_consistent() -> None:
    """move ?from ?to with ?from = ?to deletes and adds (at ?to): the add wins, so not-at must stay false."""
    original = load("negation")
    result = compile_task(original, removals(None, ["negative-preconditions"]))
    moves = [a for a in result.task.domain.actions if result.origins[a.name].action == "move"]
    assert len(moves) == 2
    unified = [a for a in moves if len(a.parameters) == 1]
    assert unified and ast.Atom("not-at", (ast.Variable("?from"),)) not in unified[0].effect.parts  # type: ignore[union-attr]


def test_equality_unifies_parameters() -> None:
    result = compile_task(load("equality"), removals(None, ["equality"]))
    look = next(a for a in result.task.domain.actions if a.name == "look")
    assert [p.name for p in look.parameters] == ["?x"]
    assert result.origins["look"].args == (0, 0)
    assert result.origins["rest"].args == ("home",)


def test_recursive_derived_predicate_is_computed_by_actions() -> None:
    original = load("recursive")
    result = compile_task(original, removals(None, ["derived-predicates"]))
    assert_clean(result, Feature.DERIVED_PREDICATES)
    assert not result.problem_specific
    names = {a.name for a in result.task.domain.actions}
    assert names == {"link", "derive", "derived-fixpoint"}
    assert result.origins["derive"].action is None and result.origins["link"].action == "link"
    link = next(a for a in result.task.domain.actions if a.name == "link")
    assert "(derived-fixed)" in str(link.precondition)  # it reads `path`: only once all of it is known
    assert "(not (path" in str(link.effect)  # it adds an edge: `path` must be computed again
    assert "derived-fixed" not in str(result.task.problem.goal)  # the goal reads no derived predicate
    # path(a c) takes two `derive` steps, a third that adds nothing, and a `derived-fixpoint`
    assert_equivalent(original, result, depth=1, slack=4)
    assert_plans_map_back(original, result, depth=5)


def test_stratified_components_are_computed_in_order() -> None:
    original = load("strata")
    result = compile_task(original, removals(None, ["derived-predicates"]))
    assert_clean(result, Feature.DERIVED_PREDICATES)
    actions = {a.name: a for a in result.task.domain.actions}
    assert set(actions) == {"link", "mark", "derive", "derived-fixpoint", "derive-safe"}
    # `path` is read negatively (by `link` and by `safe`): computed to its fixpoint, which they wait for
    assert "(derived-fixed)" in str(actions["link"].precondition)
    assert "(derived-fixed)" in str(actions["derive-safe"].precondition)
    # `safe` is read only positively: `mark` takes what has been derived so far
    assert str(actions["mark"].precondition) == "(safe ?x)"
    assert result.origins["derive-safe"].action is None
    # before `link a c`: path in 3 steps; before `mark c`: path again (3), then safe a and safe c
    assert_equivalent(original, result, depth=2, slack=8)


@pytest.mark.parametrize(("name", "target", "expected"), [
    ("recursive", "strips", ["link a c"]),
    ("strata", "typed-strips", ["link a c", "mark c"]),
])
def test_recursive_derived_predicates_solved_by_pyperplan(tmp_path: Path, name: str, target: str,
                                                          expected: list[str]) -> None:
    original = load(name)
    result = compile_task(original, removals(target), strict=True)
    assert check(result.task.domain, [result.task.problem]).errors == []
    (tmp_path / "domain.pddl").write_text(str(result.task.domain))
    (tmp_path / "problem.pddl").write_text(str(result.task.problem))
    subprocess.run([sys.executable, "-m", "pyperplan", "-H", "hff", "-s", "gbf", "domain.pddl", "problem.pddl"],
                   cwd=tmp_path, capture_output=True, timeout=120, check=True)
    steps = unmap(PlanMap(result.origins, {}), (tmp_path / "problem.pddl.soln").read_text())
    assert [" ".join([action, *args]) for action, args in steps] == expected
    assert validate_plan(semantics(original), format_plan(steps)).valid


def test_recursive_derived_predicates_are_cleared_by_what_they_read_only() -> None:
    # `reach` reads `road` and the fluent `fuel`: `refuel` changes what it was computed from, `honk` does not
    domain = parse_domain("""(define (domain trips) (:requirements :strips :derived-predicates :numeric-fluents
        :existential-preconditions :disjunctive-preconditions)
      (:predicates (road ?x ?y) (start ?x) (reach ?x) (honked)) (:functions (fuel))
      (:derived (reach ?x) (or (start ?x) (exists (?y) (and (reach ?y) (road ?y ?x) (>= (fuel) 1)))))
      (:action refuel :parameters () :precondition (and) :effect (increase (fuel) 1))
      (:action honk :parameters () :precondition (and) :effect (honked))
      (:action visit :parameters (?x) :precondition (reach ?x) :effect (honked)))""")
    problem = parse_problem("""(define (problem p) (:domain trips) (:objects a b)
      (:init (start a) (road a b) (= (fuel) 0)) (:goal (honked)))""")
    result = compile_task(ParsedTask(domain, problem), removals(None, ["derived-predicates"]))
    actions = {a.name: a for a in result.task.domain.actions}
    assert "(not (reach" in str(actions["refuel"].effect) and "derived-fixed" not in str(actions["refuel"].precondition)
    assert "reach" not in str(actions["honk"].effect) and "derived" not in str(actions["honk"].precondition)
    # `visit` reads `reach` positively: it needs the atom derived, not the whole fixpoint
    assert str(actions["visit"].precondition) == "(reach ?x)" and "reach" not in str(actions["visit"].effect)
    assert set(actions) == {"refuel", "honk", "visit", "derive-reach"}


def test_unstratified_derived_predicate_is_refused() -> None:
    with pytest.raises(CompileError) as caught:
        compile_task(load("unstratified"), removals("strips"), strict=True)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.code == "E802"
    assert "q is not stratified" in diagnostic.message
    assert diagnostic.span is not None and diagnostic.span.line == 6


def test_costs_are_kept_for_the_back_map() -> None:
    result = compile_task(load("costs"), removals(None, ["action-costs"]))
    assert result.costs == {"drive": "(length ?x ?y)", "fly": "100"}
    assert result.task.problem.metric is None
    assert result.task.domain.functions == ()


@pytest.mark.parametrize("target", ["strips", "typed-strips"])
@pytest.mark.parametrize("name", ["negation", "disjunction", "quantifiers", "conditional", "equality", "derived",
                                  "typing", "costs", "objects"])
def test_targets(name: str, target: str) -> None:
    original = load(name)
    result = compile_task(original, removals(target), strict=True)
    used = detect(result.task.domain, [result.task.problem]).features
    assert used <= ({Feature.TYPING} if target == "typed-strips" else set())
    assert check(result.task.domain, [result.task.problem]).errors == []
    assert_plans_map_back(original, result, 24)


def test_soft_goals_become_costs() -> None:
    """Keyder & Geffner: the cheapest plan of the compiled task is a best plan of the net-benefit task."""
    original = load("soft")
    result = compile_task(original, removals(None, ["preferences"]))
    assert_clean(result, Feature.PREFERENCES)
    assert Feature.GOAL_UTILITIES not in detect(result.task.domain, [result.task.problem])
    compiled = semantics(result.task)
    goals = [(state.values, plan) for state, plan in reachable(compiled, 6) if compiled.goal_holds(state)]
    cost, plan = min(((sum(int(v) for v in values.values()), plan) for values, plan in goals), key=lambda g: g[0])
    assert cost == 5  # to c (2 + 2) and forgo d (1); the penalty 5 for c makes stopping at b worse
    steps = unmap(PlanMap(result.origins, {}), plan_text(plan))
    assert [name for name, _ in steps] == ["go", "go"]
    report = validate_plan(semantics(original), format_plan(steps))
    assert report.valid and report.value == 5  # maximize 10 - (4 + 0 * 5 + 1 * 1)


def test_expansion_over_constants_stays_domain_level() -> None:
    domain = parse_domain("""(define (domain lamps) (:requirements :adl) (:types lamp room)
      (:constants l1 l2 - lamp) (:predicates (on ?l - lamp) (dark ?r - room))
      (:action all-on :parameters (?r - room) :precondition (forall (?l - lamp) (on ?l)) :effect (not (dark ?r)))
      (:action switch :parameters (?l - lamp) :precondition (and) :effect (on ?l)))""")
    problem = parse_problem("""(define (problem p) (:domain lamps) (:objects kitchen - room)
      (:init (dark kitchen)) (:goal (not (dark kitchen))))""")
    result = compile_task(ParsedTask(domain, problem), removals(None, ["universal-preconditions"]))
    assert not result.problem_specific
    all_on = next(a for a in result.task.domain.actions if a.name == "all-on")
    assert str(all_on.precondition) == "(and (on l1) (on l2))"
    widened = replace(problem, objects=(*problem.objects, ast.TypedName("l3", ast.TypeName("lamp"))))
    assert compile_task(ParsedTask(domain, widened), removals(None, ["universal-preconditions"])).problem_specific


def test_problem_expansion_decides_static_facts_case_by_case() -> None:
    # A deadlock goal in the style of optical telegraph: only the transitions that leave the current
    # state (static `trans`) matter. Expanded without the static facts, every state and transition
    # would stay; with them, each state keeps only the transitions that leave it for the process's kind
    # (a state with none, s2 or s3, is a deadlock by itself).
    domain = parse_domain("""(define (domain deadlock) (:requirements :adl) (:types proc kind state tr)
      (:predicates (kind-of ?p - proc ?k - kind) (at ?p - proc ?s - state) (trans ?k - kind ?t - tr ?s ?s2 - state)
                   (blocked-on ?p - proc ?t - tr))
      (:action step :parameters (?p - proc ?k - kind ?t - tr ?s ?s2 - state)
        :precondition (and (kind-of ?p ?k) (at ?p ?s) (trans ?k ?t ?s ?s2) (not (blocked-on ?p ?t)))
        :effect (and (not (at ?p ?s)) (at ?p ?s2)))
      (:action block :parameters (?p - proc ?t - tr) :precondition (and) :effect (blocked-on ?p ?t)))""")
    problem = parse_problem("""(define (problem p) (:domain deadlock)
      (:objects a - proc k1 k2 - kind s0 s1 s2 s3 - state t0 t1 t2 t3 - tr)
      (:init (kind-of a k1) (at a s0) (trans k1 t0 s0 s1) (trans k1 t1 s0 s2) (trans k2 t2 s0 s3)
             (trans k1 t3 s1 s0))
      (:goal (exists (?s - state) (exists (?k - kind)
               (and (at a ?s) (kind-of a ?k)
                    (forall (?t - tr) (or (forall (?s2 - state) (not (trans ?k ?t ?s ?s2))) (blocked-on a ?t))))))))""")
    original = ParsedTask(domain, problem)
    result = compile_task(original, removals(None, ["existential-preconditions", "universal-preconditions"]))
    assert result.problem_specific
    assert " ".join(str(result.task.problem.goal).split()) == (
        "(or (and (at a s0) (blocked-on a t0) (blocked-on a t1)) (and (at a s1) (blocked-on a t3)) "
        "(at a s2) (at a s3))")
    assert_equivalent(original, result, depth=3)


def test_durative_actions_are_refused() -> None:
    domain = parse_domain("""(define (domain d) (:requirements :durative-actions :negative-preconditions)
      (:predicates (p)) (:durative-action a :parameters () :duration (= ?duration 1)
        :condition (at start (not (p))) :effect (at end (p))))""")
    problem = parse_problem("(define (problem q) (:domain d) (:init) (:goal (p)))")
    with pytest.raises(CompileError) as caught:
        compile_task(ParsedTask(domain, problem), removals(None, ["negative-preconditions"]))
    assert caught.value.diagnostics[0].code == "E801"
