"""The printer writes valid, readable PDDL that parses back to an equal tree."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.pddl import ast
from pddltools.pddl.numbers import format_number
from pddltools.pddl.parser import parse_text
from pddltools.pddl.printer import WIDTH


def _domain_with(precondition: ast.Formula, effect: ast.Effect | None = None) -> ast.Domain:
    action = ast.Action("a", (ast.TypedName("?x", ast.TypeName("t")),), precondition, effect or ast.AndEffect())
    return ast.Domain("d", types=(ast.TypedName("t"),), structures=(action,))


def test_numbers_print_exactly() -> None:
    assert [format_number(v) for v in (3, Fraction(1, 2), Fraction(-5, 4), Fraction(1, 40), Fraction(7))] == [
        "3", "0.5", "-1.25", "0.025", "7"]
    assert format_number(Fraction(1, 3)) == "(/ 1 3)"


def test_typed_lists_group_consecutive_names_of_one_type() -> None:
    problem = ast.Problem("p", "d", objects=(
        ast.TypedName("a", ast.TypeName("t")), ast.TypedName("b", ast.TypeName("t")),
        ast.TypedName("c", ast.Either((ast.TypeName("t"), ast.TypeName("u")))), ast.TypedName("d")))
    text = str(problem)
    assert "    a b - t\n    c - (either t u)\n    d)" in text
    assert parse_text(text) == problem


def test_long_formulas_break_one_part_per_line() -> None:
    atoms = tuple(ast.Atom(f"predicate-with-a-long-name-{i}", (ast.Variable("?x"),)) for i in range(6))
    text = str(_domain_with(ast.And(atoms)))
    assert all(len(line) <= WIDTH for line in text.splitlines())
    assert "    :precondition (and\n      (predicate-with-a-long-name-0 ?x)\n" in text
    assert parse_text(text) == _domain_with(ast.And(atoms))


def test_short_formulas_stay_on_one_line() -> None:
    formula = ast.Or((ast.Atom("p", (ast.Variable("?x"),)), ast.Not(ast.Atom("q"))))
    assert str(formula) == "(or (p ?x) (not (q)))"


def test_declarations_keep_their_order() -> None:
    text = "(define (domain d) (:predicates (z) (a) (m)) (:action b) (:derived (a) (z)) (:action a))"
    domain = parse_text(text)
    assert isinstance(domain, ast.Domain)
    printed = str(domain)
    assert printed.index("(z)") < printed.index("(a)") < printed.index("(m)")
    assert printed.index(":action b") < printed.index(":derived") < printed.index(":action a")


names = st.sampled_from(["p", "q", "at", "start", "r-1"])
terms = st.one_of(st.sampled_from(["?x", "?y"]).map(ast.Variable), st.sampled_from(["a", "end"]).map(ast.Constant))
numbers = st.one_of(st.integers(-1000, 1000), st.fractions(min_value=-100, max_value=100, max_denominator=8).filter(
    lambda f: all(p in (2,) for p in _prime_factors(f.denominator)))).map(ast.Number)


def _prime_factors(n: int) -> list[int]:
    out, k = [], 2
    while n > 1:
        while n % k == 0:
            out.append(k)
            n //= k
        k += 1
    return out


expressions = st.recursive(
    st.one_of(numbers, st.builds(ast.FunctionTerm, names, st.tuples(terms))),
    lambda inner: st.one_of(st.builds(ast.Arithmetic, st.sampled_from(["+", "*", "-"]), st.tuples(inner, inner)),
                            st.builds(ast.Arithmetic, st.just("-"), st.tuples(inner))), max_leaves=6)
atoms = st.builds(ast.Atom, names, st.lists(terms, max_size=3).map(tuple))
formulas = st.recursive(
    st.one_of(atoms, st.builds(ast.Comparison, st.sampled_from(["<", "<=", "=", ">=", ">"]), expressions, expressions)),
    lambda inner: st.one_of(
        st.builds(ast.And, st.lists(inner, max_size=4).map(tuple)),
        st.builds(ast.Or, st.lists(inner, max_size=4).map(tuple)),
        st.builds(ast.Not, inner),
        st.builds(ast.Imply, inner, inner),
        st.builds(ast.Exists, st.just((ast.TypedName("?y", ast.TypeName("t")),)), inner),
    ), max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(formulas)
def test_any_formula_round_trips(formula: ast.Formula) -> None:
    domain = _domain_with(formula)
    assert parse_text(str(domain)) == domain


def test_every_node_type_prints() -> None:
    """str() works on every kind of node, not only on whole files."""
    kinds = {cls for cls in vars(ast).values()
             if isinstance(cls, type) and issubclass(cls, ast.Node) and not cls.__subclasses__()}  # no bases
    domain = parse_text("""(define (domain all)
      (:requirements :typing) (:types t u - object) (:constants c - (either t u))
      (:predicates (p ?x - t)) (:functions (f ?x - t) - number (g) - t)
      (:constraints (and (always (p c)) (sometime (p c)) (within 3 (p c)) (at-most-once (p c))
        (sometime-after (p c) (p c)) (sometime-before (p c) (p c)) (always-within 2 (p c) (p c))
        (hold-during 1 2 (p c)) (hold-after 4 (p c)) (preference q (at end (p c)))))
      (:action a :parameters (?x - t) :vars (?y - t)
        :precondition (and (or (p ?x) (not (p ?y))) (imply (p ?x) (p ?y)) (exists (?z - t) (p ?z))
                           (forall (?z - t) (p ?z)) (< (f ?x) (- (+ 1 2) (* 3 (/ 4 5)))) (preference (p ?x)))
        :effect (and (forall (?z - t) (when (p ?z) (not (p ?z)))) (assign (g) ?x) (increase (f ?x) 1.5)))
      (:durative-action b :parameters (?x - t) :duration (= ?duration 2)
        :condition (over all (p ?x)) :effect (at end (increase (f ?x) (* #t 2))))
      (:derived (p ?x - t) (p ?x))
      (:process r :parameters (?x - t) :precondition (p ?x) :effect (decrease (f ?x) (* #t -2)))
      (:event e :parameters (?x - t) :precondition (> (f ?x) -1.5) :effect (not (p ?x))))""")
    problem = parse_text("""(define (problem pr) (:domain all) (:objects o - t)
      (:init (p o) (= (f o) 2) (= (g) o) (at 5 (not (p o)))) (:goal (p o))
      (:metric minimize (+ (total-time) (is-violated q))) (:length (:serial 3) (:parallel 2)))""")
    seen = set()
    for root in (domain, problem):
        for node in root.walk():
            seen.add(type(node))
            assert str(node).strip(), type(node).__name__
    assert kinds - seen == set(), f"not exercised: {sorted(k.__name__ for k in kinds - seen)}"
