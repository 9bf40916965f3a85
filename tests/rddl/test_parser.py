"""The parser: what the grammar accepts, the AST it builds, and the errors it reports."""

from __future__ import annotations

from typing import Any

import pytest

from pddltools.diagnostics import Source
from pddltools.rddl import ast
from pddltools.rddl.parser import parse, parse_text
from pddltools.syntax.errors import ParseError
from pddltools.syntax.testing import parser_variant


def cpf_expr(expression: str) -> ast.Expr:
    """The AST of `expression` as the CPF of a one-fluent domain."""
    rddl = parse_text(f"domain d {{ cpfs {{ x' = {expression}; }}; }}")
    return rddl.blocks[0].cpfs[0].expr  # type: ignore[union-attr]


def p(name: str, *args: ast.Expr) -> ast.PVariable:
    return ast.PVariable(name, args)


def v(name: str) -> ast.Variable:
    return ast.Variable(name)


def binary(op: str, left: ast.Expr, right: ast.Expr) -> ast.Binary:
    return ast.Binary(op, left, right)


a, b, c, d = p("a"), p("b"), p("c"), p("d")


@pytest.mark.parametrize(("text", "expected"), [
    ("a + b * c", binary("+", a, binary("*", b, c))),
    ("a - b - c", binary("-", binary("-", a, b), c)),
    ("a / b * c", binary("*", binary("/", a, b), c)),
    ("a ^ b | c ^ d", binary("|", binary("^", a, b), binary("^", c, d))),
    ("a & b", binary("^", a, b)),
    ("a => b => c", binary("=>", binary("=>", a, b), c)),
    ("a <=> b => c", binary("<=>", a, binary("=>", b, c))),
    ("a == b ^ c < d", binary("^", binary("==", a, b), binary("<", c, d))),
    ("a + b == c", binary("==", binary("+", a, b), c)),
    ("~a ^ b", binary("^", ast.Unary("~", a), b)),
    ("~a == b", binary("==", ast.Unary("~", a), b)),
    ("-a * b", binary("*", ast.Unary("-", a), b)),
    ("- -a", ast.Unary("-", ast.Unary("-", a))),
    ("(a + b) * c", binary("*", binary("+", a, b), c)),
    ("[a + b] * c", binary("*", binary("+", a, b), c)),
    ("a ~= b", binary("~=", a, b)),
])
def test_operators_follow_rddl_precedence_and_associativity(text: str, expected: ast.Expr) -> None:
    assert cpf_expr(text) == expected


def test_prefix_forms_extend_as_far_right_as_they_can() -> None:
    body = binary("+", p("f", v("?x")), p("g"))
    assert cpf_expr("sum_{?x : t} f(?x) + g") == ast.Aggregation("sum", (ast.Binding("?x", "t"),), body)
    assert cpf_expr("a + sum_{?x : t} f(?x) + g") == binary(
        "+", a, ast.Aggregation("sum", (ast.Binding("?x", "t"),), body))
    assert cpf_expr("if (a) then b else c + d") == ast.IfThenElse(a, b, binary("+", c, d))
    # ~ binds tightly, yet the quantifier under it still takes the whole conjunction
    assert cpf_expr("~exists_{?y : t} a ^ b") == ast.Unary(
        "~", ast.Aggregation("exists", (ast.Binding("?y", "t"),), binary("^", a, b)))


def test_atoms_keep_their_kind() -> None:
    assert cpf_expr("1") == ast.Integer(1)
    assert cpf_expr(".5") == ast.Real(0.5)
    assert cpf_expr("2.") == ast.Real(2.0)
    assert cpf_expr("true") == ast.Boolean(True)
    assert cpf_expr("@high") == ast.EnumValue("@high")
    assert cpf_expr("$box") == ast.ObjectValue("box")
    assert cpf_expr("p'(?x, @a, $o)") == ast.PVariable(
        "p", (v("?x"), ast.EnumValue("@a"), ast.ObjectValue("o")), primed=True)
    assert cpf_expr("p()") == cpf_expr("p") == p("p")
    assert cpf_expr("MAX-X-POS") == p("MAX-X-POS")  # `-` belongs to names, as in RDDLSim


def test_aggregation_names_are_not_keywords() -> None:
    # `sum` is an ordinary name: an object or a pvariable may be called so
    assert cpf_expr("sum + 1") == binary("+", p("sum"), ast.Integer(1))
    assert cpf_expr("min_{?x : t} f(?x)") == ast.Aggregation(
        "min", (ast.Binding("?x", "t"),), p("f", v("?x")))


def test_switch_distributions_and_functions() -> None:
    assert cpf_expr("switch (m) { case @a : 1, default : 2 }") == ast.Switch(
        p("m"), (ast.SwitchCase(ast.EnumValue("@a"), ast.Integer(1)), ast.SwitchCase(None, ast.Integer(2))))
    assert cpf_expr("Discrete(e, @a : 0.3, @b : otherwise)") == ast.Discrete(
        "Discrete", "e", (ast.DiscreteCase("@a", ast.Real(0.3)), ast.DiscreteCase("@b", None)))
    assert cpf_expr("Discrete_{?c : card} P(?c)") == ast.Aggregation(
        "Discrete", (ast.Binding("?c", "card"),), p("P", v("?c")))
    assert cpf_expr("Normal(0, pow[a, 2])") == ast.Distribution(
        "Normal", (ast.Integer(0), ast.Function("pow", (a, ast.Integer(2)))))
    assert cpf_expr("cholesky[row=?i, col=?j][c]") == ast.MatrixOperation("cholesky", "?i", "?j", c)


def test_a_file_holds_several_blocks_and_joins_repeated_sections() -> None:
    rddl = parse_text("""
        domain d { pvariables { p : {state-fluent, bool, default = false}; };
                   pvariables { q : {action-fluent, bool, default = false}; }; cpfs { p' = q; }; reward = p; }
        non-fluents nf { domain = d; objects { t : {a, b}; }; }
        instance i { domain = d; non-fluents = nf; init-state { p; ~q; r = -2; s(a, @x) = pos-inf; };
                     max-nondef-actions = pos-inf; horizon = 3; discount = 1; }
    """)
    domain, nf, instance = rddl.blocks
    assert isinstance(domain, ast.Domain) and [x.name for x in domain.pvariables] == ["p", "q"]
    assert isinstance(nf, ast.NonFluents) and nf.objects == (ast.ObjectsDecl("t", ("a", "b")),)
    assert isinstance(instance, ast.Instance)
    assert instance.init_state == (
        ast.Assignment("p", (), ast.Boolean(True)),
        ast.Assignment("q", (), ast.Boolean(False)),
        ast.Assignment("r", (), ast.Integer(-2)),
        ast.Assignment("s", ("a", "@x"), ast.Real(float("inf"))),
    )
    assert instance.max_nondef_actions == ast.Real(float("inf"))
    assert instance.horizon == ast.Integer(3)


def test_spans_locate_nodes_and_take_no_part_in_equality() -> None:
    text = "domain d {\n  cpfs {\n    x' = a +\n         foo(?y);\n  };\n}\n"
    rddl = parse(Source(text, "f.rddl"))
    expr = rddl.blocks[0].cpfs[0].expr  # type: ignore[union-attr]
    assert isinstance(expr, ast.Binary)
    assert expr.right.span is not None
    assert (expr.right.span.file, expr.right.span.line, expr.right.span.column) == ("f.rddl", 4, 10)
    assert expr.right.span.text == "foo(?y)"
    assert expr == parse_text(text.replace("\n", " ")).blocks[0].cpfs[0].expr  # type: ignore[union-attr]
    assert hash(expr) == hash(ast.Binary("+", a, p("foo", v("?y"))))


def test_names_keep_their_case() -> None:
    assert cpf_expr("Foo") != cpf_expr("foo")


def syntax_error(text: str) -> tuple[str, str, int, int]:
    with pytest.raises(ParseError) as info:
        parse(Source(text, "bad.rddl"))
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.span is not None
    return diagnostic.code, diagnostic.message, diagnostic.span.line, diagnostic.span.column


def test_errors_say_what_was_expected_in_rddl_words() -> None:
    code, message, line, column = syntax_error("domain d {\n  cpfs { x' = a + ; };\n}")
    assert (code, message, line, column) == ("R100", "expected an expression, found ';'", 2, 19)
    code, message, *_ = syntax_error("domain d { cpfs { x' = a b; }; }")
    assert message == "expected '(', ';', '[', '_' or an operator, found 'b'"
    for text in ("domain d { cpfs { x' = a + ; }; }", "domain d { types { t : {@a @b}; }; }",
                 "instance i { horizon = ; }", "domain { }",
                 "domain d { cpfs { x' = if a then b else c; }; }"):
        message = syntax_error(text)[1]
        assert "__ANON" not in message and "Token(" not in message and "$END" not in message, message


def test_end_of_file_empty_file_and_stray_characters_are_clean_errors() -> None:
    assert syntax_error("domain d {\n  cpfs {")[:1] == ("R102",)
    assert syntax_error("") == (
        "R103", "no RDDL here: expected a domain, non-fluents or instance block", 1, 1)
    assert syntax_error("// just a comment\n")[0] == "R103"
    assert syntax_error("domain d { cpfs { x' = 1 % 2; }; }")[:2] == (
        "R101", "unexpected character '%': no RDDL token starts with it")
    assert syntax_error("domain d { cpfs { x' = \u00e9; }; }")[0] == "R101"


def test_deep_nesting_parses_without_recursion() -> None:
    deep = "~" * 50_000 + "a"
    expr = cpf_expr(deep)
    for _ in range(50_000):
        assert isinstance(expr, ast.Unary)
        expr = expr.operand
    assert expr == a
    assert cpf_expr("(" * 50_000 + "a" + ")" * 50_000) == a


#: The implementations compared with the default one, as `parser_variant` switches.
LEXERS: dict[str, dict[str, Any]] = {"grammar": {"fast": False}, "contextual": {"lark_lexer": "contextual"},
                                     "lark-loop": {"via_lark": True}}


@pytest.mark.parametrize("lexer", sorted(LEXERS))
def test_the_fast_path_and_lark_own_lexer_build_the_same_ast(lexer: str) -> None:
    text = """
        non-fluents nf {
            domain = d;
            objects { t : {a, b, $c}; };
            non-fluents {
                P(a, b) = 0.25; Q(a)   ;  // a comment between assignments
                /* and a block comment */ R = -3; S(@x, $c) = @y; T = pos-inf;
                ~U(a); V(a) = false; W = obj; X(b)=1.5e3;
                Y(a) = true; Z(a) = neg-inf; N = - 2.5;
            };
        }
        instance i { domain = d; non-fluents = nf; init-state { p(a); q = 2; }; horizon = 1; }
    """
    fast = parse_text(text)
    with parser_variant(**LEXERS[lexer]):
        other = parse_text(text)
    assert fast == other
    values = fast.blocks[0].values  # type: ignore[union-attr]
    assert [x.name for x in values] == list("PQRSTUVWXYZN")
    assert values[7] == ast.Assignment("W", (), ast.ObjectValue("obj"))
    assert values[8] == ast.Assignment("X", ("b",), ast.Real(1500.0))
    assert values[11] == ast.Assignment("N", (), ast.Real(-2.5))


def test_the_fast_path_leaves_mistakes_to_the_grammar() -> None:
    # a keyword where a pvariable name belongs must give the grammar's error, not be swallowed
    code, message, *_ = syntax_error("instance i { init-state { p(a); default(b); }; }")
    assert (code, message) == ("R100", "expected '}', '~' or a name, found the keyword 'default'")
    assert syntax_error("instance i { init-state { p(a) = ; }; }")[0] == "R100"


def test_the_lean_lalr_driver_is_used_when_pddltools_has_one() -> None:
    pytest.importorskip("pddltools.syntax.lalr")
    from pddltools.rddl.parser import _parser

    assert _parser("fast").driver is not None
    assert _parser("lark-loop").driver is None


def test_the_grammar_has_no_lalr_conflicts() -> None:
    # Lark would resolve a shift/reduce conflict silently (as a shift): the grammar must need none
    import io
    import logging

    import lark

    from pddltools.rddl.parser import grammar_text

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    level = lark.logger.level
    lark.logger.addHandler(handler)
    lark.logger.setLevel(logging.DEBUG)
    try:
        lark.Lark(grammar_text(), parser="lalr", maybe_placeholders=False, debug=True)
    finally:
        lark.logger.removeHandler(handler)
        lark.logger.setLevel(level)
    assert "conflict" not in stream.getvalue().lower()
