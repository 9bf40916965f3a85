"""The printer: RDDL text that parses back to the same AST, with as few brackets as precedence allows."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.rddl import ast
from pddltools.rddl.parser import parse_text
from pddltools.rddl.printer import format_expr, format_number

from .test_parser import a, b, binary, c, cpf_expr, p


def test_brackets_only_where_precedence_needs_them() -> None:
    assert format_expr(binary("*", binary("+", a, b), c)) == "(a + b) * c"
    assert format_expr(binary("+", a, binary("*", b, c))) == "a + b * c"
    assert format_expr(binary("-", a, binary("-", b, c))) == "a - (b - c)"
    assert format_expr(binary("-", binary("-", a, b), c)) == "a - b - c"
    assert format_expr(ast.Unary("~", binary("^", a, b))) == "~(a ^ b)"
    assert format_expr(ast.Unary("-", ast.Unary("-", a))) == "- -a"


def test_prefix_forms_are_bracketed_as_operands() -> None:
    total = ast.Aggregation("sum", (ast.Binding("?x", "t"),), p("f", ast.Variable("?x")))
    text = format_expr(binary("+", total, b))
    assert text == "(sum_{?x : t} f(?x)) + b"
    assert cpf_expr(text) == binary("+", total, b)
    choice = ast.IfThenElse(a, b, c)
    assert cpf_expr(format_expr(binary("*", choice, a))) == binary("*", choice, a)


def test_numbers_print_without_exponents_and_reals_keep_a_point() -> None:
    assert format_number(1e-05) == "0.00001"
    assert format_number(1e20) == "100000000000000000000.0"
    assert format_number(2.0) == "2.0"
    assert format_number(7) == "7"
    assert format_number(math.inf) == "pos-inf"
    assert format_number(-math.inf) == "neg-inf"
    assert cpf_expr(format_number(0.1 + 0.2)) == ast.Real(0.1 + 0.2)


def test_a_whole_file_prints_back_to_the_same_ast() -> None:
    text = """
        domain d {
            requirements = {concurrent};
            types { t : object; u : t; e : {@a, @b}; };
            pvariables { P(t) : {non-fluent, real, default = -1.5}; s(t) : {state-fluent, e, default = @a}; };
            cdfs { s'(?x) = if (P(?x) > 0) then @b else s(?x); };
            reward = sum_{?x : t} [P(?x) * (s(?x) == @a)];
            state-invariants { forall_{?x : u} P(?x) < 3; };
        }
        instance i { domain = d; objects { t : {x1, x2}; }; init-state { s(x1) = @b; };
                     max-nondef-actions = pos-inf; horizon = 4; discount = 0.5; }
    """
    rddl = parse_text(text)
    printed = str(rddl)
    assert parse_text(printed) == rddl
    assert "cdfs {" in printed and "u : t;" in printed and "max-nondef-actions = pos-inf;" in printed
    assert str(parse_text(printed)) == printed  # printing is stable


# ---------------------------------------------------------------------------------------------------
# property: any expression the AST can hold prints to text that parses back to it

names = st.sampled_from(["a", "b", "x-pos", "Q"])
leaves = st.one_of(
    st.builds(ast.Integer, st.integers(min_value=0, max_value=10**6)),
    st.builds(ast.Real, st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)),
    st.builds(ast.Boolean, st.booleans()),
    st.builds(ast.Variable, st.sampled_from(["?x", "?y"])),
    st.builds(ast.EnumValue, st.sampled_from(["@low", "@high"])),
    st.builds(ast.ObjectValue, st.sampled_from(["box", "room-1"])),
    st.builds(ast.PVariable, names),
)
binary_ops = st.sampled_from([op for level in ast.BINARY_LEVELS for op in level])
bindings = st.lists(st.builds(ast.Binding, st.sampled_from(["?x", "?y"]), st.sampled_from(["t", "u"])),
                    min_size=1, max_size=2).map(tuple)


def extend(children: st.SearchStrategy[ast.Expr]) -> st.SearchStrategy[ast.Expr]:
    args = st.lists(children, min_size=1, max_size=3).map(tuple)
    return st.one_of(
        st.builds(ast.Binary, binary_ops, children, children),
        st.builds(ast.Unary, st.sampled_from(["-", "+", "~"]), children),
        st.builds(ast.PVariable, names, args, st.booleans()),
        st.builds(ast.Aggregation, st.sampled_from(["sum", "exists", "argmax", "Discrete"]),
                  bindings, children),
        st.builds(ast.IfThenElse, children, children, children),
        st.builds(ast.Function, st.sampled_from(["exp", "pow"]), args),
        st.builds(ast.Distribution, st.sampled_from(["Normal", "Bernoulli"]), args),
        st.builds(ast.Switch, children, st.lists(st.builds(ast.SwitchCase, st.none() | children, children),
                                                 min_size=1, max_size=2).map(tuple)),
    )


expressions = st.recursive(leaves, extend, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(expressions)
def test_printing_any_expression_parses_back_to_it(expr: ast.Expr) -> None:
    assert cpf_expr(format_expr(expr)) == expr
