"""Quick fixes (code actions) for the common findings, asked for and applied over stdio."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from pddltools.pddl.parser import parse_text

from .conftest import close_document, doc_id, open_document
from .test_rename import apply

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOMAIN = """(define (domain towers)
  (:requirements :strips :conditional-effects)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block) (unused))
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and (clear ?x) (clearr ?y))
    :effect (and (on ?x ?y) (holding ?y ?x) (not (clear ?y)))))
"""

PROBLEM = """(define (problem p) (:domain towerz)
  (:objects b1 b2 - block)
  (:init (on b1 b2) (on b2 b9))
  (:goal (clear b1)))
"""


async def fixes(client: LanguageClient, path: Path, diagnostics: Sequence[lsp.Diagnostic]
                ) -> dict[str, lsp.CodeAction]:
    actions = await client.text_document_code_action_async(lsp.CodeActionParams(
        text_document=doc_id(path), range=lsp.Range(start=lsp.Position(line=0, character=0),
                                                    end=lsp.Position(line=0, character=0)),
        context=lsp.CodeActionContext(diagnostics=list(diagnostics))))
    assert actions is not None
    return {a.title: a for a in actions if isinstance(a, lsp.CodeAction)}


def applied(action: lsp.CodeAction, uri: str, text: str) -> str:
    assert action.edit is not None and action.edit.changes is not None
    return apply(text, list(action.edit.changes[uri]))


async def test_quick_fixes_for_a_domain(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "domain.pddl"
    path.write_text(DOMAIN)
    uri = path.resolve().as_uri()
    diagnostics = await open_document(client, path)
    found = await fixes(client, path, diagnostics)
    close_document(client, path)
    assert applied(found["Change to clear"], uri, DOMAIN).count("(clear ?y)") == 2
    declared = applied(found["Declare predicate (holding ?y - block ?x - block)"], uri, DOMAIN)
    assert "(unused)\n    (holding ?y - block ?x - block))" in declared
    assert parse_text(declared).predicates[-1].name == "holding"
    typing = applied(found["Add :typing to :requirements"], uri, DOMAIN)
    assert "(:requirements :strips :conditional-effects :typing)" in typing
    unused = applied(found["Remove the unused predicate"], uri, DOMAIN)
    assert "(clear ?x - block))" in unused and "unused" not in unused
    flag = applied(found["Remove the unused requirement"], uri, DOMAIN)
    assert "(:requirements :strips)" in flag


async def test_quick_fixes_for_a_problem(client: LanguageClient, tmp_path: Path) -> None:
    domain, problem = tmp_path / "domain.pddl", tmp_path / "p.pddl"
    domain.write_text(DOMAIN.replace("(clearr ?y)", "(clear ?y)").replace("(holding ?y ?x) ", ""))
    problem.write_text(PROBLEM)
    await open_document(client, domain)
    diagnostics = await open_document(client, problem)
    found = await fixes(client, problem, diagnostics)
    close_document(client, problem)
    close_document(client, domain)
    uri = problem.resolve().as_uri()
    assert "(:domain towers)" in applied(found["Change the domain name to towers"], uri, PROBLEM)
    declared = applied(found["Declare object b9 - block"], uri, PROBLEM)
    assert "(:objects b1 b2 - block\n    b9 - block)" in declared
    assert [o.name for o in parse_text(declared).objects] == ["b1", "b2", "b9"]
