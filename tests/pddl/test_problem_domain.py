"""A problem's `(:domain NAME)` is located once, by the parser (`Problem.domain_span`), and every finding about
the problem's domain points there: nothing reads the problem's text again to find it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from pddltools.check.report import check_files, check_problem_alone
from pddltools.diagnostics import Source
from pddltools.lsp.incremental import SectionCache
from pddltools.pddl import ast
from pddltools.pddl.parser import parse
from pddltools.syntax.testing import parser_variant
from pddltools.tree import shift_spans

PROBLEM = """; a (:domain decoy) in a comment is not the domain
(define (problem p1)
  (:domain   Ferry) ; the name keeps its case in the text
  (:objects a b) (:init) (:goal (and)))
"""
DOMAIN = "(define (domain blocks) (:requirements :strips) (:predicates (p)))\n"


@pytest.mark.parametrize("variant", [{}, {"fast": False}, {"via_lark": True}, {"compiled": False}],
                         ids=["default", "grammar-only", "lark-loop", "python"])
def test_the_parser_keeps_where_the_domain_is_named(variant: dict[str, bool]) -> None:
    with parser_variant(**variant):
        problem = parse(Source(PROBLEM, "p1.pddl"), "problem")
    assert problem.domain == "ferry"
    assert problem.domain_span is not None and problem.domain_span.text == "Ferry"
    assert (problem.domain_span.line, problem.domain_span.column) == (3, 14)


def test_the_domain_span_is_a_position_not_a_part_of_the_problem() -> None:
    problem = parse(Source(PROBLEM, "p1.pddl"), "problem")
    moved = parse(Source("\n\n" + PROBLEM, "p1.pddl"), "problem")
    assert problem == moved and hash(problem) == hash(moved)  # positions take no part in equality
    assert dataclasses.replace(problem, name="p2").domain_span == problem.domain_span
    assert "domain_span" not in repr(problem)


def test_sections_assembled_one_by_one_keep_it_too() -> None:
    # the language server parses a file's sections separately, re-uses those an edit left alone, and
    # assembles them
    cache = SectionCache()
    cache.parse(Source(PROBLEM, "p1.pddl"))
    edited = Source("\n" + PROBLEM.replace("(:objects a b)", "(:objects a b c)"), "p1.pddl")
    problem = cache.parse(edited).node
    assert isinstance(problem, ast.Problem) and problem.domain_span is not None
    assert problem.domain_span.source is edited and problem.domain_span.text == "Ferry"
    assert cache.reused >= 1


def test_findings_about_the_domain_point_at_its_name(tmp_path: Path) -> None:
    (tmp_path / "domain.pddl").write_text(DOMAIN, encoding="utf-8")
    (tmp_path / "p1.pddl").write_text(PROBLEM, encoding="utf-8")
    report = check_files(tmp_path / "domain.pddl", [tmp_path / "p1.pddl"],
                         ambiguous={str(tmp_path / "p1.pddl"): "two files declare the domain"})
    placed = {f.code: (f.span.line, f.span.column) for f in report.findings if f.span is not None}
    assert placed["E301"] == (3, 14) and placed["W300"] == (3, 14)
    alone = check_problem_alone(tmp_path / "p1.pddl", "no domain `ferry` found")
    [missing] = [f for f in alone.findings if f.code == "E300"]
    assert missing.span is not None and missing.span.text == "Ferry"


def test_a_shifted_problem_moves_its_domain_name_with_it() -> None:
    # the language server moves re-used trees when text is inserted above them
    problem = parse(Source(PROBLEM, "p1.pddl"), "problem")
    longer = Source("\n\n" + PROBLEM, "p1.pddl")
    moved = shift_spans(problem, longer, 2)
    assert moved.domain_span is not None and moved.domain_span.source is longer
    assert moved.domain_span.text == "Ferry" and moved.domain_span.line == 5
