"""The block-by-block parse of open RDDL documents equals the parser's, spans included, and re-uses the
blocks an edit did not touch; text that is not a sequence of blocks that parse is left to the caller."""

from __future__ import annotations

import pytest

from pddltools.diagnostics import Source
from pddltools.lsp.rddl_incremental import BlockCache
from pddltools.lsp.workspace import Workspace
from pddltools.rddl import ast
from pddltools.rddl.parser import ParseError, parse

from .conftest import CORPUS, parsed_corpus_texts


def places(node: ast.Node) -> list[tuple[str, int, int]]:
    return [(type(n).__name__, n.span.start, n.span.end) for n in node.walk() if n.span is not None]


def same_as_parser(text: str, cache: BlockCache | None = None) -> BlockCache:
    cache = cache or BlockCache()
    source = Source(text, "doc.rddl")
    parsed = cache.parse(source)
    full = parse(Source(text, "doc.rddl"))
    assert parsed is not None and parsed == full
    assert places(parsed) == places(full)
    assert parsed.span is not None and full.span is not None and parsed.span.start == full.span.start
    # a span is on this version, or on an earlier one that agrees with it over the span's lines
    assert all(n.span.text == text[n.span.start:n.span.end] and n.span.line == source.line_col(n.span.start)[0]
               for n in parsed.walk() if n.span is not None)
    return cache


TEXT = ((CORPUS / "lights.rddl").read_text(encoding="utf-8") + "\n"
        + (CORPUS / "lights-instance.rddl").read_text(encoding="utf-8"))


def test_an_edit_re_parses_only_its_block() -> None:
    cache = same_as_parser(TEXT)
    assert cache.reused == 0
    edited = TEXT.replace("horizon = 10;", "horizon  = 12;")
    assert edited != TEXT
    same_as_parser(edited, cache)
    assert cache.reused == 2  # of 3 blocks: only the instance was parsed again
    shifted = "// a comment above moves every block\n" + edited
    first = cache.parse(Source(edited, "doc.rddl"))
    same_as_parser(shifted, cache)
    assert cache.reused == 3
    assert first is not None and places(first) == places(parse(Source(edited, "doc.rddl")))  # not moved


def test_blocks_above_an_edit_are_re_used_as_they_are() -> None:
    cache = BlockCache()
    before = cache.parse(Source(TEXT, "doc.rddl"))
    same_as_parser(TEXT.replace("horizon = 10;", "horizon  = 12;"), cache)
    after = cache.parse(Source(TEXT.replace("horizon = 10;", "horizon  = 12;"), "doc.rddl"))
    assert before is not None and after is not None
    assert [a is b for a, b in zip(before.blocks, after.blocks, strict=True)] == [True, True, False]


def test_a_broken_block_or_stray_text_is_left_to_the_caller() -> None:
    assert BlockCache().parse(Source(TEXT.replace("horizon = 10;", "horizon = ;"), "doc.rddl")) is None
    assert BlockCache().parse(Source("stray " + TEXT, "doc.rddl")) is None
    assert BlockCache().parse(Source("// nothing yet", "doc.rddl")) is None


def test_the_workspace_parses_open_rddl_documents_block_by_block() -> None:
    workspace = Workspace()
    doc = workspace.open("file:///tmp/doc.rddl", TEXT, 1, "rddl")
    first = workspace.rddl(doc)
    assert first.node == parse(Source(TEXT, "doc.rddl")) and first.syntax == ()
    workspace.change(doc.uri, TEXT.replace("horizon = 10;", "horizon = ;"), 2)
    broken = workspace.rddl(doc)
    assert broken.syntax and broken.syntax[0].code == "R100"  # the recovering parser explains it
    workspace.change(doc.uri, TEXT, 3)
    assert workspace.rddl(doc).node == first.node
    assert workspace._blocks[doc.uri].reused == 3


@pytest.mark.corpus
def test_equal_to_the_parser_on_the_corpus() -> None:
    texts = parsed_corpus_texts("rddl", "*.rddl", parse, ParseError, 3)
    for text in texts:
        same_as_parser(text)
    assert len(texts) > 15
