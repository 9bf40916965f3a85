"""A testing hook: which of the parsers' equivalent implementations `parse()` runs.

The public `parse()` functions have one behaviour; how they get there (the lexer's fast paths or the
grammar alone, the lean LALR loop or Lark's own, the compiled extension or the same code in Python)
is a property of the implementation that only tests and benchmarks compare. They choose it here:

    with parser_variant(fast=False):
        tree = parse(source)   # the grammar alone, to compare with the fast path's tree

The choice lives in a context variable, so it stays within the thread or task that made it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Variant:
    """fast: the lexer's fast paths (False: the grammar alone); via_lark: Lark's own parse loop instead
    of `syntax.lalr`'s; compiled: the compiled extension where it is built (False: the Python code);
    lark_lexer: one of Lark's own lexers by name (RDDL only: to compare with Lark's)."""

    fast: bool = True
    via_lark: bool = False
    compiled: bool = True
    lark_lexer: str | None = None


DEFAULT = Variant()
_current: ContextVar[Variant] = ContextVar("pddltools.syntax.variant", default=DEFAULT)


def current_variant() -> Variant:
    return _current.get()


@contextmanager
def parser_variant(*, fast: bool | None = None, via_lark: bool | None = None, compiled: bool | None = None,
                   lark_lexer: str | None = None) -> Iterator[Variant]:
    """Parse with another implementation inside the block; unnamed switches keep their current value."""
    variant = current_variant()
    changes = {k: v for k, v in (("fast", fast), ("via_lark", via_lark), ("compiled", compiled),
                                 ("lark_lexer", lark_lexer)) if v is not None}
    token = _current.set(replace(variant, **changes))  # type: ignore[arg-type]
    try:
        yield _current.get()
    finally:
        _current.reset(token)
