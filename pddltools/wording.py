"""Counts in words, for every command's messages and the report: "1 domain", "2 domains", "1 problem solved"."""

from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, plural unless `n` is 1; `plural` for nouns that do not just take an s."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
