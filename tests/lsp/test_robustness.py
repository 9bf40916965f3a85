"""The server never fails on any input: broken, binary-looking, deeply nested, astral, or mutated text.

Every request on such text must be answered (with results or "nothing here") and no handler may hit
an unexpected exception (the server logs those to the client, so the log must stay clean).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from .conftest import CORPUS, change_document, close_document, doc_id, open_document

pytestmark = pytest.mark.asyncio(loop_scope="module")

NASTY_PDDL = [
    "",
    "(",
    ")",
    "((((((",
    "(define",
    "(define (domain",
    "(define (domain d) (:action",
    "(define (problem p) (:domain",
    "(define (problem p) (:domain d) (:init (p ?x)))",
    "binary\x00text",
    "(define (domain d) ; 🙂 é\n (:predicates (p 🙂)))",
    "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition " + "(and " * 2000,
    "(" * 5000 + ")" * 5000,
    "(define (domain d) (:types a - b b - a) (:constants c - a) (:predicates (p ?x - c)))",
    "(define (domain d) (:requirements :typing) (:types) (:action a :parameters (?x - ?y)))",
    "(define (domain d) (:functions (f) - number) (:action a :effect (increase (f) (f))))",
    "(define (domain d)) (define (domain e))",
]

NASTY_RDDL = [
    "",
    "domain {",
    "domain d { cpfs { x = ",
    "domain d { pvariables { p : { state-fluent, bool, default = false }; }; cpfs { p' = "
    + "(" * 3000 + "true" + ")" * 3000 + "; }; }",
    "instance i { domain = nothing; non-fluents = none; }",
    "// 🙂\n@@@",
]


def positions(text: str) -> list[lsp.Position]:
    lines = text.split("\n")
    out = [lsp.Position(line=0, character=0), lsp.Position(line=len(lines) + 5, character=3),
           lsp.Position(line=0, character=10_000)]
    for line_no in (0, len(lines) // 2, len(lines) - 1):
        line = lines[line_no]
        out += [lsp.Position(line=line_no, character=c) for c in {0, len(line) // 2, len(line)}]
    return out


_texts: dict[str, str] = {}  # the text each test document was given, by path


async def exercise(client: LanguageClient, path: Path) -> None:
    """Every request at a handful of places; each must be answered without an internal error."""
    doc = doc_id(path)
    for position in positions(_texts[str(path)]):
        await client.text_document_hover_async(lsp.HoverParams(text_document=doc, position=position))
        await client.text_document_definition_async(lsp.DefinitionParams(text_document=doc, position=position))
        await client.text_document_references_async(lsp.ReferenceParams(
            text_document=doc, position=position, context=lsp.ReferenceContext(include_declaration=True)))
        await client.text_document_completion_async(lsp.CompletionParams(text_document=doc, position=position))
    await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(text_document=doc))
    await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=doc, options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))


def internal_errors(client: LanguageClient) -> list[str]:
    return [m.message for m in client.log_messages if "failed" in m.message]


@pytest.mark.parametrize("index", range(len(NASTY_PDDL)))
async def test_nasty_pddl(client: LanguageClient, tmp_path: Path, index: int) -> None:
    path = tmp_path / f"nasty{index}.pddl"
    _texts[str(path)] = NASTY_PDDL[index]
    await open_document(client, path, NASTY_PDDL[index])
    await exercise(client, path)
    close_document(client, path)
    assert internal_errors(client) == []


@pytest.mark.parametrize("index", range(len(NASTY_RDDL)))
async def test_nasty_rddl(client: LanguageClient, tmp_path: Path, index: int) -> None:
    path = tmp_path / f"nasty{index}.rddl"
    _texts[str(path)] = NASTY_RDDL[index]
    await open_document(client, path, NASTY_RDDL[index])
    await exercise(client, path)
    close_document(client, path)
    assert internal_errors(client) == []


async def test_random_edits_of_a_domain_and_its_problem(client: LanguageClient, tmp_path: Path) -> None:
    """Characters deleted, duplicated and inserted at random (seeded), as in a typing session."""
    rng = random.Random(9)
    domain = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    problem = (CORPUS / "logistics-problem.pddl").read_text(encoding="utf-8")
    domain_path, problem_path = tmp_path / "domain.pddl", tmp_path / "problem.pddl"
    await open_document(client, domain_path, domain)
    await open_document(client, problem_path, problem)
    _texts[str(domain_path)], _texts[str(problem_path)] = domain, problem
    for round_no in range(25):
        path, text = (domain_path, domain) if round_no % 2 == 0 else (problem_path, problem)
        mutated = list(text)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(mutated))
            action = rng.choice(("delete", "insert", "duplicate"))
            if action == "delete":
                del mutated[at]
            elif action == "insert":
                mutated.insert(at, rng.choice("()?:- \nax;"))
            else:
                mutated.insert(at, mutated[at])
        changed = "".join(mutated)
        _texts[str(path)] = changed
        await change_document(client, path, changed)
        await exercise(client, path)
    close_document(client, domain_path)
    close_document(client, problem_path)
    assert internal_errors(client) == []


async def test_the_server_still_answers_afterwards(client: LanguageClient) -> None:
    path = CORPUS / "logistics-domain.pddl"
    await open_document(client, path)
    result = await client.text_document_hover_async(lsp.HoverParams(
        text_document=doc_id(path), position=lsp.Position(line=8, character=17)))
    assert result is not None
    close_document(client, path)
