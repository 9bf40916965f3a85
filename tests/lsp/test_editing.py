"""The editing features of the language server, over stdio with one server: rename (across a domain and
its open problems, refused on a clash) and document highlight; folding ranges, semantic tokens,
signature help and workspace symbols; quick fixes, asked for and applied."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from pddltools.pddl.parser import parse_text
from tests.fuzzing import check_findings

from .conftest import REPO, close_document, doc_id, open_document, position_of

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


def findings(paths: list[Path]) -> list[tuple[str, str, int, str]]:
    return [(name, code, line, message) for name, code, line, _, message in check_findings(paths)]


async def test_renaming_a_predicate_used_200_times_in_5_files_keeps_the_findings(
        client: LanguageClient, tmp_path: Path) -> None:
    domain = tmp_path / "domain.pddl"
    domain.write_text(DOMAIN)
    problems = [tmp_path / f"p{i}.pddl" for i in range(4)]
    for i, path in enumerate(problems):
        path.write_text(problem(i, 48))
    files = [domain, *problems]
    texts = {path.resolve().as_uri(): path.read_text() for path in files}
    before = findings(files)
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
    after = findings(files)
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



async def test_hddl_task_rename_and_its_clash(client: LanguageClient, tmp_path: Path) -> None:
    text = (REPO / "corpus" / "hddl" / "examples" / "deliver" / "domain.hddl").read_text(encoding="utf-8")
    path = tmp_path / "domain.hddl"
    await open_document(client, path, text, language="hddl")
    at = position_of(text, "(get-to ?t ?from)", 1)
    edit = await client.text_document_rename_async(lsp.RenameParams(text_document=doc_id(path), position=at,
                                                                    new_name="go-to"))
    with pytest.raises(Exception, match="already the name"):
        await client.text_document_rename_async(lsp.RenameParams(text_document=doc_id(path), position=at,
                                                                 new_name="drive"))
    close_document(client, path)
    assert edit is not None and edit.changes is not None
    renamed = apply(text, list(next(iter(edit.changes.values()))))
    assert "(:task go-to :parameters" in renamed and "(t3 (go-to ?t ?to))" in renamed
    assert "get-to" not in renamed

# -------------------------------------------------------------------------------------------------
# Structure: folding, semantic tokens, signature help, workspace symbols

OUTLINED = """; towers of blocks
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
    await open_document(client, path, OUTLINED)
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
    await open_document(client, path, OUTLINED)
    result = await client.text_document_semantic_tokens_full_async(
        lsp.SemanticTokensParams(text_document=doc_id(path)))
    close_document(client, path)
    assert result is not None
    legend = ["namespace", "type", "function", "property", "enumMember", "method", "parameter", "keyword",
              "comment", "number", "variable", "event"]
    lines = OUTLINED.splitlines()
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
    text = OUTLINED.replace("(not (clear ?y))", "(not (clear ?y)) (on ?y ")
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
    await open_document(client, pddl, OUTLINED)
    await open_document(client, rddl, RDDL)
    found = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="stk"))
    lamps = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query="lit"))
    close_document(client, pddl)
    close_document(client, rddl)
    assert found is not None and [(s.name, s.location.uri) for s in found] == [("stack", pddl.resolve().as_uri())]
    assert lamps is not None and any(s.name == "lit" and s.location.uri == rddl.resolve().as_uri() for s in lamps)


# -------------------------------------------------------------------------------------------------
# Quick fixes

FAULTY = """(define (domain towers)
  (:requirements :strips :conditional-effects)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block) (unused))
  (:action stack
    :parameters (?x - block ?y - block)
    :precondition (and (clear ?x) (clearr ?y))
    :effect (and (on ?x ?y) (holding ?y ?x) (not (clear ?y)))))
"""

FAULTY_PROBLEM = """(define (problem p) (:domain towerz)
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
    path.write_text(FAULTY)
    uri = path.resolve().as_uri()
    diagnostics = await open_document(client, path)
    found = await fixes(client, path, diagnostics)
    close_document(client, path)
    assert applied(found["Change to clear"], uri, FAULTY).count("(clear ?y)") == 2
    declared = applied(found["Declare predicate (holding ?y - block ?x - block)"], uri, FAULTY)
    assert "(unused)\n    (holding ?y - block ?x - block))" in declared
    assert parse_text(declared).predicates[-1].name == "holding"
    typing = applied(found["Add :typing to :requirements"], uri, FAULTY)
    assert "(:requirements :strips :conditional-effects :typing)" in typing
    unused = applied(found["Remove the unused predicate"], uri, FAULTY)
    assert "(clear ?x - block))" in unused and "unused" not in unused
    flag = applied(found["Remove the unused requirement"], uri, FAULTY)
    assert "(:requirements :strips)" in flag


async def test_quick_fixes_for_a_problem(client: LanguageClient, tmp_path: Path) -> None:
    domain, problem = tmp_path / "domain.pddl", tmp_path / "p.pddl"
    domain.write_text(FAULTY.replace("(clearr ?y)", "(clear ?y)").replace("(holding ?y ?x) ", ""))
    problem.write_text(FAULTY_PROBLEM)
    await open_document(client, domain)
    diagnostics = await open_document(client, problem)
    found = await fixes(client, problem, diagnostics)
    close_document(client, problem)
    close_document(client, domain)
    uri = problem.resolve().as_uri()
    assert "(:domain towers)" in applied(found["Change the domain name to towers"], uri, FAULTY_PROBLEM)
    declared = applied(found["Declare object b9 - block"], uri, FAULTY_PROBLEM)
    assert "(:objects b1 b2 - block\n    b9 - block)" in declared
    assert [o.name for o in parse_text(declared).objects] == ["b1", "b2", "b9"]
