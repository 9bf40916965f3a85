"""Document symbols (PDDL and RDDL) and formatting (the printer, refused where it would lose something)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from pddltools.pddl.parser import parse_text
from pddltools.rddl.parser import parse_text as parse_rddl

from .conftest import CORPUS, close_document, doc_id, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def symbols_of(client: LanguageClient, path: Path, text: str | None = None) -> list[lsp.DocumentSymbol]:
    await open_document(client, path, text)
    result = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc_id(path)))
    close_document(client, path)
    assert result is not None
    return [s for s in result if isinstance(s, lsp.DocumentSymbol)]


def children(symbol: lsp.DocumentSymbol, kind: lsp.SymbolKind) -> list[str]:
    return [c.name for c in symbol.children or () if c.kind == kind]


async def test_domain_symbols(client: LanguageClient) -> None:
    (domain,) = await symbols_of(client, CORPUS / "logistics-domain.pddl")
    assert domain.name == "logistics" and domain.kind == lsp.SymbolKind.Module
    assert children(domain, lsp.SymbolKind.Method) == ["load-truck", "unload-truck", "drive-truck", "fly-airplane"]
    assert children(domain, lsp.SymbolKind.Function) == ["in-city", "at", "in"]
    assert {"truck", "vehicle", "place", "object"} <= set(children(domain, lsp.SymbolKind.Class))
    assert children(domain, lsp.SymbolKind.Constant) == ["depot"]
    action = next(c for c in domain.children or () if c.name == "fly-airplane")
    assert action.range.start.line == 22 and action.range.end.line == 25
    # details read on one line, one space between words (an action's is not its two-line hover squeezed)
    assert action.detail == ":action (?plane - airplane ?from - airport ?to - airport)"
    details = {c.name: c.detail for c in domain.children or ()}
    assert details["at"] == "(at ?obj - physobj ?loc - place)" and details["depot"] == "depot - location"
    assert all(d is not None and "\n" not in d and "  " not in d for d in details.values())
    assert action.selection_range.start == lsp.Position(line=22, character=11)


async def test_symbols_of_a_domain_with_a_broken_action(client: LanguageClient) -> None:
    (domain,) = await symbols_of(client, CORPUS / "broken" / "broken-actions-domain.pddl")
    assert children(domain, lsp.SymbolKind.Method) == ["load-truck", "drive-truck", "fly-airplane"]


async def test_problem_symbols(client: LanguageClient) -> None:
    (problem,) = await symbols_of(client, CORPUS / "logistics-problem.pddl")
    assert problem.name == "logistics-2" and problem.detail == "problem for logistics"
    assert children(problem, lsp.SymbolKind.Constant)[:3] == ["truck1", "plane1", "pkg1"]


async def test_rddl_symbols(client: LanguageClient) -> None:
    (domain,) = await symbols_of(client, CORPUS / "lights.rddl")
    assert domain.name == "lights"
    assert children(domain, lsp.SymbolKind.Field) == ["COST", "on", "toggle"]
    assert children(domain, lsp.SymbolKind.Function) == ["on'"]  # the CPF
    assert children(domain, lsp.SymbolKind.Class) == ["room"]
    blocks = await symbols_of(client, CORPUS / "lights-instance.rddl")
    assert [(b.name, b.detail) for b in blocks] == [("lights_nf", "non-fluents"), ("lights_inst", "instance")]


async def test_no_symbols_for_text_that_is_not_pddl(client: LanguageClient, tmp_path: Path) -> None:
    assert await symbols_of(client, tmp_path / "x.pddl", "(define (") == []


async def format_document(client: LanguageClient, path: Path, text: str) -> list[lsp.TextEdit] | None:
    await open_document(client, path, text)
    client.messages.clear()
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc_id(path), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    close_document(client, path)
    return edits


async def test_formatting_prints_the_ast(client: LanguageClient, tmp_path: Path) -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8").replace("\n    ", " ")
    edits = await format_document(client, tmp_path / "d.pddl", text)
    assert edits is not None and len(edits) == 1
    assert edits[0].range.start == lsp.Position(line=0, character=0)
    assert edits[0].new_text == str(parse_text(text))
    assert parse_text(edits[0].new_text) == parse_text(text)
    again = await format_document(client, tmp_path / "d.pddl", edits[0].new_text)
    assert again is not None and len(again) == 0  # already formatted: no edit, but not refused


async def test_formatting_keeps_comments_and_is_refused_for_syntax_errors(client: LanguageClient,
                                                                          tmp_path: Path) -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    edits = await format_document(client, tmp_path / "d.pddl", "; my notes\n\n" + text.replace(
        "(:requirements", "; the flags\n  (:requirements"))
    assert edits is not None and len(edits) == 1
    new = edits[0].new_text
    assert new.startswith("; my notes\n\n(define") and "  ; the flags\n  (:requirements" in new
    assert parse_text(edits[0].new_text) == parse_text(text)
    assert await format_document(client, tmp_path / "d.pddl", text.replace("(at ?plane ?to)))", "(at")) is None
    assert any("syntax error" in m.message for m in client.messages)


async def test_range_formatting_changes_only_the_lines_asked_for(client: LanguageClient, tmp_path: Path) -> None:
    text = ("(define (domain d)\n  (:predicates\n    (p) ; one\n    (q))\n"
            " (:action a :parameters () :precondition (p) :effect     (q))\n"
            "  ; the formatted layout of this line is itself: it parts the changes\n"
            " (:action b :parameters () :precondition    (q) :effect (p)))\n")
    path = tmp_path / "r.pddl"
    await open_document(client, path, text)
    edits = await client.text_document_range_formatting_async(lsp.DocumentRangeFormattingParams(
        text_document=doc_id(path), range=lsp.Range(start=lsp.Position(line=4, character=0),
                                                    end=lsp.Position(line=4, character=5)),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    close_document(client, path)
    assert edits
    assert all(e.range.start.line >= 4 and e.range.end.line <= 5 for e in edits)
    lines = text.splitlines(keepends=True)
    start, end = edits[0].range.start.line, edits[-1].range.end.line
    result = "".join(lines[:start]) + "".join(e.new_text for e in edits) + "".join(lines[end:])
    assert " (:action b :parameters () :precondition    (q)" in result  # outside the range: as it was
    assert "  (:action a\n    :parameters ()\n    :precondition (p)\n    :effect (q))\n" in result
    assert parse_text(result) == parse_text(text)


async def test_rddl_formatting(client: LanguageClient, tmp_path: Path) -> None:
    text = (CORPUS / "lights.rddl").read_text(encoding="utf-8")
    edits = await format_document(client, tmp_path / "l.rddl", text)
    assert edits is not None and len(edits) == 1 and parse_rddl(edits[0].new_text) == parse_rddl(text)
    commented = await format_document(client, tmp_path / "l.rddl", "// note\n" + text)
    assert commented is not None and commented[0].new_text.startswith("// note\ndomain lights {")
