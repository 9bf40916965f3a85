"""Property tests: random small ADL tasks keep their reachable goal states through compilation to
`strips`, and every plan of the compiled task maps back to a valid plan of the original."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pddltools.compile.errors import CompileError
from pddltools.compile.pipeline import compile_task, removals
from pddltools.compile.planmap import PlanMap, format_plan, unmap
from pddltools.compile.task import ParsedTask
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from tests.compile.search import first_plan, goal_states, plan_text

TYPES = {"t1": ("a", "b"), "t2": ("c",)}
PREDICATES = {"p": 1, "q": 1, "r": 2, "s": 0}


@st.composite
def formulas(draw: st.DrawFn, scope: tuple[str, ...], depth: int = 2) -> str:
    def atom() -> str:
        name = draw(st.sampled_from(sorted(PREDICATES)))
        args = [draw(st.sampled_from(scope)) for _ in range(PREDICATES[name])] if scope else []
        if PREDICATES[name] and not scope:
            name, args = "s", []
        return f"({' '.join([name, *args])})"

    kinds = ["atom", "not"] + (["and", "or", "imply", "exists", "forall"] if depth > 0 else [])
    if len(scope) >= 2:
        kinds.append("eq")
    kind = draw(st.sampled_from(kinds))
    if kind == "atom":
        return atom()
    if kind == "not":
        return f"(not {atom() if depth == 0 else draw(formulas(scope, depth - 1))})"
    if kind == "eq":
        x, y = draw(st.sampled_from(scope)), draw(st.sampled_from(scope))
        return f"(= {x} {y})"
    if kind in ("and", "or", "imply"):
        left, right = draw(formulas(scope, depth - 1)), draw(formulas(scope, depth - 1))
        return f"({kind} {left} {right})"
    variable = f"?z{depth}"
    type_ = draw(st.sampled_from(sorted(TYPES)))
    return f"({kind} ({variable} - {type_}) {draw(formulas((*scope, variable), depth - 1))})"


@st.composite
def literals(draw: st.DrawFn, scope: tuple[str, ...]) -> str:
    name = draw(st.sampled_from(sorted(PREDICATES)))
    args = [draw(st.sampled_from(scope)) for _ in range(PREDICATES[name])]
    atom = f"({' '.join([name, *args])})"
    return f"(not {atom})" if draw(st.booleans()) else atom


@st.composite
def effects(draw: st.DrawFn, scope: tuple[str, ...], depth: int = 1) -> str:
    kind = draw(st.sampled_from(["literal", "literal", "when", "forall"] if depth > 0 else ["literal"]))
    if kind == "literal":
        return draw(literals(scope))
    if kind == "when":
        return f"(when {draw(formulas(scope, 1))} {draw(effects(scope, depth - 1))})"
    variable = f"?e{depth}"
    type_ = draw(st.sampled_from(sorted(TYPES)))
    return f"(forall ({variable} - {type_}) {draw(effects((*scope, variable), depth - 1))})"


@st.composite
def tasks(draw: st.DrawFn) -> tuple[str, str]:
    actions = []
    for n in range(draw(st.integers(1, 3))):
        parameters = [f"?x{i}" for i in range(draw(st.integers(0, 2)))]
        typed = " ".join(f"{p} - {draw(st.sampled_from(sorted(TYPES)))}" for p in parameters)
        scope = tuple(parameters)
        precondition = draw(formulas(scope, 2)) if scope else "(and)"
        parts = [draw(effects(scope, 1)) for _ in range(draw(st.integers(1, 3)))] if scope else [
            draw(st.sampled_from(["(s)", "(not (s))"]))]
        actions.append(f"(:action act{n} :parameters ({typed}) :precondition {precondition} "
                       f":effect (and {' '.join(parts)}))")
    domain = ("(define (domain random) (:requirements :adl) (:types t1 t2) "
              "(:predicates (p ?x - object) (q ?x - object) (r ?x ?y - object) (s)) " + " ".join(actions) + ")")
    ground = [f"(p {o})" for o in "abc"] + [f"(q {o})" for o in "abc"] + ["(s)"] + [
        f"(r {x} {y})" for x in "abc" for y in "abc"]
    init = draw(st.lists(st.sampled_from(ground), max_size=6, unique=True))
    goal = draw(formulas((), 2).filter(lambda g: "(s)" in g or "?" in g))
    goal = goal.replace("?z", "?g")
    problem = (f"(define (problem random-1) (:domain random) (:objects a b - t1 c - t2) "
               f"(:init {' '.join(init)}) (:goal {goal}))")
    return domain, problem


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(tasks())
def test_strips_compilation_keeps_goal_states(texts: tuple[str, str]) -> None:
    domain, problem = parse_domain(texts[0]), parse_problem(texts[1])
    original = ParsedTask(domain, problem)
    try:
        result = compile_task(original, removals("strips"), strict=True, method="direct")
    except CompileError as exc:  # only the size guard may refuse a task of this size
        assert all(d.code == "E803" for d in exc.diagnostics)
        return
    before, after = GroundedTask(domain, problem), GroundedTask(result.task.domain, result.task.problem)
    names = list(PREDICATES)
    expected = goal_states(before, 2, names)
    got = goal_states(after, 3, names)  # one more step: a goal-achieving action
    assert expected <= got
    assert got <= goal_states(before, 3, names)
    plan = first_plan(after, 3)
    if plan is not None:
        steps = unmap(PlanMap(result.origins, {}), plan_text(plan))
        assert validate_plan(before, format_plan(steps)).valid


@pytest.mark.parametrize("method", ["polynomial", "auto"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(texts=tasks())
def test_sequenced_plans_map_back(method: str, texts: tuple[str, str]) -> None:
    domain, problem = parse_domain(texts[0]), parse_problem(texts[1])
    try:
        result = compile_task(ParsedTask(domain, problem), removals("strips"), strict=True, method=method)  # type: ignore[arg-type]
    except CompileError:
        return
    plan = first_plan(GroundedTask(result.task.domain, result.task.problem), 8)
    if plan is not None:
        steps = unmap(PlanMap(result.origins, {}), plan_text(plan))
        assert validate_plan(GroundedTask(domain, problem), format_plan(steps)).valid


@st.composite
def recursive_tasks(draw: st.DrawFn) -> tuple[str, str]:
    """A random task with a recursive derived predicate `d` (a closure over `r`-like random relations)
    that an extra action and the goal read, each positively or negatively."""
    domain, problem = draw(tasks())
    base, step = draw(formulas(("?x",), 1)), draw(formulas(("?x", "?y"), 1))
    rule = f"(:derived (d ?x - object) (or {base} (exists (?y - object) (and (d ?y) {step}))))"
    use = draw(st.sampled_from(["(d ?u)", "(not (d ?u))"]))
    effect = draw(st.sampled_from(["(s)", "(not (s))", "(q ?u)", "(not (p ?u))"]))
    action = f"(:action use :parameters (?u - object) :precondition {use} :effect {effect})"
    domain = domain.replace("(:requirements :adl)", "(:requirements :adl :derived-predicates)")
    domain = domain.replace("(s)) ", "(s) (d ?x - object)) ", 1)[:-1] + f" {rule} {action})"
    wanted = draw(st.sampled_from(["", "(d a)", "(not (d c))"]))
    goal = problem[problem.index("(:goal ") + 7:-2]
    problem = problem.replace(f"(:goal {goal})", f"(:goal (and {goal} {wanted}))")
    return domain, problem


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(recursive_tasks())
def test_recursive_derived_predicates_keep_goal_states(texts: tuple[str, str]) -> None:
    """One real step of the original may need, in the compiled task, up to five auxiliary steps to
    compute `d` (three atoms: at most four `derive` and a `derived-fixpoint`) before it and five more
    before the goal."""
    domain, problem = parse_domain(texts[0]), parse_problem(texts[1])
    original = ParsedTask(domain, problem)
    result = compile_task(original, removals(None, ["derived-predicates"]))
    before, after = GroundedTask(domain, problem), GroundedTask(result.task.domain, result.task.problem)
    names = [n for n in PREDICATES if n != "d"]
    assert goal_states(before, 1, names) <= goal_states(after, 11, names)
    plan = first_plan(after, 11)
    if plan is not None:
        steps = unmap(PlanMap(result.origins, {}), plan_text(plan))
        assert validate_plan(before, format_plan(steps)).valid
