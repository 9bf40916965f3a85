"""A testing hook: which of the parsers' equivalent implementations `parse()` runs.

The public `parse()` functions have one behaviour; how they get there (the lexer's fast paths or the
grammar alone, the lean LALR loop or Lark's own, the compiled extension or the same code in Python)
is a property of the implementation that only tests and benchmarks compare. They choose it here:

    with parser_variant(fast=False):
        tree = parse(source)   # the grammar alone, to compare with the fast path's tree

The choice lives in a context variable, so it stays within the thread or task that made it.
"""

from __future__ import annotations

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


def parser_variant(*, fast: bool | None = None, via_lark: bool | None = None, compiled: bool | None = None,
                   lark_lexer: str | None = None) -> _VariantBlock:
    """Parse with another implementation inside the block; unnamed switches keep their current value."""
    changes = {k: v for k, v in (("fast", fast), ("via_lark", via_lark), ("compiled", compiled),
                                 ("lark_lexer", lark_lexer)) if v is not None}
    return _VariantBlock(changes)


class _VariantBlock:
    """`parser_variant`'s block: the variant set on entry, the one before it set again on exit. A class,
    not `contextlib.contextmanager`: every parse imports this module, and a `validate` run imports
    `contextlib` for nothing else."""

    def __init__(self, changes: dict[str, bool | str]) -> None:
        self._changes = changes

    def __enter__(self) -> Variant:
        self._token = _current.set(replace(current_variant(), **self._changes))  # type: ignore[arg-type]
        return _current.get()

    def __exit__(self, *exception: object) -> None:
        _current.reset(self._token)
