"""Bad input of any shape gives diagnostics, never a traceback: random token soup through the parser,
and whatever parses through the type checker and the printer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.rddl import ast
from pddltools.rddl.parser import parse_text
from pddltools.rddl.printer import format_expr, format_file
from pddltools.rddl.typecheck import check
from pddltools.syntax.errors import ParseError

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
    except ParseError as exc:
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
    except ParseError as exc:
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


# ---------------------------------------------------------------------------------------------------
# Hostile inputs (issue 21), through both loops: the compiled one and the Python one over the same tables


@contextmanager
def python_loop() -> Iterator[None]:
    """The RDDL parser with a Python `FastParser` in the place of its compiled loop."""
    from pddltools.rddl import parser as rddl_parser
    from pddltools.syntax.lalr import FastParser

    parser = rddl_parser._parser("fast")
    saved = parser.driver
    assert saved is not None
    compiled, errors = saved
    parser.driver = (FastParser(parser.lark, trigger=rddl_parser.RDDLLexer.fast_trigger,
                                fast_paths=compiled.fast_paths, compiled=False), errors)
    try:
        yield
    finally:
        parser.driver = saved


def outcome(text: str) -> tuple[object, ...]:
    """("tree", the text printed, printed again after parsing that) or ("error", diagnostics)."""
    try:
        rddl = parse_text(text, "hostile.rddl")
    except ParseError as exc:
        return ("error", [d.to_json() for d in exc.diagnostics])
    printed = format_file(rddl)
    return ("tree", printed, format_file(parse_text(printed, "printed.rddl")))


def assert_both_loops_agree(text: str) -> tuple[object, ...]:
    compiled = outcome(text)
    with python_loop():
        assert outcome(text) == compiled
    if compiled[0] == "error":
        diagnostics = compiled[1]
        assert isinstance(diagnostics, list)
        assert all(d["line"] and d["column"] for d in diagnostics), diagnostics
    else:
        assert compiled[1] == compiled[2], "what fmt prints does not print the same once parsed"
    return compiled


RDDL_NUMBERS = st.builds(
    lambda digits, count, fraction, exponent: (digits * count)[:count] + fraction + exponent,
    st.sampled_from(["1", "9", "12", "70"]), st.sampled_from([1, 3, 309, 310, 999, 1000, 1001, 4301, 5000]),
    st.sampled_from(["", ".0", ".5", "." + "0" * 400 + "1"]),
    st.sampled_from(["", "e0", "e308", "e309", "e999", "e-999", "e-400", "E+5", "e" + "9" * 30]))
NUMBER_PLACES = [
    "domain d {{ pvariables {{ x : {{ state-fluent, real, default = {0} }}; }}; cpfs {{ x' = x + {0}; }}; "
    "reward = -{0} * x; }}",
    "domain d {{ pvariables {{ n : {{ non-fluent, int, default = 0 }}; x : {{ state-fluent, real, default = 0 }}; }}; "
    "cpfs {{ x' = if (x > {0}) then {0} else n; }}; reward = x; }}\n"
    "non-fluents nf {{ domain = d; non-fluents {{ n = {0}; }}; }}",
]


@settings(max_examples=150, deadline=None)
@given(RDDL_NUMBERS, st.sampled_from(NUMBER_PLACES))
def test_numbers_of_any_size_are_refused_located_or_printed_back(number: str, place: str) -> None:
    assert_both_loops_agree(place.format(number))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NUMBER_PLACES), st.integers(0, 10_000), st.text(alphabet="/*\n ab;{}", max_size=30),
       st.integers(0, 3000))
def test_an_unterminated_comment_is_reported_where_it_opens(place: str, cut: int, tail: str, newlines: int) -> None:
    """`/*` and no `*/` after it, anywhere in a file: a located error (R108 where it opens, unless an
    earlier error stops the parse first), found without backtracking over the rest of the file."""
    text = place.format("1.5")
    cut = min(cut, len(text))
    tail = tail.replace("*/", "* /")
    found = assert_both_loops_agree(text[:cut] + "/*" + "\n" * newlines + tail)
    assert found[0] == "error"


def test_a_long_flat_sum_is_checked_and_printed() -> None:
    """3,000 terms: a left-deep tree as long as the sum, walked in loops, not 3,000 levels of recursion."""
    text = ("domain d { pvariables { x : { state-fluent, int, default = 0 }; }; cpfs { x' = x; }; reward = "
            + " + ".join(["x"] * 3000) + " - 1 * x; }")
    assert check([parse_text(text)]) == []
    found = assert_both_loops_agree(text)
    assert found[0] == "tree"


def test_enum_ranges_are_bounded() -> None:
    domain = ("domain d {{ types {{ t : {{@{}..@{}}}; }}; pvariables {{ p : {{ state-fluent, bool, default = false }}; "
              "}}; cpfs {{ p' = p; }}; reward = 0; }}")
    found = assert_both_loops_agree(domain.format(1, 100_000))
    assert found[0] == "tree"
    for low, high, code in ((1, 100_001, "R109"), (0, 3_000_000, "R109"), (1, "9" * 5000, "R109"),
                            ("9" * 5000, 1, "R107")):
        found = assert_both_loops_agree(domain.format(low, high))
        assert found[0] == "error" and found[1][0]["code"] == code  # type: ignore[index]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NUMBER_PLACES), st.lists(st.tuples(st.integers(0, 10_000), st.booleans()), min_size=1,
                                                max_size=4))
def test_swapped_brackets_fail_alike_and_located(place: str, swaps: list[tuple[int, bool]]) -> None:
    """Brackets turned round (`(` for `)`, `{` for `}`) or moved into the next token, through both loops."""
    chars = list(place.format("2"))
    brackets = [i for i, c in enumerate(chars) if c in "(){}[]"]
    turned = {"(": ")", ")": "(", "{": "}", "}": "{", "[": "]", "]": "["}
    for index, turn in swaps:
        i = brackets[index % len(brackets)]
        if turn:
            chars[i] = turned.get(chars[i], chars[i])  # a bracket moved away left something else here
        elif i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
    assert_both_loops_agree("".join(chars))
