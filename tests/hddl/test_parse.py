"""The HDDL parser: the hierarchy's nodes, PDDL's nodes for the rest, located syntax errors, and the
round trip through the printer on every IPC-2020 file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.diagnostics import Source
from pddltools.hddl import ast
from pddltools.hddl.parser import ParseError, parse, parse_file
from pddltools.hddl.printer import to_hddl
from pddltools.pddl import ast as pddl
from tests.hddl.corpus_files import hddl_files

DOMAIN = """(define (domain Deliver)
  (:requirements :typing :hierarchy :method-preconditions)
  (:types package place)
  (:predicates (at ?p - package ?l - place))
  (:task Deliver :parameters (?p - package ?l - place))
  (:tasks (noop-task))
  (:method m-deliver
    :parameters (?p - package ?from ?to - place)
    :task (deliver ?p ?to)
    :precondition (at ?p ?from)
    :subtasks (and (t1 (move ?p ?from ?to)) (noop-task))
    :order (and (< t1 t2) (> t3 t1))
    :constraints (and (not (= ?from ?to)) (sortof ?to - place)))
  (:action move
    :parameters (?p - package ?from ?to - place)
    :precondition (at ?p ?from)
    :effect (and (not (at ?p ?from)) (at ?p ?to))))
"""

PROBLEM = """(define (problem p1) (:domain deliver)
  (:objects a - package x y - place)
  (:htn :parameters (?l - place) :ordered-subtasks (and (task0 (deliver a ?l)) (task1 (deliver a y))))
  (:init (at a x))
  (:goal (at a y)))
"""


def test_a_domain_holds_the_pddl_domain_and_the_hierarchy() -> None:
    d = parse(Source(DOMAIN, "d.hddl"), "domain")
    assert isinstance(d.domain, pddl.Domain) and d.name == "deliver"  # names are lower-cased, as in PDDL
    assert [a.name for a in d.actions] == ["move"] and isinstance(d.actions[0], pddl.Action)
    assert [(t.name, len(t.parameters)) for t in d.tasks] == [("deliver", 2), ("noop-task", 0)]
    (m,) = d.methods
    assert m.task == ast.TaskHead("deliver", (pddl.Variable("?p"), pddl.Variable("?to")))
    assert m.precondition == pddl.Atom("at", (pddl.Variable("?p"), pddl.Variable("?from")))
    assert m.network.subtasks == (ast.Subtask("t1", "move", tuple(pddl.Variable(v) for v in ("?p", "?from", "?to"))),
                                  ast.Subtask(None, "noop-task"))
    assert not m.network.ordered
    assert m.network.ordering == (ast.Ordering("t1", "t2"), ast.Ordering("t1", "t3"))  # (> t3 t1) is t1 first
    assert isinstance(m.network.constraints, pddl.And)
    assert m.network.constraints.parts[1] == ast.SortOf(pddl.Variable("?to"), pddl.TypeName("place"))


def test_a_problem_holds_the_pddl_problem_and_the_initial_network() -> None:
    p = parse(Source(PROBLEM, "p.hddl"), "problem")
    assert p.problem.goal is not None and p.problem.domain == "deliver"
    assert p.htn is not None and p.htn.network.ordered
    assert [t.name for t in p.htn.parameters] == ["?l"]
    assert [(s.id, s.task) for s in p.htn.network.subtasks] == [("task0", "deliver"), ("task1", "deliver")]


def test_hddl_requirement_flags_are_known() -> None:
    warnings: list = []
    parse(Source(DOMAIN, "d.hddl"), warnings=warnings)
    assert warnings == []


def test_nodes_carry_spans_for_editors() -> None:
    d = parse(Source(DOMAIN, "d.hddl"), "domain")
    subtask = d.methods[0].network.subtasks[0]
    assert subtask.span is not None and DOMAIN[subtask.span.start:subtask.span.end] == "(t1 (move ?p ?from ?to))"


def test_a_syntax_error_is_located() -> None:
    broken = DOMAIN.replace(":task (deliver ?p ?to)", ":task deliver")
    with pytest.raises(ParseError) as info:
        parse(Source(broken, "d.hddl"))
    (first, *_) = info.value.diagnostics
    assert first.span is not None and broken[first.span.start:].startswith("deliver")
    assert "'('" in first.message


def test_the_printer_writes_what_parses_back_equal() -> None:
    for text in (DOMAIN, PROBLEM):
        tree = parse(Source(text, "x.hddl"))
        printed = to_hddl(tree)
        assert parse(Source(printed, "printed.hddl")) == tree
        assert str(tree) == printed


@pytest.mark.parametrize("path", hddl_files(), ids=lambda p: "/".join(p.parts[-3:]))
def test_every_ipc_2020_file_round_trips(path: Path) -> None:
    tree = parse_file(path)
    printed = to_hddl(tree)
    again = parse(Source(printed, "printed.hddl"))
    assert again == tree
    assert to_hddl(again) == printed


def test_the_fast_path_and_the_grammar_alone_build_the_same_trees() -> None:
    from pddltools.syntax.testing import parser_variant

    sample = hddl_files()[::15] or []
    texts = [Source(DOMAIN, "d.hddl"), Source(PROBLEM, "p.hddl"), *(Source(p.read_text(encoding="utf-8"), str(p))
                                                                    for p in sample)]
    for source in texts:
        fast = parse(source)
        with parser_variant(fast=False):
            assert parse(source) == fast
        with parser_variant(via_lark=True, compiled=False):
            assert parse(source) == fast
