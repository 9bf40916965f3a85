"""Counts in words, for every command's messages and the report: "1 domain", "2 domains", "1 problem solved";
and names in the order a reader expects them (instance-2 before instance-10)."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"([0-9]+)")


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, plural unless `n` is 1; `plural` for nouns that do not just take an s."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def natural(text: str) -> tuple[tuple[int, str], ...]:
    """A sort key putting instance-2 before instance-10: runs of ASCII digits compare by value (their
    length without leading zeros, then their digits: no int is made of a 5,000-digit name, and `²`, a
    digit to `str.isdigit`, stays text), the rest as text."""
    parts = _DIGITS.split(text)  # text, digits, text, ...: each position holds one kind
    return tuple((len(part.lstrip("0")), part.lstrip("0")) if i % 2 else (-1, part) for i, part in enumerate(parts))
