"""Bad input of any shape gives diagnostics, never a traceback: random token soup through the parser,
and whatever parses through the type checker and the printer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.rddl import ast
from pddltools.rddl.parser import RDDLSyntaxError, parse_text
from pddltools.rddl.printer import format_expr, format_file
from pddltools.rddl.typecheck import check

from .test_printer import expressions

PIECES = [
    "domain d {", "instance i {", "non-fluents nf {", "}", "};", "{", "(", ")", "[", "]", ";", ",", ":",
    "=", "'", "_", "types", "pvariables", "cpfs", "reward", "objects", "init-state", "horizon",
    "t : object;", "e : {@a, @b};", "p(t) : { state-fluent, bool, default = false };",
    "q : { interm-fluent, int, level = 1 };", "a : { action-fluent, bool, default = false };",
    "p'(?x) =", "q =", "p(?x)", "q", "?x", "@a", "$o", "1", "2.5", "true", "~", "^", "|", "+", "-", "*",
    "==", "<=", "=>", "if (", ") then", "else", "sum_{?x : t}", "exists_{?y : t}", "Bernoulli(",
    "Discrete(e, @a : 0.5, @b : otherwise)", "switch (q) { case 1 : 2, default : 3 }", "pow[q, 2]",
    "domain = d;", "non-fluents = nf;", "p(o);", "~p(o);", "q = 3;", "// c\n", "/* c */", "#", "\x00",
    "\u00e9", "\n",
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40))
def test_token_soup_gives_a_syntax_error_or_a_checkable_ast(pieces: list[str]) -> None:
    text = " ".join(pieces)
    try:
        rddl = parse_text(text, "soup.rddl")
    except RDDLSyntaxError as exc:
        assert exc.diagnostics and all(d.code.startswith("R1") for d in exc.diagnostics)
        return
    for diagnostic in check([rddl]):
        assert diagnostic.code.startswith("R2") and diagnostic.message
    assert parse_text(format_file(rddl)) == rddl


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_gives_a_syntax_error_or_an_ast(text: str) -> None:
    try:
        parse_text(text)
    except RDDLSyntaxError as exc:
        assert exc.diagnostics[0].span is not None


DOMAIN = """
domain d {{
    types {{ t : object; u : t; e : {{@low, @high}}; }};
    pvariables {{
        a : {{ state-fluent, bool, default = false }};
        b(t) : {{ state-fluent, real, default = 0 }};
        x-pos : {{ interm-fluent, e, level = 1 }};
        Q(u, e) : {{ non-fluent, int, default = 1 }};
    }};
    cpfs {{ a' = {0}; b'(?x) = {0}; x-pos = {0}; }};
    reward = {0};
}}
instance i {{ domain = d; objects {{ t : {{box}}; u : {{room-1}}; }}; horizon = 1; }}
"""


@settings(max_examples=300, deadline=None)
@given(expressions)
def test_the_checker_types_any_expression_without_crashing(expr: ast.Expr) -> None:
    text = DOMAIN.format(format_expr(expr))
    for diagnostic in check([parse_text(text, "random.rddl")]):
        assert diagnostic.code.startswith("R2") and diagnostic.span is not None
