"""The literal syntax is written once, in grammars/pddl.lark: the fast paths (the Python scanners and
the compiled one) read their keywords and parentheses from the grammar's rules, so a grammar with a
renamed keyword needs no other edit. A variant of pddl.lark with `not` renamed `non` and `:init`
renamed `:initial` (and the words of durative actions renamed too: `:lasting-action`, `:lasts`,
`:requires`, `=<`, `times`) is parsed with the fast paths, compiled and in Python, and gives the same trees
(and spans) as the variant grammar alone; so is a variant whose comments and white space differ (the
fast paths read them from the grammar's %ignore'd terminals)."""

from __future__ import annotations

from typing import Any

import pytest

from pddltools.diagnostics import Source
from pddltools.pddl import ast
from pddltools.pddl.fastpath import build_scanners
from pddltools.pddl.parser import _Parser, _terminals, grammar_text
from pddltools.syntax.frozen import speedups

VARIANT = (grammar_text().replace('"not"', '"non"').replace('":init"', '":initial"')
           .replace('":durative-action"', '":lasting-action"').replace('":duration"', '":lasts"')
           .replace('":condition"', '":requires"').replace('"<="', '"=<"').replace('"*"', '"times"'))

DOMAIN = """(define (domain d) (:requirements :strips :negative-preconditions)
  (:predicates (p ?x) (q ?x) (r))
  (:action a :parameters (?x) :precondition (and (p ?x) (NON (q ?x)) (r)) :effect (and (non (p ?x)) (q ?x)))
  (:action b :parameters (?x) :precondition (non (p ?x)) :effect (non (r)))
  (:lasting-action c :parameters (?x) :lasts (=< ?duration (times 2 (f ?x)))
   :requires (and (at start (p ?x)) (over all (non (q ?x)))) :effect (and (at end (non (p ?x))) (at end (r)))))"""

PROBLEM = """(define (problem i) (:domain d) (:objects a b c)
  (:INITIAL (p a) (non (q b)) ; a comment
     (= (f a) 3) (= (g b) c) (q c) (NON (p c)))
  (:goal (and (p a) (non (q a)))))"""


# White space and comments are the grammar's %ignored terminals: a variant whose comments start with
# `%` and whose white space takes `|` is parsed identically by the fast paths, which must not take
# `;` for a comment (here it is an unexpected character) nor miss a `%` comment inside a list.
IGNORED_VARIANT = (grammar_text().replace(r"COMMENT: /;[^\n]*/", r"COMMENT: /%[^\n]*/")
                   .replace(r"WHITESPACE: /[ \t\f\r\n]+/", r"WHITESPACE: /[ \t\f\r\n|]+/"))

COMMENTED_DOMAIN = """(define (domain d) (:requirements :strips :typing :negative-preconditions)
  (:types t) (:predicates (p ?x) (q ?x ?y) (r))
  (:action a :parameters (?x % a comment ) with a parenthesis
                          ?y - t) :precondition (and (p ?x) (q ?x % in an atom
   ?y)) :effect (and (not (p ?x))|(q ?x ?y)))
  (:action b :parameters (?x|?y) :precondition (not (p ?x)) :effect (not (r)))
  (:durative-action c :parameters (?x|?y - t) :duration % a comment
   (= ?duration|2) :condition (and (at start (p ?x))|(over all % (not a literal)
   (q ?x ?y))) :effect (at end (not (r)))))"""

COMMENTED_PROBLEM = """(define (problem i) (:domain d) (:objects a b c)
  (:init (p a) (not (q b % b
  c)) % a comment (q a)
     (= (f a % ) 3
     ) 3)|(q c)|(not (p c)))
  (:goal (and (p a) (not (q a)))))"""


def spans(tree: Any) -> list[tuple[str, int, int]]:
    return [(type(n).__name__, n.span.start, n.span.end) for n in tree.walk() if n.span is not None]


def test_the_variant_grammar_is_really_different() -> None:
    assert grammar_text() != VARIANT and '"non"' in VARIANT and '":initial"' in VARIANT
    words = _terminals(_Parser(False, grammar=VARIANT).lark).words
    assert words.negation == "non"


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
@pytest.mark.parametrize(("grammar", "text"), [
    (VARIANT, DOMAIN), (VARIANT, PROBLEM), (IGNORED_VARIANT, COMMENTED_DOMAIN), (IGNORED_VARIANT, COMMENTED_PROBLEM)],
                         ids=["keyword-domain", "keyword-problem", "ignored-domain", "ignored-problem"])
def test_fast_paths_follow_the_variant_grammar(compiled: bool, grammar: str, text: str) -> None:
    if compiled and speedups is None:
        pytest.skip("pddltools.syntax._speedups is not built")
    alone, _ = _Parser(False, grammar=grammar).parse(Source(text, "v.pddl"))
    fast, _ = _Parser(True, compiled, grammar=grammar).parse(Source(text, "v.pddl"))
    assert fast == alone
    assert spans(fast) == spans(alone)
    assert any(isinstance(n, ast.Not) for n in fast.walk())


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_the_scanners_take_the_renamed_words_themselves(compiled: bool) -> None:
    """Not only the same trees: the fast path itself took the renamed negation (and declines the old word)."""
    if compiled and speedups is None:
        pytest.skip("pddltools.syntax._speedups is not built")
    terminals = _terminals(_Parser(False, grammar=VARIANT).lark)
    literals, init, *_ = build_scanners(terminals, compiled=compiled)
    if compiled:
        assert isinstance(init, speedups.FlatScanner)
    text = "(non (p a)) (= (f a) 2) (q b)"
    found = init(text, 0, Source(text))
    assert found is not None
    nodes, end = found
    assert end == len(text)
    assert [type(n).__name__ for n in nodes] == ["Not", "InitAssignment", "Atom"]  # type: ignore[attr-defined]
    # with the grammar's word changed, `not` is an ordinary predicate name to the scanner
    old = "(not a)"
    taken = literals(old, 0, Source(old))
    assert taken is not None and taken[0][0] == ast.Atom("not", (ast.Constant("a"),))  # type: ignore[index]
    durative = build_scanners(terminals, compiled=compiled)[5]
    action = "(:lasting-action c :lasts (=< ?duration (times 2 (f))) :requires (at start (p)) :effect ())"
    found_action = durative(action, 0, Source(action))
    assert found_action is not None and found_action[1] == len(action)
    (node,) = found_action[0]  # type: ignore[misc]
    # the operators are the words as written, as the grammar path's builder takes them
    assert node.duration == ast.Comparison("=<", ast.Variable("?duration"),  # type: ignore[arg-type]
                                           ast.Arithmetic("times", (ast.Number(2), ast.FunctionTerm("f", ()))))  # type: ignore[arg-type]
    for old_word in ("(:durative-action c :lasts (= ?duration 1))", "(:lasting-action c :duration (= ?duration 1))"):
        assert durative(old_word, 0, Source(old_word)) is None


def test_the_ignored_variant_grammar_is_really_different() -> None:
    assert "%[^\\n]*" in IGNORED_VARIANT and "\\n|]+" in IGNORED_VARIANT
    with pytest.raises(Exception, match="';'"):
        _Parser(True, grammar=IGNORED_VARIANT).parse(Source("(define (domain d) ; no comment\n)", "v.pddl"))


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "python"])
def test_the_scanners_read_the_variant_comments_themselves(compiled: bool) -> None:
    """The fast path itself takes atoms with `%` comments and `|` between them (it does not decline)."""
    if compiled and speedups is None:
        pytest.skip("pddltools.syntax._speedups is not built")
    terminals = _terminals(_Parser(False, grammar=IGNORED_VARIANT).lark)
    literals, init, actions, *_ = build_scanners(terminals, compiled=compiled)
    text = "(p a % ) b\n c)|(not (q b))"
    found = literals(text, 0, Source(text))
    assert found is not None and found[1] == len(text)
    assert found[0] == (ast.Atom("p", (ast.Constant("a"), ast.Constant("c"))),  # type: ignore[index]
                        ast.Not(ast.Atom("q", (ast.Constant("b"),))))
    semicolon = "(p a;b)"
    assert literals(semicolon, 0, Source(semicolon)) is None  # `;` is no comment in this grammar
    element = "(= (f a % )\n) 3)|(p b)"
    taken_init = init(element, 0, Source(element))
    assert taken_init is not None and taken_init[1] == len(element)
    assert [type(n).__name__ for n in taken_init[0]] == ["InitAssignment", "Atom"]  # type: ignore[attr-defined]
    action = "(:action a :parameters (?x|?y) :effect (p ?x))"
    taken = actions(action, 0, Source(action))
    assert taken is not None and [p.name for p in taken[0][0].parameters] == ["?x", "?y"]  # type: ignore[index]
    durative = build_scanners(terminals, compiled=compiled)[5]
    lasting = "(:durative-action c :parameters (?x|?y) :duration % a comment\n (= ?duration|2) :effect (at end (p ?x)))"
    taken = durative(lasting, 0, Source(lasting))
    assert taken is not None and taken[1] == len(lasting)
    assert [p.name for p in taken[0][0].parameters] == ["?x", "?y"]  # type: ignore[index]
