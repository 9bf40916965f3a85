"""Folding ranges, semantic tokens, signature help and workspace symbols, over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import close_document, doc_id, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOMAIN = """; towers of blocks
; a second line of notes
(define (domain towers)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block))
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and (clear ?x) (clear ?y))
    :effect (and (on ?x ?y) (not (clear ?y)))))
"""

RDDL = """domain lamps {
    types { room : object; };
    pvariables {
        lit(room) : { state-fluent, bool, default = false };
        near(room, room) : { non-fluent, bool, default = false };
    };
    cpfs {
        lit'(?r) = exists_{?s : room} [near(?r, ?s) ^ lit(?s)];
    };
}
"""


async def test_folding_ranges(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "d.pddl"
    await open_document(client, path, DOMAIN)
    ranges = await client.text_document_folding_range_async(lsp.FoldingRangeParams(text_document=doc_id(path)))
    close_document(client, path)
    assert ranges is not None
    spans = {(r.start_line, r.end_line, r.kind) for r in ranges}
    assert (0, 1, lsp.FoldingRangeKind.Comment) in spans  # the two lines of notes
    assert (2, 9, None) in spans  # (define ...)
    assert (6, 9, None) in spans  # the action
    assert all(r.end_line > r.start_line for r in ranges)


async def test_semantic_tokens_classify_names_keywords_and_comments(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "d.pddl"
    await open_document(client, path, DOMAIN)
    result = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=doc_id(path)))
    close_document(client, path)
    assert result is not None
    legend = ["namespace", "type", "function", "property", "enumMember", "method", "parameter", "keyword",
              "comment", "number", "variable", "event"]
    lines = DOMAIN.splitlines()
    decoded = []
    line = column = 0
    data = result.data
    for i in range(0, len(data), 5):
        line += data[i]
        column = data[i + 1] if data[i] else column + data[i + 1]
        decoded.append((lines[line][column:column + data[i + 2]], legend[data[i + 3]], data[i + 4]))
    assert ("; towers of blocks", "comment", 0) in decoded
    assert ("towers", "namespace", 1) in decoded
    assert (":action", "keyword", 0) in decoded and ("and", "keyword", 0) in decoded
    assert ("on", "function", 1) in decoded and ("on", "function", 0) in decoded
    assert ("stack", "method", 1) in decoded and ("block", "type", 1) in decoded
    assert ("?x", "parameter", 1) in decoded and ("?y", "parameter", 0) in decoded


async def test_signature_help_inside_an_atom(client: LanguageClient, tmp_path: Path) -> None:
    text = DOMAIN.replace("(not (clear ?y))", "(not (clear ?y)) (on ?y ")
    path = tmp_path / "d.pddl"
    await open_document(client, path, text)
    at = position_of(text, "(on ?y ", 7)
    help_ = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        text_document=doc_id(path), position=at))
    first = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        text_document=doc_id(path), position=position_of(text, "(on ?y ", 6)))
    close_document(client, path)
    assert help_ is not None and help_.signatures[0].label == "(on ?x - block ?y - block)"
    assert help_.active_parameter == 1
    parameter = help_.signatures[0].parameters[1].label  # type: ignore[index]
    assert isinstance(parameter, tuple) and help_.signatures[0].label[parameter[0]:parameter[1]] == "?y - block"
    assert first is not None and first.active_parameter == 0


async def test_signature_help_of_an_rddl_pvariable(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "l.rddl"
    await open_document(client, path, RDDL)
    help_ = await client.text_document_signature_help_async(lsp.SignatureHelpParams(
        text_document=doc_id(path), position=position_of(RDDL, "near(?r, ?s)", 9)))
    close_document(client, path)
    assert help_ is not None and help_.signatures[0].label.startswith("near(room, room)")
    assert help_.active_parameter == 1


async def test_workspace_symbols_across_open_documents(client: LanguageClient, tmp_path: Path) -> None:
    pddl, rddl = tmp_path / "d.pddl", tmp_path / "l.rddl"
    await open_document(client, pddl, DOMAIN)
    await open_document(client, rddl, RDDL)
    found = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="stk"))
    lamps = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="lit"))
    close_document(client, pddl)
    close_document(client, rddl)
    assert found is not None and [(s.name, s.location.uri) for s in found] == [("stack", pddl.resolve().as_uri())]
    assert lamps is not None and any(s.name == "lit" and s.location.uri == rddl.resolve().as_uri() for s in lamps)
