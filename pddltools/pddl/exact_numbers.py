"""Exact numbers: PDDL literals become `int` or `fractions.Fraction`, and print back unchanged.

Exactness has a price that grows with the size of a literal: `1e100000000` as a `Fraction` is an
integer of a hundred million digits, and printing `1e-99999` means dividing numbers of that size. So
a literal is refused (`NumberOutOfRange`) when its exact decimal form would need more than
`MAX_DIGITS` digits: the digits written plus the places its exponent shifts them. No planning task
needs more (the largest literals of the IPC corpus have a few dozen), and a bound that close to the
values keeps parsing, arithmetic and printing fast and below Python's int-to-string limit.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

#: The most digits the exact decimal form of a literal may have (`1e999` and `1e-999` are accepted,
#: `1e1000` is not).
MAX_DIGITS = 1000

# A literal as the grammar's NUMBER writes it, with an optional sign as plan files have.
_DECIMAL = re.compile(r"[+-]?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?", re.IGNORECASE | re.ASCII)
# An exponent of more digits than this is out of range whatever its mantissa (checked before int()).
_EXPONENT_DIGITS = len(str(MAX_DIGITS))


class NumberOutOfRange(ValueError):
    """A literal past `MAX_DIGITS`; the message says so in a user's words."""


def check_size(text: str) -> None:
    """Raise `NumberOutOfRange` if the literal `text` is past the bound (whatever else it is)."""
    m = _DECIMAL.fullmatch(text)
    if m is None:  # not a decimal (`1/3` in a plan file, say): bound the length of what is written
        if len(text) > 2 * MAX_DIGITS + 1:
            raise NumberOutOfRange(_message(text))
        return
    whole, fraction, exponent = m.group(1), m.group(2) or "", m.group(3)
    shift = 0
    if exponent is not None:
        if len(exponent.lstrip("+-").lstrip("0")) > _EXPONENT_DIGITS:
            raise NumberOutOfRange(_message(text))
        shift = abs(int(exponent))
    if len(whole) + len(fraction) + shift > MAX_DIGITS:
        raise NumberOutOfRange(_message(text))


def _message(text: str) -> str:
    shown = text if len(text) <= 24 else text[:12] + "..." + text[-8:]
    return (f"the number {shown} is out of range: pddltools reads numbers exactly, up to "
            f"{MAX_DIGITS:,} decimal digits (counting the places an exponent adds)")


# Numeric tasks repeat a few literals many times (`0`, `1.0`, a few durations); the values are immutable.
@lru_cache(maxsize=4096)
def parse_number(text: str) -> int | Fraction:
    """The exact value of a NUMBER literal; `NumberOutOfRange` past the bound."""
    if text.isascii() and (text.isdigit() or (text[:1] == "-" and text[1:].isdigit())):  # ints stay int
        if len(text.lstrip("-")) > MAX_DIGITS:
            raise NumberOutOfRange(_message(text))
        return int(text)
    whole, dot, fraction = text.partition(".")
    # A plain decimal (`12.75`, `-.5`, `3.`: no exponent, the common case in numeric `:init` and in
    # durations) is its digits over a power of ten: Fraction(int, int) is several times cheaper than
    # Fraction's string parser, and as exact. Anything else takes the general path below.
    digits = whole[1:] if whole[:1] == "-" else whole
    if (dot and (fraction.isdigit() or not fraction) and (digits.isdigit() or not digits) and (digits or fraction)
            and text.isascii() and len(digits) + len(fraction) <= MAX_DIGITS):
        return Fraction(int(whole + fraction), 10 ** len(fraction))
    check_size(text)
    return Fraction(text)


# What a user may write for a number outside PDDL text (a command-line option): a decimal with an
# optional exponent, or a ratio of whole numbers; ASCII only (not `1_000`, not Arabic-Indic digits).
_WRITTEN = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|[+-]?\d+/\d+", re.IGNORECASE | re.ASCII)


def read_number(text: str) -> int | Fraction:
    """The exact value of a number a user wrote (an option's value), within the bound of every number
    pddltools reads; `NumberOutOfRange` past it, `ValueError` for text that is not such a number."""
    text = text.strip()
    if _WRITTEN.fullmatch(text) is None:
        raise ValueError(f"{text!r} is not a number")
    check_size(text)
    if "/" in text:
        numerator, denominator = text.split("/")
        if int(denominator) == 0:
            raise ValueError(f"{text!r} divides by zero")
        return Fraction(int(numerator), int(denominator))
    return parse_number(text.removeprefix("+"))


def read_whole(text: str, digits: int) -> int | None:
    """A whole number of at most `digits` ASCII digits (an id), or None: `²` is a digit to
    `str.isdigit` but not to `int`, and 5,000 digits pass `int` only to fail when printed."""
    if text.isascii() and text.isdigit() and len(text) <= digits:
        return int(text)
    return None


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
