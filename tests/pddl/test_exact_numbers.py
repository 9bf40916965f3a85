"""`parse_number` against Python's own exact reading of a decimal, and its bound."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.pddl.exact_numbers import MAX_DIGITS, NumberOutOfRange, parse_number

_digits = st.text(alphabet="0123456789", max_size=30)


@st.composite
def decimals(draw: st.DrawFn) -> str:
    """Literals as the grammar's NUMBER writes them: sign, digits, point, digits, exponent."""
    whole, fraction = draw(_digits), draw(_digits)
    if not whole and not fraction:
        whole = "0"
    text = draw(st.sampled_from(["", "-"])) + whole
    if fraction or draw(st.booleans()):
        text += "." + fraction
    if draw(st.booleans()):
        text += "e" + draw(st.sampled_from(["", "+", "-"])) + str(draw(st.integers(0, 40)))
    return text


@settings(max_examples=300, deadline=None)
@given(decimals())
def test_parse_number_is_the_exact_value(text: str) -> None:
    value = parse_number(text)
    assert value == Fraction(text)
    # integers written without point or exponent stay int; everything else is a Fraction
    assert type(value) is (int if "." not in text and "e" not in text else Fraction)


@pytest.mark.parametrize("text", ["1." + "0" * MAX_DIGITS, "-" + "9" * MAX_DIGITS + ".5", "." + "1" * (MAX_DIGITS + 1)])
def test_long_plain_decimals_are_out_of_range(text: str) -> None:
    with pytest.raises(NumberOutOfRange):
        parse_number(text)


def test_plain_decimal_at_the_bound_is_read() -> None:
    text = "1." + "0" * (MAX_DIGITS - 1)
    assert parse_number(text) == 1
