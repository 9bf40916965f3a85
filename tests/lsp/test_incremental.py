"""The section-by-section parse of open documents equals the parser's, spans included, and re-uses
the sections an edit did not touch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pddltools.diagnostics import Source
from pddltools.lsp import incremental
from pddltools.lsp.incremental import SectionCache
from pddltools.lsp.workspace import Workspace
from pddltools.pddl import ast
from pddltools.pddl.parser import parse
from pddltools.syntax.errors import ParseError

from .conftest import CORPUS, parsed_corpus_texts


def places(node: ast.Node) -> list[tuple[str, int, int]]:
    return [(type(n).__name__, n.span.start, n.span.end) for n in node.walk() if n.span is not None][1:]


def same_as_parser(text: str, cache: SectionCache | None = None) -> SectionCache:
    cache = cache or SectionCache()
    parsed = cache.parse(Source(text, "doc.pddl"))
    full = parse(Source(text, "doc.pddl"))
    assert parsed.syntax == () and parsed.node == full
    assert places(parsed.node) == places(full)
    return cache


def test_an_edit_re_parses_only_its_section() -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    cache = same_as_parser(text)
    edited = text.replace("(at ?plane ?to)", "(at  ?plane ?to)")
    same_as_parser(edited, cache)
    assert cache.reused == 7  # of 8 sections: only fly-airplane was parsed again
    shifted = ";; a comment above moves every section\n" + edited
    same_as_parser(shifted, cache)
    assert cache.reused == 8


def test_a_broken_section_is_left_out_and_located() -> None:
    text = (CORPUS / "broken" / "broken-actions-domain.pddl").read_text(encoding="utf-8")
    parsed = SectionCache().parse(Source(text, "doc.pddl"))
    assert isinstance(parsed.node, ast.Domain)
    assert [a.name for a in parsed.node.actions] == ["load-truck", "drive-truck", "fly-airplane"]
    assert [c.keyword for c in parsed.cut] == [":action"]
    assert parsed.syntax and all(parsed.cut[0].start <= d.span.start < parsed.cut[0].end
                                 for d in parsed.syntax if d.span is not None)
    with pytest.raises(ParseError):
        parse(Source(text, "doc.pddl"))


def test_text_outside_sections_falls_back_to_the_recovering_parser() -> None:
    parsed = SectionCache().parse(Source("(define (domain d) stray (:predicates (p)))", "doc.pddl"))
    assert parsed.syntax and parsed.syntax[0].code == "E103"


@pytest.mark.corpus
def test_equal_to_the_parser_on_the_corpus() -> None:
    texts = parsed_corpus_texts("pddl", "*.pddl", parse, ParseError, 5, max_size=400_000)
    for text in texts:
        same_as_parser(text)
    assert len(texts) > 200


def test_problems_too(tmp_path: Path) -> None:
    cache = same_as_parser((CORPUS / "logistics-problem.pddl").read_text(encoding="utf-8"))
    same_as_parser((CORPUS / "problem-unknown-object.pddl").read_text(encoding="utf-8"), cache)


def test_an_earlier_version_keeps_its_spans_after_an_edit_above() -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    cache = SectionCache()
    first = cache.parse(Source(text, "doc.pddl"))
    assert first.node is not None
    before = places(first.node)
    spans = {n.span for n in first.node.walk() if n.span is not None}
    same_as_parser(";; two lines\n;; above\n" + text, cache)
    assert cache.reused == 8
    assert places(first.node) == before  # re-used sections were rebuilt, not moved in place
    assert all(span in spans for n in first.node.walk() if (span := n.span) is not None)


def _parsed(text: str, cache: SectionCache) -> ast.Domain:
    same_as_parser(text, cache)
    node = cache.parse(Source(text, "doc.pddl")).node
    assert isinstance(node, ast.Domain)
    return node


def test_sections_above_an_edit_are_re_used_as_they_are() -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    cache = SectionCache()
    before = _parsed(text, cache)
    after = _parsed(text.replace("(at ?plane ?to)", "(at  ?plane ?to)"), cache)  # in the last action
    assert [a is b for a, b in zip(before.actions, after.actions, strict=True)] == [True, True, True, False]
    assert before.predicates is after.predicates
    moved = _parsed(text.replace("(at ?truck ?to)", "(at ?truck  ?to)"), cache)  # in drive-truck: one below it
    assert [a is b for a, b in zip(after.actions, moved.actions, strict=True)] == [True, True, False, False]


def test_sections_point_into_a_few_earlier_versions_at_most() -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    cache = SectionCache()
    seen = set()
    for index in [0, 1, 2, 3] * 2:  # an edit in each action, top to bottom, twice: those above stay on its version
        at = [m.start() for m in re.finditer(r"\(\s*:action", text)][index]
        text = text[:at + 1] + " " + text[at + 1:]
        node = _parsed(text, cache)
        versions = {id(n.span.source) for n in node.walk() if n.span is not None}
        seen.add(len(versions))
        assert len(versions) <= len(cache.kept) + 1 <= incremental.KEPT + 1
        assert all(n.span.text == text[n.span.start:n.span.end] for n in node.walk() if n.span is not None)
    assert max(seen) > 2


def test_a_change_frees_the_earlier_versions_sections_before_the_next_parse() -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    workspace = Workspace()
    doc = workspace.open("file:///tmp/doc.pddl", text, 1)
    workspace.pddl(doc)
    edited = ";; above every section\n" + text
    workspace.change(doc.uri, edited, 2)
    parsed = workspace.pddl(doc)
    assert parsed.node == parse(Source(edited, "doc.pddl"))
    cache = workspace._sections[doc.uri]
    assert len(cache.stale) == len(cache.entries)  # every section moved: the first version's are kept till now
    workspace.change(doc.uri, text, 3)
    assert cache.stale == {}
    assert places(workspace.pddl(doc).node) == places(parse(Source(text, "doc.pddl")))
