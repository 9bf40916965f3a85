"""Rename (across a domain and its open problems, refused on a clash) and document highlight, over stdio."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from pddltools.cli import main

from .conftest import close_document, doc_id, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOMAIN = """(define (domain towers)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block) (unused))
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and (clear ?x) (clear ?y) (not (on ?x ?y)))
    :effect (and (on ?x ?y) (not (clear ?y)))))
"""


def problem(index: int, uses: int) -> str:
    blocks = " ".join(f"b{i}" for i in range(uses + 1))
    facts = "\n    ".join(f"(on b{i} b{i + 1})" for i in range(uses))
    goal = " ".join(f"(on b{i + 1} b{i})" for i in range(min(uses, 3)))
    return (f"(define (problem p{index}) (:domain towers)\n  (:objects {blocks} - block)\n"
            f"  (:init\n    {facts}\n    (clear ghost))\n  (:goal (and {goal})))\n")


def apply(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(p: lsp.Position) -> int:
        return starts[p.line] + p.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[:offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def findings(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> list[tuple[str, str, int, str]]:
    capsys.readouterr()
    main(["check", "--format", "json", *map(str, paths)])
    envelope = json.loads(capsys.readouterr().out)
    return sorted((Path(f["path"]).name, d["code"], d["line"], d["message"])
                  for f in envelope["files"] for d in f["diagnostics"])


async def test_renaming_a_predicate_used_200_times_in_5_files_keeps_the_findings(
        client: LanguageClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    domain = tmp_path / "domain.pddl"
    domain.write_text(DOMAIN)
    problems = [tmp_path / f"p{i}.pddl" for i in range(4)]
    for i, path in enumerate(problems):
        path.write_text(problem(i, 48))
    files = [domain, *problems]
    texts = {path.resolve().as_uri(): path.read_text() for path in files}
    before = findings(files, capsys)
    assert any(code == "E204" for _, code, _, _ in before)  # the ghost: findings to keep
    for path in files:
        await open_document(client, path)
    prepared = await client.text_document_prepare_rename_async(lsp.PrepareRenameParams(
        text_document=doc_id(problems[2]), position=position_of(problem(2, 48), "(on b7", 1)))
    assert isinstance(prepared, lsp.Range) and prepared.end.character - prepared.start.character == 2
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=doc_id(problems[2]), position=position_of(problem(2, 48), "(on b7", 1),
        new_name="stacked"))
    for path in files:
        close_document(client, path)
    assert edit is not None and edit.changes is not None
    assert set(edit.changes) == set(texts)
    assert sum(len(edits) for edits in edit.changes.values()) == 3 + 4 * (48 + 3)  # 204 uses, 3 in the domain
    for uri, edits in edit.changes.items():
        path = next(p for p in files if p.resolve().as_uri() == uri)
        path.write_text(apply(texts[uri], list(edits)))
    assert "(stacked ?x - block ?y - block)" in domain.read_text()
    after = findings(files, capsys)
    assert after == [(f, c, line, m.replace("stacked", "on")) for f, c, line, m in after]
    assert [(f, c, line) for f, c, line, _ in after] == [(f, c, line) for f, c, line, _ in before]
    assert [m.replace("stacked", "on") for _, _, _, m in after] == [m for _, _, _, m in before]


async def test_a_rename_that_would_clash_is_refused(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "d.pddl"
    await open_document(client, path, DOMAIN)
    with pytest.raises(Exception, match="already declared as a predicate"):
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=doc_id(path), position=position_of(DOMAIN, "(on ?x", 1), new_name="clear"))
    with pytest.raises(Exception, match="already a variable"):
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=doc_id(path), position=position_of(DOMAIN, "?x - block ?y - block)\n", 1),
            new_name="?y"))
    with pytest.raises(Exception, match="not a PDDL name"):
        await client.text_document_rename_async(lsp.RenameParams(
            text_document=doc_id(path), position=position_of(DOMAIN, "(:action stack", 10), new_name="and"))
    edit = await client.text_document_rename_async(lsp.RenameParams(
        text_document=doc_id(path), position=position_of(DOMAIN, "?x - block ?y - block)\n", 1), new_name="?top"))
    close_document(client, path)
    assert edit is not None and edit.changes is not None
    (edits,) = edit.changes.values()
    renamed = apply(DOMAIN, list(edits))
    assert ":parameters (?top - block ?y - block)" in renamed and "(on ?top ?y)" in renamed
    assert "(on ?x - block ?y - block)" in renamed  # the predicate's own ?x is another variable


async def test_rddl_pvariable_rename_and_highlight(client: LanguageClient, tmp_path: Path) -> None:
    text = ("domain d {\n  types { room : object; };\n  pvariables {\n"
            "    lit(room) : { state-fluent, bool, default = false };\n"
            "    flip(room) : { action-fluent, bool, default = false };\n  };\n"
            "  cpfs { lit'(?r) = lit(?r) ^ ~flip(?r); };\n  reward = sum_{?r : room} lit(?r);\n}\n")
    path = tmp_path / "d.rddl"
    await open_document(client, path, text)
    at = position_of(text, "lit(?r) ^", 1)
    marks = await client.text_document_document_highlight_async(lsp.DocumentHighlightParams(
        text_document=doc_id(path), position=at))
    assert marks is not None and len(marks) == 4
    assert [m.kind for m in marks].count(lsp.DocumentHighlightKind.Write) == 1
    edit = await client.text_document_rename_async(lsp.RenameParams(text_document=doc_id(path), position=at,
                                                                    new_name="bright"))
    with pytest.raises(Exception, match="already declared"):
        await client.text_document_rename_async(lsp.RenameParams(text_document=doc_id(path), position=at,
                                                                 new_name="flip"))
    close_document(client, path)
    assert edit is not None and edit.changes is not None
    renamed = apply(text, list(next(iter(edit.changes.values()))))
    assert "bright(room) :" in renamed and "bright'(?r) = bright(?r)" in renamed and "room} bright(?r)" in renamed
