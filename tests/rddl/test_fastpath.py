"""The fast path for runs of ground assignments gives the AST the grammar alone gives, on any run."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.rddl.parser import parse_text
from pddltools.syntax.errors import ParseError
from pddltools.syntax.testing import parser_variant

names = st.sampled_from(["p", "P-2", "on", "x_y", "true", "default", "level", "sum"])
terms = st.sampled_from(["a", "b-1", "$c", "@e", "true", "object"])
values = st.sampled_from(["", " = 1", " = -2", " = - 0.5", " = 3.25", " = .5", " = true", " = false",
                          " = pos-inf", " = neg-inf", " = @v", " = obj", " = $obj", " = if", " =", " = 1e3"])
spaces = st.sampled_from(["", " ", "\n", "\t", " // note\n", " /* c */ "])


@st.composite
def assignment(draw: st.DrawFn) -> str:
    negated = draw(st.sampled_from(["", "", "~"]))
    args = draw(st.lists(terms, max_size=3))
    separator = draw(st.sampled_from([", ", ",", " ,\n ", ", /* c */ "]))
    arguments = f"({separator.join(args)})" if args else draw(st.sampled_from(["", "()"]))
    value = "" if negated else draw(values)
    return f"{negated}{draw(names)}{draw(spaces)}{arguments}{value};{draw(spaces)}"


@settings(max_examples=400, deadline=None)
@given(st.lists(assignment(), max_size=6), st.sampled_from(["init-state", "non-fluents"]))
def test_any_run_of_assignments_parses_the_same_on_both_paths(lines: list[str], section: str) -> None:
    block = "instance" if section == "init-state" else "non-fluents"
    text = f"{block} b {{ {section} {{ {''.join(lines)} }}; }}"
    outcomes = []
    for lexer in ("fast", "grammar"):
        try:
            with parser_variant(fast=lexer == "fast"):
                outcomes.append(parse_text(text))
        except ParseError as exc:
            outcomes.append(tuple((d.code, d.message, d.span.start if d.span else None)
                                  for d in exc.diagnostics))
    assert outcomes[0] == outcomes[1]
