"""Completion: keywords the grammar accepts at the cursor, names in scope with their signatures."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import CORPUS, close_document, doc_id, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOMAIN_TEXT = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")


async def items_at(client: LanguageClient, path: Path, text: str, cursor: str = "|") -> dict[str, lsp.CompletionItem]:
    """Open `text` (with `cursor` marking the place) and complete there."""
    at = text.index(cursor)
    content = text[:at] + text[at + len(cursor):]
    await open_document(client, path, content)
    result = await client.text_document_completion_async(lsp.CompletionParams(
        text_document=doc_id(path), position=_pos(content, at)))
    close_document(client, path)
    assert isinstance(result, lsp.CompletionList)
    return {item.label: item for item in result.items}


def _pos(text: str, at: int) -> lsp.Position:
    line = text.count("\n", 0, at)
    return lsp.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


async def test_section_keywords_at_the_top_of_a_domain(client: LanguageClient, tmp_path: Path) -> None:
    items = await items_at(client, tmp_path / "d.pddl", "(define (domain d)\n  (|\n)")
    assert {":requirements", ":types", ":predicates", ":action", ":durative-action", ":derived"} <= set(items)
    assert ":init" not in items and "and" not in items  # problem sections and formulas do not fit here
    assert items[":action"].kind == lsp.CompletionItemKind.Keyword


async def test_a_typed_prefix_filters(client: LanguageClient, tmp_path: Path) -> None:
    items = await items_at(client, tmp_path / "d.pddl", "(define (domain d)\n  (:pre|\n)")
    assert set(items) == {":predicates"}


async def test_action_parts_in_order(client: LanguageClient, tmp_path: Path) -> None:
    items = await items_at(client, tmp_path / "d.pddl", "(define (domain d) (:action a :parameters (?x) |")
    assert set(items) >= {":precondition", ":effect"} and ":parameters" not in items


async def test_formula_keywords_and_predicates_with_signatures(client: LanguageClient, tmp_path: Path) -> None:
    # a new action being typed at the end of the logistics domain: the predicates are those declared above
    text = DOMAIN_TEXT.rstrip()[:-1] + "  (:action new :parameters (?t - truck ?p - place)\n    :precondition (|"
    items = await items_at(client, tmp_path / "logistics.pddl", text)
    assert {"and", "or", "not", "forall", "exists", "imply"} <= set(items)
    assert items["in-city"].detail == "(in-city ?loc - place ?city - city)"
    assert items["at"].kind == lsp.CompletionItemKind.Function
    assert "domain" not in items and "start" not in items  # words that are only names here


async def test_variables_in_scope(client: LanguageClient, tmp_path: Path) -> None:
    text = DOMAIN_TEXT.rstrip()[:-1] + "  (:action new :parameters (?t - truck ?p - place)\n    :precondition (at ?|"
    items = await items_at(client, tmp_path / "logistics.pddl", text)
    assert set(items) == {"?t", "?p"}
    parsed = DOMAIN_TEXT.replace("(at ?plane ?from)\n", "(at ?plane ?|from)\n")
    items = await items_at(client, tmp_path / "logistics.pddl", parsed)
    assert set(items) == {"?plane", "?from", "?to"}
    assert items["?plane"].detail == "?plane - airplane"


async def test_types_after_a_dash(client: LanguageClient, tmp_path: Path) -> None:
    text = DOMAIN_TEXT.rstrip()[:-1] + "  (:action new :parameters (?t - |"
    items = await items_at(client, tmp_path / "logistics.pddl", text)
    assert {"truck", "vehicle", "place", "object"} <= set(items) and "at" not in items
    assert "either" not in items  # `either` follows '(' only


async def test_init_of_a_problem(client: LanguageClient) -> None:
    problem = (CORPUS / "logistics-problem.pddl").read_text(encoding="utf-8")
    text = problem.replace("(at pkg2 depot)", "(at pkg2 depot) (|")
    items = await items_at(client, CORPUS / "scratch-problem.pddl", text)
    assert {"at", "in", "in-city"} <= set(items) and "and" not in items
    text = problem.replace("(at pkg2 depot)", "(at pkg2 d|")
    items = await items_at(client, CORPUS / "scratch-problem.pddl", text)
    assert set(items) == {"depot"}
    assert items["depot"].detail == "depot - location"


async def test_rddl_keywords_and_pvariables(client: LanguageClient, tmp_path: Path) -> None:
    text = (CORPUS / "lights.rddl").read_text(encoding="utf-8").replace(
        "then ~on(?r) else on(?r)", "then ~on(?r) else |")
    items = await items_at(client, tmp_path / "lights.rddl", text)
    assert {"if", "switch", "Bernoulli", "true"} <= set(items)
    empty = await items_at(client, tmp_path / "blank.rddl", "|")
    assert {"domain", "instance", "non-fluents"} <= set(empty)


async def test_rddl_pvariables_with_their_kind_and_range(client: LanguageClient, tmp_path: Path) -> None:
    text = (CORPUS / "lights.rddl").read_text(encoding="utf-8").replace("if (toggle(?r))", "if (tog|gle(?r))")
    items = await items_at(client, tmp_path / "lights.rddl", text)
    assert items["toggle"].detail == "action-fluent, bool (room)"

