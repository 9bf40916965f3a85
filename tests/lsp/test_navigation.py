"""Hover, go to definition and find references, within a document and from a problem into its domain."""

from __future__ import annotations

import pytest
import pytest_asyncio
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import CORPUS, doc_id, open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOMAIN = CORPUS / "logistics-domain.pddl"
PROBLEM = CORPUS / "logistics-problem.pddl"
DOMAIN_TEXT = DOMAIN.read_text(encoding="utf-8")
PROBLEM_TEXT = PROBLEM.read_text(encoding="utf-8")


@pytest_asyncio.fixture(scope="module", loop_scope="module", autouse=True)
async def opened(client: LanguageClient) -> None:
    await open_document(client, DOMAIN)
    await open_document(client, PROBLEM)


async def hover(client: LanguageClient, path: object, position: lsp.Position) -> str:
    result = await client.text_document_hover_async(lsp.HoverParams(text_document=doc_id(path), position=position))  # type: ignore[arg-type]
    assert result is not None
    assert isinstance(result.contents, lsp.MarkupContent)
    return result.contents.value


async def definition(client: LanguageClient, path: object, position: lsp.Position) -> lsp.Location:
    result = await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc_id(path),  # type: ignore[arg-type]
                                                                               position=position))
    assert isinstance(result, list) and len(result) == 1
    location = result[0]
    assert isinstance(location, lsp.Location)
    return location


def at(text: str, needle: str, skip: int = 0, occurrence: int = 0) -> lsp.Position:
    return position_of(text, needle, skip, occurrence)


async def test_hover_on_a_predicate_gives_its_signature_and_place(client: LanguageClient) -> None:
    text = await hover(client, DOMAIN, at(DOMAIN_TEXT, "(at ?truck ?loc)", 2))
    assert "(at ?obj - physobj ?loc - place)" in text
    assert "predicate, declared at" in text and "logistics-domain.pddl:9:17" in text


async def test_hover_on_a_type_gives_its_supertypes(client: LanguageClient) -> None:
    text = await hover(client, DOMAIN, at(DOMAIN_TEXT, "?truck - truck", 9))
    assert "supertypes: vehicle, physobj, object" in text
    text = await hover(client, DOMAIN, at(DOMAIN_TEXT, "vehicle - physobj", 11))
    assert "supertypes: object" in text and "subtypes: airplane, airport, city" not in text
    assert "subtypes: " in text and "package" in text


async def test_hover_on_an_action_parameter_and_object(client: LanguageClient) -> None:
    text = await hover(client, DOMAIN, at(DOMAIN_TEXT, ":action fly-airplane", 9))
    assert "(:action fly-airplane" in text and "?plane - airplane ?from - airport ?to - airport" in text
    text = await hover(client, DOMAIN, at(DOMAIN_TEXT, "(at ?plane ?from)", 5))
    assert "?plane - airplane" in text and "parameter of action fly-airplane" in text
    text = await hover(client, PROBLEM, at(PROBLEM_TEXT, "(at truck1 depot)", 12))
    assert "depot - location" in text and "constant" in text and "location, place, object" in text
    text = await hover(client, PROBLEM, at(PROBLEM_TEXT, "(at truck1", 5))
    assert "truck1 - truck" in text and "of types: truck, vehicle, physobj, object" in text


async def test_nothing_to_hover_over_between_names(client: LanguageClient) -> None:
    result = await client.text_document_hover_async(lsp.HoverParams(
        text_document=doc_id(DOMAIN), position=lsp.Position(line=0, character=0)))
    assert result is None


async def test_definitions_in_the_domain(client: LanguageClient) -> None:
    cases = [
        (at(DOMAIN_TEXT, "(in ?pkg ?truck))", 1), "(in ?pkg - package", 1),  # predicate
        (at(DOMAIN_TEXT, "?loc - place)", 7), "place physobj - object", 0),  # type
        (at(DOMAIN_TEXT, "(at ?truck ?from)", 5), "?truck - truck ?from", 0),  # parameter of drive-truck
    ]
    for position, target, skip in cases:
        location = await definition(client, DOMAIN, position)
        assert location.uri == DOMAIN.resolve().as_uri()
        assert location.range.start == at(DOMAIN_TEXT, target, skip), target


async def test_a_parameter_resolves_to_its_own_action(client: LanguageClient) -> None:
    # ?pkg of unload-truck, not of load-truck
    location = await definition(client, DOMAIN, at(DOMAIN_TEXT, "(in ?pkg ?truck))", 5, occurrence=1))
    assert location.range.start == at(DOMAIN_TEXT, "?pkg - package", 0, occurrence=2)  # 0: :predicates


async def test_definitions_from_a_problem_go_into_the_domain(client: LanguageClient) -> None:
    domain_uri = DOMAIN.resolve().as_uri()
    location = await definition(client, PROBLEM, at(PROBLEM_TEXT, "(in-city depot", 1))
    assert location.uri == domain_uri and location.range.start == at(DOMAIN_TEXT, "in-city ?loc")
    location = await definition(client, PROBLEM, at(PROBLEM_TEXT, "depot city1", 2))  # a constant
    assert location.uri == domain_uri and location.range.start == at(DOMAIN_TEXT, "depot - location")
    location = await definition(client, PROBLEM, at(PROBLEM_TEXT, "truck1 - truck", 10))  # a type
    assert location.uri == domain_uri and location.range.start == at(DOMAIN_TEXT, "truck airplane")
    location = await definition(client, PROBLEM, at(PROBLEM_TEXT, "(:domain logistics)", 12))
    assert location.uri == domain_uri and location.range.start == at(DOMAIN_TEXT, "logistics")
    location = await definition(client, PROBLEM, at(PROBLEM_TEXT, "(at pkg1 airport2)", 6))  # an object
    assert location.uri == PROBLEM.resolve().as_uri()
    assert location.range.start == at(PROBLEM_TEXT, "pkg1 pkg2")


async def test_references_of_a_predicate_span_the_domain_and_its_open_problems(client: LanguageClient) -> None:
    result = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(DOMAIN), position=at(DOMAIN_TEXT, "(in-city ?from", 2),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert result is not None
    by_file: dict[str, int] = {}
    for location in result:
        by_file[location.uri] = by_file.get(location.uri, 0) + 1
    assert by_file == {DOMAIN.resolve().as_uri(): 3, PROBLEM.resolve().as_uri(): 3}
    without = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(DOMAIN), position=at(DOMAIN_TEXT, "(in-city ?from", 2),
        context=lsp.ReferenceContext(include_declaration=False)))
    assert without is not None and len(without) == 5


async def test_references_of_a_parameter_stay_in_its_action(client: LanguageClient) -> None:
    result = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(DOMAIN), position=at(DOMAIN_TEXT, "?plane - airplane", 1),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert result is not None
    lines = sorted(location.range.start.line for location in result)
    assert lines == [23, 24, 25, 25]


async def test_references_of_a_type_include_its_declaration(client: LanguageClient) -> None:
    result = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(DOMAIN), position=at(DOMAIN_TEXT, "?city - city", 8),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert result is not None
    problem_uses = [loc for loc in result if loc.uri == PROBLEM.resolve().as_uri()]
    assert len(problem_uses) == 1  # city1 city2 - city
    domain_lines = sorted(loc.range.start.line for loc in result if loc.uri == DOMAIN.resolve().as_uri())
    assert domain_lines == [5, 7, 19]


async def test_navigation_in_a_document_with_a_broken_action(client: LanguageClient) -> None:
    path = CORPUS / "broken" / "broken-actions-domain.pddl"
    text = path.read_text(encoding="utf-8")
    await open_document(client, path)
    # the broken action is cut out, the others still navigate
    location = await definition(client, path, at(text, "(at ?plane ?from)", 2))
    assert location.range.start == at(text, "at ?obj")
    inside_broken = await client.text_document_hover_async(lsp.HoverParams(
        text_document=doc_id(path), position=at(text, "(in ?pkg ?truck)\n", 2)))
    assert inside_broken is None


RDDL = CORPUS / "lights.rddl"
INSTANCE = CORPUS / "lights-instance.rddl"
RDDL_TEXT = RDDL.read_text(encoding="utf-8")
INSTANCE_TEXT = INSTANCE.read_text(encoding="utf-8")


async def test_rddl_hover_definition_and_references(client: LanguageClient) -> None:
    await open_document(client, RDDL)
    await open_document(client, INSTANCE)
    text = await hover(client, RDDL, at(RDDL_TEXT, "toggle(?r))", 1))
    assert "toggle(room) : { action-fluent, bool, default = false };" in text and "lights.rddl:11:" in text
    location = await definition(client, RDDL, at(RDDL_TEXT, "~on(?r)", 2))
    assert location.range.start == at(RDDL_TEXT, "on(room)")
    location = await definition(client, RDDL, at(RDDL_TEXT, "?r : room}", 6))  # a type in a binding
    assert location.range.start == at(RDDL_TEXT, "room : object")
    # from the instance into the domain: a non-fluent's value, and an object in init-state
    location = await definition(client, INSTANCE, at(INSTANCE_TEXT, "COST = 0.5", 1))
    assert location.uri == RDDL.resolve().as_uri() and location.range.start == at(RDDL_TEXT, "COST :")
    location = await definition(client, INSTANCE, at(INSTANCE_TEXT, "on(kitchen)", 4))
    assert location.range.start == at(INSTANCE_TEXT, "kitchen, hall")
    result = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=doc_id(RDDL), position=at(RDDL_TEXT, "on(room)"),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert result is not None
    by_file = sorted((loc.uri.rsplit("/", 1)[-1], loc.range.start.line) for loc in result)
    assert by_file == [("lights-instance.rddl", 14), ("lights.rddl", 9), ("lights.rddl", 14), ("lights.rddl", 14),
                       ("lights.rddl", 14), ("lights.rddl", 17)]
