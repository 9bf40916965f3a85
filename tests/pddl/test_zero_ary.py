"""0-ary functions without parentheses (PDDL 3.1; the PDDL+ car and planetary-lander domains are written
so): `(= d 0)` in :init parses, every parser path alike, and a bare name in an expression is the 0-ary
function the domain declares (an object otherwise), for the checker and the validator alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pddltools.check import check
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.pddl.zero_ary import resolve_task, resolve_zero_ary
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from tests.pddl.test_speedups import assert_paths_agree, needs_speedups
from tests.validate.conftest import OWN, manifest

CAR = OWN / "pddl+" / "car"
FLUENTS = ("d", "v", "a", "max_acc", "min_acc", "fuel")


def bare(text: str) -> str:
    """The car's files with every 0-ary fluent written without parentheses, but in :functions."""
    declarations = re.search(r"\(:functions[^\n]*\)", text)
    head, tail = (text[:declarations.end()], text[declarations.end():]) if declarations else ("", text)
    return head + re.sub(r"\((" + "|".join(FLUENTS) + r")\)", r"\1", tail)


def test_the_init_form_parses() -> None:
    problem = parse_problem("(define (problem p) (:domain d) (:init (= d 0) (= max-speed 2.5) (at 3 (= d 1)))"
                            " (:goal (and)))", "p.pddl")
    first, second, timed = problem.init
    assert isinstance(first, ast.InitAssignment) and first.fluent == ast.FunctionTerm("d")
    assert first.fluent.span is not None and (first.fluent.span.line, first.fluent.span.column) == (1, 43)
    assert second.fluent == ast.FunctionTerm("max-speed") and str(first) == "(= (d) 0)"
    assert isinstance(timed, ast.TimedInitial)
    assert timed.body == ast.InitAssignment(ast.FunctionTerm("d"), ast.Number(1))


@needs_speedups
def test_every_parser_path_reads_it_alike() -> None:
    assert_paths_agree("(define (problem p) (:domain d) (:init (p a) (= d 0) (= (f a) 1) (= e\n2) (q b))"
                       " (:goal (> d 1)) (:metric minimize d))")
    assert_paths_agree(bare((CAR / "domain.pddl").read_text()), "car.pddl")


def test_bare_names_resolve_to_the_declared_function_else_to_an_object() -> None:
    domain = parse_domain("""(define (domain d) (:requirements :fluents :equality)
      (:constants depot) (:predicates (at ?x)) (:functions (fuel) (load ?x))
      (:action go :parameters (?x) :precondition (and (= ?x depot) (> fuel (load ?x)) (at depot))
        :effect (and (decrease fuel (+ 1 fuel)) (at ?x))))""")
    problem = parse_problem("(define (problem p) (:domain d) (:init (= fuel 3)) (:goal (< fuel 2))"
                            " (:metric minimize (+ fuel total-time)))")
    domain, problem = resolve_task(domain, problem)
    [go] = domain.actions
    assert str(go.precondition) == "(and (= ?x depot) (> (fuel) (load ?x)) (at depot))"
    assert str(go.effect) == "(and (decrease (fuel) (+ 1 (fuel))) (at ?x))"
    assert str(problem.goal) == "(< (fuel) 2)" and str(problem.metric) == "(:metric minimize (+ (fuel) (total-time)))"
    fuel = go.precondition.parts[1].left  # type: ignore[attr-defined]
    assert fuel.span is not None and fuel.span.text == "fuel"  # still where it is written
    same = parse_domain("(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (p)"
                        " :effect (p)))")
    assert resolve_task(same, problem)[0] is same  # nothing to resolve: the very tree


def test_a_formula_nested_thousands_deep_is_resolved_without_recursion() -> None:
    # deeper than the parser accepts (E105), as a pass may build: the resolution must not recurse
    formula: ast.Formula = ast.Comparison(">", ast.Constant("x"), ast.Number(0))
    for _ in range(5000):
        formula = ast.Not(formula)
    node = resolve_zero_ary(formula, frozenset({"x"}))
    while isinstance(node, ast.Not):
        node = node.body
    assert node == ast.Comparison(">", ast.FunctionTerm("x"), ast.Number(0))


def test_the_car_written_bare_is_checked_clean_and_judged_as_written_with_parentheses(tmp_path: Path) -> None:
    domain, problem = bare((CAR / "domain.pddl").read_text()), bare((CAR / "problem.pddl").read_text())
    assert "(= d 0)" in problem and "(< a max_acc)" in domain and "(* #t v)" in domain
    parsed_domain, parsed_problem = parse_domain(domain, "car.pddl"), parse_problem(problem, "car1.pddl")
    report = check(parsed_domain, [parsed_problem])
    assert [f for f in report.findings if f.severity.value != "info"] == []
    bare_task = GroundedTask(parsed_domain, parsed_problem)
    written = GroundedTask.load(CAR / "domain.pddl", CAR / "problem.pddl")
    rows = [r for r in manifest(OWN / "pddl+" / "manifest.tsv") if r["id"].startswith("car/")]
    assert len(rows) >= 5
    for row in rows:
        plan = OWN / "pddl+" / row["plan"]
        assert validate_plan(bare_task, plan) == validate_plan(written, plan), row["id"]
    assert validate_plan(bare_task, CAR / "valid.plan").value == 12  # VAL: Final value: 12


LANDER = """(define (domain lander)
  (:requirements :time :fluents)
  (:predicates (day) (charging) (landed))
  (:functions (soc) (capacity) (rate) (clock))
  (:process charge :parameters () :precondition (and (day) (< soc capacity))
    :effect (and (increase soc (* #t rate))))
  (:process time-passing :parameters () :precondition (and)
    :effect (increase clock (* #t 1)))
  (:event sunset :parameters () :precondition (and (day) (>= clock 10)) :effect (not (day)))
  (:action land :parameters () :precondition (and (>= soc 5) (not (landed))) :effect (and (landed) (decrease soc 5))))
"""
LANDER_PROBLEM = """(define (problem one) (:domain lander)
  (:init (day) (= soc 1) (= capacity 20) (= rate 1/2) (= clock 0))
  (:goal (and (landed) (>= soc 0)))
  (:metric minimize total-time))
"""


@pytest.mark.parametrize(("plan", "valid"), [("8: (land)\n", True), ("7.5: (land)\n", False)])
def test_a_lander_written_bare_is_validated(plan: str, valid: bool) -> None:
    task = GroundedTask(parse_domain(LANDER, "lander.pddl"), parse_problem(LANDER_PROBLEM.replace("1/2", "0.5")))
    report = validate_plan(task, plan)
    assert report.valid is valid  # soc = 1 + t/2 reaches 5 at time 8
    if valid:
        assert report.value == 8
    else:
        assert report.reason == "precondition" and "(>= (soc) 5)" in report.unsatisfied[0]
