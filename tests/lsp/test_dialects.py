"""The PDDL dialects in the language server (in process): a FOND, PPDDL, contingent or MA-PDDL document is
read in its dialect (no PDDL errors at its constructs), checked, outlined and formatted."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.lsp.diagnostics import findings
from pddltools.lsp.formatting import formatted
from pddltools.lsp.outline import document_symbols
from pddltools.lsp.workspace import Document, Workspace

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def _doc(path: Path, text: str | None = None) -> Document:
    return Document(path.as_uri(), text if text is not None else path.read_text(), 1, "pddl")


@pytest.mark.parametrize("name", ["fond/domain.pddl", "ppddl/domain.pddl", "contingent/domain.pddl",
                                  "mapddl/domain.pddl", "mapddl/factored/domain-r1.pddl",
                                  "mapddl/factored-functions-domain.pddl"])
def test_a_dialect_domain_has_no_syntax_errors_and_an_outline(name: str) -> None:
    doc = _doc(CORPUS / name)
    found = findings(Workspace(), doc)
    assert [f.code for f in found if f.code.startswith("E")] == []
    symbols = document_symbols(Workspace(), doc)
    assert len(symbols) == 1 and symbols[0].children


def test_a_fond_domain_gets_its_w120_and_its_check() -> None:
    found = findings(Workspace(), _doc(CORPUS / "fond" / "undeclared.pddl"))
    assert [f.code for f in found] == ["W120"]
    names = findings(Workspace(), _doc(CORPUS / "fond" / "undeclared-predicate.pddl"))
    assert "E202" in [f.code for f in names]


def test_a_dialect_problem_is_checked_for_its_syntax() -> None:
    found = findings(Workspace(), _doc(CORPUS / "ppddl" / "problem.pddl"))
    assert [f.code for f in found] == ["L001"]


def test_formatting_prints_the_dialect() -> None:
    text = ("(define (domain d) (:requirements :non-deterministic) (:predicates (p) (q))\n"
            "(:action a :effect (oneof (p) (q))))")
    assert "(oneof (p) (q))" in formatted(_doc(CORPUS / "fond" / "x.pddl", text))
