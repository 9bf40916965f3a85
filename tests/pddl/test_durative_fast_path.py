"""The fast path for runs of durative actions (DURATIVE_ACTIONS, `pddl/fastpath_durative.py`): it takes
the shapes it is meant to take (the scanner itself returns the action), declines the others (the
grammar reads them), and either way every way of parsing gives the same tree, spans, warnings and
diagnostics as the grammar alone."""

from __future__ import annotations

from typing import Any

import pytest

from pddltools.diagnostics import Source
from pddltools.pddl import ast
from pddltools.pddl.fastpath import build_scanners
from pddltools.pddl.parser import _parser, _terminals

from .test_speedups import assert_paths_agree, fingerprint

HEAD = ("(define (domain d) (:requirements :durative-actions :fluents :typing)\n"
        " (:types t) (:predicates (p ?x) (q ?x ?y) (r)) (:functions (f ?x) (g) (h ?x ?y))\n")

#: Durative actions the scanner reads whole.
TAKEN = [
    "(:durative-action a :parameters (?x - t ?y) :duration (= ?duration 2)\n"
    " :condition (and (at start (p ?x)) (over all (not (q ?x ?y))) (at end (r)))\n"
    " :effect (and (at start (not (p ?x))) (at end (q ?x ?y))))",
    "(:durative-action a :parameters () :duration (= ?duration 1.000000) :condition (at start (r))"
    " :effect (at end (r)))",
    "(:durative-action a :duration (= ?duration (f a)) :condition () :effect ())",
    "(:durative-action a :parameters (?x) :duration (<= ?duration (* 2 (f ?x))) :condition (and) :effect (and))",
    "(:durative-action a :parameters (?x ?y) :duration (= ?duration (/ (h ?x ?y) (g)))\n"
    " :condition (and (at start (>= (f ?x) 3)) (over all (p ?x)) (at start (< (g) (f ?y))))\n"
    " :effect (and (at start (increase (g) 2)) (at end (decrease (f ?x) (h ?x ?y))) (at end (p ?y))))",
    "(:durative-action a :parameters (?x) :duration (= ?duration ?x) :condition (at start (> (f ?x) -1.5))"
    " :effect (at end (assign (f ?x) 0)))",
    "(:DURATIVE-ACTION A :PARAMETERS (?X - T) :DURATION (= ?DURATION 3) :CONDITION (AND (AT START (P ?X)))"
    " :EFFECT (AND (AT END (NOT (P ?X)))))",
    "(:durative-action a ; a comment\n :parameters (?x)\n :duration ; here too\n (= ?duration 1)\n"
    " :condition (and ; and here\n (at start (p ?x)) ; (not a literal)\n )\n :effect (and (at end (r))))",
    "(:durative-action a :duration (= ?duration 1) :effect (at end (r)))",
    "(:durative-action a :condition (at start (r)))",
    "(:durative-action a)",
    "(:durative-action a :duration (=?duration 1) :condition (at start (=(f a) 1)) :effect ())",
]

#: Durative actions the scanner declines: valid PDDL of other shapes, and text the grammar rejects.
DECLINED = [
    "(:durative-action a :duration (= ?duration (- (g) 1)) :condition () :effect ())",
    "(:durative-action a :duration (= ?duration (* 2 (* 3 (g)))) :condition () :effect ())",
    "(:durative-action a :duration (and (>= ?duration 1) (<= ?duration 2)) :condition () :effect ())",
    "(:durative-action a :duration (= ?duration 1) :condition (at start (and (r) (p a))) :effect ())",
    "(:durative-action a :parameters (?x) :duration (= ?duration 1) :condition ()"
    " :effect (and (forall (?y) (at end (q ?x ?y)))))",
    "(:durative-action a :duration (= ?duration 1) :condition () :effect (and (at end (when (r) (p a)))))",
    "(:durative-action a :duration (= ?duration 1) :condition () :effect (and (increase (g) 1)))",
    "(:durative-action a :parameters (?x - (either t u)) :duration (= ?duration 1))",
    "(:durative-action a :duration (= ?duration 1e999999) :condition () :effect ())",
    "(:durative-action a :duration (= ?duration 1) :condition () :effect (over all (r)))",
    "(:durative-action a :duration (= ?duration 1) :condition (and (at start (r)) (at 5 (r))) :effect ())",
    "(:durative-action a :duration (= ?duration 1) :condition () :effect () :extra ())",
    "(:durative-action and :duration (= ?duration 1))",
    "(:durative-action a :parameters (?x ; a comment\n ?y) :duration (= ?duration 1))",
    "(:durative-action a :parameters (?x\x0b?y) :duration (= ?duration 1))",
    "(:durative-action a :parameters (?x - ?y) :duration (= ?duration 1))",
    "(:durative-action a :duration (= ?duration 1) :condition (at start (r))",
]


def scanner() -> Any:
    return build_scanners(_terminals(_parser(True).lark), compiled=True)[5]


@pytest.mark.parametrize("action", TAKEN)
def test_the_scanner_takes_simple_durative_actions(action: str) -> None:
    found = scanner()(action, 0, Source(action))
    assert found is not None, action
    nodes, end = found
    assert end == len(action) and len(nodes) == 1 and isinstance(nodes[0], ast.DurativeAction)


@pytest.mark.parametrize("action", DECLINED)
def test_the_scanner_declines_other_durative_actions(action: str) -> None:
    assert scanner()(action, 0, Source(action)) is None


@pytest.mark.parametrize("action", TAKEN + DECLINED)
def test_durative_actions_parse_alike_every_way(action: str) -> None:
    assert_paths_agree(HEAD + action + ")")


def test_a_run_mixes_taken_and_declined_actions_in_order() -> None:
    """The scanner stops at an action it declines; the grammar reads that one, and the next run starts
    after it. The domain keeps the actions (and plain actions between them) in the order written."""
    actions = [TAKEN[0], TAKEN[1], DECLINED[0], TAKEN[4], "(:action b :effect (r))", TAKEN[2], DECLINED[3]]
    text = HEAD + "\n".join(actions) + ")"
    outcome = assert_paths_agree(text)
    assert outcome[0] == "tree"
    assert [type(s).__name__ for s in outcome[1].structures] == [
        "DurativeAction", "DurativeAction", "DurativeAction", "DurativeAction", "Action", "DurativeAction",
        "DurativeAction"]
    found = scanner()(text, text.index("(:durative-action"), Source(text))
    assert found is not None and len(found[0]) == 2 and text[found[1]:].lstrip().startswith(DECLINED[0][:30])


def test_the_nodes_point_at_their_text() -> None:
    action = TAKEN[4]
    source = Source(action)
    found = scanner()(action, 0, source)
    assert found is not None
    node = found[0][0]
    assert fingerprint(node, source)  # every span is on `source`
    for inner in node.walk():
        assert inner.span is not None and inner.span.source is source
        text = inner.span.text
        assert text.count("(") == text.count(")"), (type(inner).__name__, text)
    duration = node.duration
    assert isinstance(duration, ast.Comparison) and duration.span is not None
    assert duration.span.text == "(= ?duration (/ (h ?x ?y) (g)))"
    assert isinstance(duration.right, ast.Arithmetic) and duration.right.op == "/"


def test_the_language_server_reparses_one_durative_action() -> None:
    """The language server parses the sections of an open document and, on an edit, only the changed
    one; a run of durative actions read by the fast path is split back into its actions there."""
    from pddltools.lsp.incremental import SectionCache
    from pddltools.pddl.parser import parse

    def places(node: ast.Node) -> list[tuple[str, int, int]]:
        return [(type(n).__name__, n.span.start, n.span.end) for n in node.walk() if n.span is not None]

    text = HEAD + "\n".join(TAKEN[:5]).replace("(:durative-action a ", "(:durative-action a{} ").format(
        *range(5)) + ")"
    cache = SectionCache()
    for version in (text, text.replace("(at end (r))", "(at end  (r))", 1)):
        parsed = cache.parse(Source(version, "doc.pddl"))
        full = parse(Source(version, "doc.pddl"))
        assert parsed.syntax == () and parsed.node == full and places(parsed.node) == places(full)
        assert [s.name for s in full.structures] == ["a0", "a1", "a2", "a3", "a4"]
    assert cache.reused == 8  # the four declaration sections and four of the five actions
