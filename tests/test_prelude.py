"""A leading `(in-package "PDDL")` (IPC-1998 mystery) is skipped with warning W104, and nothing else is."""

from __future__ import annotations

import pytest

from pddltools.diagnostics import Diagnostic, Source
from pddltools.pddl import ast
from pddltools.pddl.parser import parse
from pddltools.syntax.errors import ParseError

DOMAIN = "(define (domain d) (:predicates (p)))"


def test_the_form_is_skipped_with_a_located_warning_and_spans_stay_right() -> None:
    text = ';; IPC-1998\n(in-package "PDDL")\n\n' + DOMAIN
    warnings: list[Diagnostic] = []
    domain = parse(Source(text, "mystery.pddl"), "domain", warnings=warnings)
    assert isinstance(domain, ast.Domain) and domain.name == "d"
    (said,) = warnings
    assert said.code == "W104" and said.span is not None
    assert (said.span.line, said.span.column, said.span.text) == (2, 1, '(in-package "PDDL")')
    assert domain.span is not None and (domain.span.line, domain.span.column) == (4, 1)


@pytest.mark.parametrize("text", [
    DOMAIN + '\n(in-package "PDDL")',  # only before the domain
    '(in-package (nested))\n' + DOMAIN,  # only the plain form
])
def test_anything_else_is_still_a_syntax_error(text: str) -> None:
    with pytest.raises(ParseError):
        parse(Source(text), "domain")


def test_long_comment_runs_before_a_file_without_the_form_are_read_once() -> None:
    # The prelude's pattern is possessive: this took exponential time with a plain `(\s|;[^\n]*)*`.
    text = ";" * 3000 + "\n" + "   ;;;;;;;;\n" * 200 + DOMAIN
    warnings: list[Diagnostic] = []
    assert isinstance(parse(Source(text), "domain", warnings=warnings), ast.Domain)
    assert warnings == []

