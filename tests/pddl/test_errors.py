"""Syntax errors: every file in corpus/pddl/bad gives exactly the diagnostics its header expects.

Each bad file starts with one or more `; expect: CODE LINE:COLUMN MESSAGE` lines. The first line is the
first diagnostic the parser must produce; when a file has several, the parser must produce exactly
those, in that order (every error of the file is reported, each where it is). Inputs that cannot live in
the repository (an empty file, binary data, 100,000 parentheses) are written into tmp_path.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from pddltools.diagnostics import Diagnostic, Error, InputError, Source
from pddltools.pddl.parser import parse, parse_file, parse_text
from pddltools.syntax.errors import ParseError
from pddltools.syntax.testing import parser_variant

BAD = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "bad"
EXPECT = re.compile(r"; expect: (?P<code>[EW]\d{3}) (?P<line>\d+):(?P<column>\d+) (?P<message>.+)")

#: Files whose diagnostics are not yet what a domain author should see: the header holds what a good
#: diagnostic would be, and the test is a strict xfail until the parser produces it.
POOR: dict[str, str] = {
}


def expectations(path: Path) -> list[tuple[str, int, int, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = EXPECT.fullmatch(line)
        if m is None:
            break
        out.append((m["code"], int(m["line"]), int(m["column"]), m["message"]))
    return out


def described(d: Diagnostic) -> tuple[str, int | None, int | None, str]:
    return (d.code, d.span.line if d.span else None, d.span.column if d.span else None, d.message)


#: Files where the grammar path (parser_variant(fast=False)) words a diagnostic differently from the default path.
PATHS_DIFFER: dict[str, str] = {
}

#: Bad files the parser accepts today (so no test of their diagnostics can pass yet).
ACCEPTED: dict[str, str] = {}


def bad_files(xfail: dict[str, str] | None = None) -> list[object]:
    xfail = xfail or {}
    return [pytest.param(p, id=p.name,
                         marks=[pytest.mark.xfail(strict=True, reason=xfail[p.name])] if p.name in xfail else [])
            for p in sorted(BAD.glob("*.pddl"))]


def diagnostics_of(path: Path) -> tuple[Diagnostic, ...]:
    with pytest.raises(ParseError) as caught:
        parse_file(path)
    return caught.value.diagnostics


def test_every_bad_file_has_an_expectation() -> None:
    files = sorted(BAD.glob("*.pddl"))
    assert len(files) >= 20
    assert [p.name for p in files if not expectations(p)] == []
    assert set(POOR) | set(PATHS_DIFFER) <= {p.name for p in files}


@pytest.mark.parametrize("path", bad_files(POOR))
def test_bad_file_gives_the_expected_diagnostics(path: Path) -> None:
    expected = expectations(path)
    found = [described(d) for d in diagnostics_of(path)]
    if len(expected) == 1:
        assert found[:1] == expected
    else:
        assert found == expected


@pytest.mark.parametrize("path", bad_files(PATHS_DIFFER | ACCEPTED))
def test_bad_file_fails_the_same_way_by_the_grammar_alone(path: Path) -> None:
    """The fast path must not change what is reported."""
    with pytest.raises(ParseError) as caught, parser_variant(fast=False):
        parse_file(path)
    assert [described(d) for d in caught.value.diagnostics] == [described(d) for d in diagnostics_of(path)]


@pytest.mark.parametrize("path", bad_files(ACCEPTED))
def test_bad_file_diagnostics_are_errors_located_in_the_file(path: Path) -> None:
    for d in diagnostics_of(path):
        assert d.is_error
        assert d.span is not None and d.span.file == str(path)
        assert "__ANON" not in d.message and "$END" not in d.message


def test_both_broken_actions_are_reported_in_source_order() -> None:
    found = diagnostics_of(BAD / "two_broken_actions.pddl")
    assert [(d.span.line, d.span.column) for d in found if d.span] == [(6, 17), (13, 28)]


def test_an_unclosed_parenthesis_at_the_end_is_pointed_at() -> None:
    found = diagnostics_of(BAD / "unclosed_at_end.pddl")
    assert ("E107", 3, 1) in [(d.code, d.span.line, d.span.column) for d in found if d.span]


# -------------------------------------------------------------------------------------------------
# Inputs written at test time


@pytest.mark.parametrize("text", ["", "   \n\t\n", "\n" * 3])
def test_an_empty_file_is_e100(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.pddl"
    path.write_text(text, encoding="utf-8")
    found = diagnostics_of(path)
    assert [described(d) for d in found] == [
        ("E100", 1, 1, "the file is empty (or has only comments): expected (define (domain NAME) ...) "
                       "or (define (problem NAME) ...)")]


def test_binary_garbage_is_a_clean_input_error(tmp_path: Path) -> None:
    path = tmp_path / "garbage.pddl"
    path.write_bytes(bytes(random.Random(0).randrange(256) for _ in range(4096)) + b"\x00")
    with pytest.raises(InputError) as caught:
        parse_file(path)
    (d,) = caught.value.diagnostics
    assert (d.code, d.span.line if d.span else None) == ("E002", 1)
    assert "not UTF-8 text" in d.message or "binary file" in d.message


def test_a_nul_byte_is_reported_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "nul.pddl"
    path.write_bytes(b"(define (domain d)\n  (:predicates \x00(p)))")
    with pytest.raises(InputError) as caught:
        parse_file(path)
    assert [described(d) for d in caught.value.diagnostics] == [
        ("E002", 2, 16, "this is a binary file, not text (it contains a NUL byte)")]


def test_control_characters_in_text_are_unexpected_characters() -> None:
    with pytest.raises(ParseError) as caught:
        parse_text("\x7f\x01ELF\x02", "garbage.pddl")
    code, line, column, message = described(caught.value.diagnostics[0])
    assert (code, line, column) == ("E101", 1, 1)
    assert message.startswith("unexpected character '\\x7f'")


def test_random_text_never_raises_anything_but_parse_error() -> None:
    rng = random.Random(7)
    alphabet = "()?:-=<>+*/#;\n \t abcdefghijklmnopqrstuvwxyz0123456789.@{}"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 120)))
        try:
            parse(Source(text, "random.pddl"))
        except ParseError as exc:
            assert exc.diagnostics and all(d.is_error for d in exc.diagnostics)


def test_100000_open_parentheses_are_a_clean_parse_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.pddl"
    path.write_text("(" * 100_000, encoding="utf-8")
    found = diagnostics_of(path)
    assert described(found[0]) == ("E103", 1, 2, "expected 'define' after '(', found '('")
    assert found[1].code == "E107"


def test_100000_nested_formulas_are_a_clean_parse_error(tmp_path: Path) -> None:
    path = tmp_path / "deep_domain.pddl"
    depth = 100_000
    path.write_text("(define (domain d)\n  (:action a :parameters ()\n    :precondition "
                    + "(and " * depth + ")" * depth + "\n    :effect (p)))\n", encoding="utf-8")
    found = diagnostics_of(path)
    code, line, _, message = described(found[0])
    assert (code, line) == ("E105", 3)
    assert message.startswith("formulas nest too deeply here")


def test_100000_nested_constraints_are_a_clean_parse_error() -> None:
    depth = 100_000
    text = "(define (domain d) (:constraints " + "(always " * depth + "(p)" + ")" * depth + "))"
    with pytest.raises(ParseError) as caught:
        parse_text(text, "deep.pddl")
    assert caught.value.diagnostics[0].code == "E105"


def test_a_parse_error_is_a_pddltools_error_with_a_readable_text() -> None:
    with pytest.raises(Error) as caught:
        parse_file(BAD / "missing_define.pddl")
    assert isinstance(caught.value, ParseError)
    assert str(caught.value).startswith(f"{BAD / 'missing_define.pddl'}:2:2: error[E103]: expected 'define'")
