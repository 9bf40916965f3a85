"""Exact numbers: PDDL literals become `int` or `fractions.Fraction`, and print back unchanged."""

from __future__ import annotations

from fractions import Fraction


def parse_number(text: str) -> int | Fraction:
    if text.isdigit():
        return int(text)
    return Fraction(text)


def format_number(value: int | Fraction | float) -> str:
    """The shortest decimal literal for `value`; a fraction with no finite decimal form is written as
    the PDDL division `(/ p q)`."""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return f"(/ {value.numerator} {value.denominator})"
    places = max(twos, fives)
    scaled = abs(value.numerator) * 10**places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    sign = "-" if value < 0 else ""
    return f"{sign}{digits[:-places]}.{digits[-places:]}"
