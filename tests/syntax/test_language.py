"""`pddltools.syntax.Language` as PDDL and RDDL implement it: whole parses, sections, assembly, the
terminals expected at an offset, and syntax errors as located diagnostics rather than exceptions."""

from __future__ import annotations

import pytest

from pddltools.diagnostics import Source, Span
from pddltools.pddl.language import LANGUAGE as PDDL
from pddltools.pddl.parser import parse
from pddltools.rddl import ast as rast
from pddltools.rddl.language import LANGUAGE as RDDL
from pddltools.syntax import Language
from pddltools.syntax.errors import ParseError

DOMAIN = """; a comment
(define (domain Blocks) (:requirements :strips)
  (:predicates (on ?x ?y) (clear ?x))
  (:action move :parameters (?x ?y) :precondition (clear ?x) :effect (and (on ?x ?y) (not (clear ?y)))))"""

RDDL_TEXT = """domain d { types { obj : object; }; pvariables { p(obj) : { state-fluent, bool, default = false }; };
  cpfs { p'(?o) = p(?o); }; reward = 0; }
non-fluents nf { domain = d; objects { obj : { a, b }; }; }"""


def test_both_languages_implement_the_interface() -> None:
    assert isinstance(PDDL, Language) and isinstance(RDDL, Language)
    assert {PDDL.name, RDDL.name} == {"pddl", "rddl"}


def test_the_header_is_read_with_the_grammar_name_terminal() -> None:
    header = PDDL.header(DOMAIN)
    assert header is not None
    assert (header.kind, header.name) == ("domain", "blocks")
    assert DOMAIN[header.start] == "(" and DOMAIN[:header.end].endswith("(domain Blocks)")
    assert PDDL.header("(define (domain ?x))") is None


def test_sections_assemble_into_what_a_whole_parse_builds() -> None:
    whole = parse(Source(DOMAIN, "d.pddl"))
    header = PDDL.header(DOMAIN)
    assert header is not None
    starts = [DOMAIN.index("(:requirements"), DOMAIN.index("(:predicates"), DOMAIN.index("(:action")]
    ends = [*starts[1:], len(DOMAIN) - 1]
    values = []
    for start, end in zip(starts, ends, strict=True):
        found = PDDL.parse_section(Source(DOMAIN[start:end].rstrip(), "d.pddl"), header.kind)
        assert found.errors == () and found.nodes
        values.append(found.value)
    assembled = PDDL.assemble(header, Span(Source(DOMAIN, "d.pddl"), header.start, len(DOMAIN)), values)
    assert assembled is not None
    node, warnings = assembled
    assert node == whole and warnings == []


def test_a_broken_section_gives_located_diagnostics_not_an_exception() -> None:
    text = "(:action a :parameters (x) :effect (p))"
    found = PDDL.parse_section(Source(text, "s.pddl"), "domain")
    assert found.value is None and found.errors
    first = found.errors[0]
    assert first.span is not None and first.span.source.text == text
    with pytest.raises(ParseError):
        PDDL.parse(Source(text, "s.pddl"))


def test_two_goals_are_refused_by_assembly_as_by_the_parser() -> None:
    problem = "(define (problem p) (:domain d) (:goal (a)) (:goal (b)))"
    header = PDDL.header(problem)
    assert header is not None and header.kind == "problem"
    values = [PDDL.parse_section(Source(s, "p"), "problem").value
              for s in ("(:domain d)", "(:goal (a))", "(:goal (b))")]
    assert PDDL.assemble(header, Span(Source(problem), 0, len(problem)), values) is None
    with pytest.raises(ParseError):
        parse(Source(problem))


def test_expected_terminals_and_keywords() -> None:
    text = "(define (domain d) (:action a :parameters () :precondition ("
    expected = PDDL.expected_terminals(Source(text), len(text))
    words = {PDDL.keywords()[t] for t in expected if t in PDDL.keywords()}
    assert {"and", "not", "or", "forall"} <= words
    assert ":action" in PDDL.section_keywords() and ":init" in PDDL.section_keywords()
    assert "AT" in PDDL.soft_keywords()
    rddl_expected = RDDL.expected_terminals(Source("domain d { "), len("domain d { "))
    assert {RDDL.keywords()[t] for t in rddl_expected if t in RDDL.keywords()} >= {"types", "pvariables"}


def test_rddl_blocks_parse_and_assemble() -> None:
    found = RDDL.parse_sections(Source(RDDL_TEXT, "x.rddl"))
    assert found.errors == () and len(found.nodes) == 2
    assembled = RDDL.assemble(None, Span(Source(RDDL_TEXT), 0, len(RDDL_TEXT)), [found.value])  # type: ignore[arg-type]
    assert assembled is not None and isinstance(assembled[0], rast.RDDLFile)
    assert assembled[0] == RDDL.parse(Source(RDDL_TEXT, "x.rddl"))
    broken = RDDL.parse_sections(Source("domain d { types { ", "y.rddl"))
    assert broken.value is None and broken.errors and broken.errors[0].span is not None


def test_rddl_header_is_the_opening_block_read_with_the_grammar() -> None:
    header = RDDL.header(RDDL_TEXT)
    assert header is not None and (header.kind, header.name) == ("domain", "d")
    assert RDDL_TEXT[header.start:header.end] == "domain d {"
    commented = "// domain x {\n/* instance y { */ non-fluents nf{ domain = d; }"
    header = RDDL.header(commented)
    assert header is not None and (header.kind, header.name, commented[header.start:header.end]) == (
        "non-fluents", "nf", "non-fluents nf{")
    assert RDDL.header("types { obj : object; };") is None
    assert RDDL.header("domainx {") is None  # the keyword and the name are two words


def test_rddl_block_ranges_skip_braces_in_comments() -> None:
    ranges = RDDL.block_ranges(RDDL_TEXT)
    assert ranges is not None
    assert [RDDL_TEXT[a:b].split()[:2] for a, b in ranges] == [["domain", "d"], ["non-fluents", "nf"]]
    assert ranges[-1][1] == len(RDDL_TEXT) and ranges[0][1] == ranges[1][0]
    text = "// }\ninstance i { /* } domain x { */ domain = d; }\n// instance j {\ninstance k { domain = d; }"
    assert [text[a:b].split()[1] for a, b in RDDL.block_ranges(text) or ()] == ["i", "k"]
    assert RDDL.block_ranges("stray domain d { }") is None
    assert RDDL.block_ranges("domain d { } }") is None
    assert RDDL.block_ranges("// nothing") is None


def test_rddl_parse_section_takes_one_block_of_its_kind() -> None:
    ranges = RDDL.block_ranges(RDDL_TEXT)
    assert ranges is not None
    (a, b), (c, d) = ranges
    domain = RDDL.parse_section(Source(RDDL_TEXT[a:b], "x.rddl"), "domain")
    assert isinstance(domain.value, rast.Domain) and domain.nodes == (domain.value,) and domain.errors == ()
    assert domain.value == RDDL.parse(Source(RDDL_TEXT, "x.rddl")).blocks[0]
    two = RDDL.parse_section(Source(RDDL_TEXT, "x.rddl"), "domain")
    assert two.value is None and [e.code for e in two.errors] == ["R100"]
    assert two.errors[0].span is not None and two.errors[0].span.start == c
    assert "non-fluents" in two.errors[0].message
    other = RDDL.parse_section(Source(RDDL_TEXT[c:d], "x.rddl"), "instance")
    assert other.value is None and other.errors[0].code == "R100"
    assert "expected an instance block" in other.errors[0].message
    broken = RDDL.parse_section(Source("domain d { types { ", "y.rddl"), "domain")
    assert broken.value is None and broken.errors and broken.errors[0].span is not None


def test_what_the_grammars_ignore() -> None:
    import re

    def skipped(language: Language, text: str) -> bool:
        return re.fullmatch("(?:" + "|".join(f"(?:{p})" for p in language.ignored()) + ")*", text) is not None

    assert skipped(PDDL, " \t; a comment (with a parenthesis\n  ")
    assert skipped(RDDL, " // a comment {\n /* a } block */ ")
    assert not skipped(PDDL, "// not PDDL's") and not skipped(RDDL, "; not RDDL's")
    assert not skipped(PDDL, "\u00a0")  # white space to Python, not to the grammar
