"""While a problem is edited, its findings come in two rounds: all but relaxed reachability's right after
the pause in typing, then all of them once typing has settled (lsp/server.py: `SETTLE`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import change_document, close_document, diagnostics_of, open_document, version_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOMAIN = """(define (domain d)
  (:requirements :strips)
  (:predicates (p) (q))
  (:action a :parameters () :precondition (p) :effect (q)))
"""
PROBLEM = """(define (problem x) (:domain d)
  (:init)
  (:goal (q)))
"""


def codes(found: object) -> list[str]:
    return [str(d.code) for d in found]  # type: ignore[attr-defined]


async def test_a_change_gets_the_quick_findings_then_reachabilitys(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "domain.pddl").write_text(DOMAIN, encoding="utf-8")
    problem = tmp_path / "problem.pddl"
    problem.write_text(PROBLEM, encoding="utf-8")
    assert codes(await open_document(client, problem)) == ["L002", "W405"]  # opening: everything at once

    edited = PROBLEM.replace("(:init)", "(:init )")
    quick = await change_document(client, problem, edited)
    assert codes(quick) == ["L002"]  # the goal's reachability is not analysed while typing
    settled = await diagnostics_of(client, problem, version=version_of(problem))  # the same version's next
    assert codes(settled) == ["L002", "W405"]
    assert settled[1].severity == lsp.DiagnosticSeverity.Warning and settled[1].range.start.line == 2

    # typing on before the slow round: the last version's quick round, then its slow one
    await change_document(client, problem, PROBLEM)
    last = await change_document(client, problem, edited.replace("(:init )", "(:init  )"))
    assert codes(last) == ["L002"]
    assert codes(await diagnostics_of(client, problem, version=version_of(problem))) == ["L002", "W405"]
    close_document(client, problem)
