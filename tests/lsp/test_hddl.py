"""HDDL in the language server, driven by a real client: diagnostics of a domain and of a problem
checked against its domain, hover, definition and references of tasks, methods and subtask ids (and of
PDDL names inside methods), completion and formatting."""

from __future__ import annotations

import pytest
import pytest_asyncio
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import REPO, doc_id, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

FOLDER = REPO / "corpus" / "hddl" / "examples" / "deliver"
DOMAIN = FOLDER / "domain.hddl"
PROBLEM = FOLDER / "p01.hddl"
TEXT = DOMAIN.read_text(encoding="utf-8")
PROBLEM_TEXT = PROBLEM.read_text(encoding="utf-8")
BROKEN = REPO / "corpus" / "hddl" / "check" / "ordering-cycle" / "domain.hddl"


@pytest_asyncio.fixture(scope="module", loop_scope="module", autouse=True)
async def opened(client: LanguageClient) -> None:
    await open_document(client, DOMAIN, language="hddl")
    await open_document(client, PROBLEM, language="pddl")  # an editor may call it pddl: the suffix decides


async def test_diagnostics_of_a_domain_and_of_a_problem(client: LanguageClient) -> None:
    found = await open_document(client, BROKEN, language="hddl")
    cycle = next(d for d in found if d.code == "E907")
    assert "t1 < t2 < t1" in cycle.message and cycle.severity == lsp.DiagnosticSeverity.Error
    broken = PROBLEM_TEXT.replace("(deliver parcel shop)", "(delivr parcel shop)")
    found = await open_document(client, FOLDER / "p02.hddl", broken, language="hddl")
    assert [d.code for d in found if d.severity == lsp.DiagnosticSeverity.Error] == ["E903"]


async def test_hover_definition_and_references_of_a_task(client: LanguageClient) -> None:
    use = position_of(TEXT, "(get-to ?t ?from)", 1)
    hover = await client.text_document_hover_async(lsp.HoverParams(text_document=doc_id(DOMAIN), position=use))
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "(:task get-to :parameters (?t - truck ?to - place))" in hover.contents.value
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc_id(DOMAIN),
                                                                              position=use))
    assert isinstance(found, list) and found[0].range.start == position_of(TEXT, "get-to :parameters")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(DOMAIN), position=use, context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None and len(refs) == 5  # the declaration, two subtasks, two method heads


async def test_a_subtask_id_and_a_task_from_the_problem(client: LanguageClient) -> None:
    order = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(DOMAIN), position=position_of(TEXT, "(t2 (load", 1),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert order is not None and len(order) == 1  # t2 of m-deliver, and no other method's t2
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        text_document=doc_id(PROBLEM), position=position_of(PROBLEM_TEXT, "(deliver parcel", 1)))
    assert isinstance(found, list) and found[0].uri == DOMAIN.resolve().as_uri()


async def test_pddl_names_inside_methods(client: LanguageClient) -> None:
    use = position_of(TEXT, "(road ?from ?to))\n    :ordered-subtasks (drive", 1)
    found = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc_id(DOMAIN),
                                                                              position=use))
    assert isinstance(found, list) and found[0].range.start == position_of(TEXT, "road ?a ?b")


async def test_completion_offers_tasks_and_keywords(client: LanguageClient) -> None:
    text = TEXT.replace("(t3 (get-to ?t ?to))", "(t3 (ge")
    await open_document(client, FOLDER / "typing.hddl", text, language="hddl")
    at = position_of(text, "(t3 (ge", 7)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc_id(FOLDER / "typing.hddl"), position=at))
    assert result is not None
    labels = {item.label for item in (result.items if isinstance(result, lsp.CompletionList) else result)}
    assert "get-to" in labels


async def test_formatting_keeps_a_files_comments_and_formats_a_problem(client: LanguageClient) -> None:
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc_id(PROBLEM), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits and "(:htn" in edits[0].new_text
    commented = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc_id(DOMAIN), options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert commented and commented[0].new_text.startswith("; A total-order HTN domain")
