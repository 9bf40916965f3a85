"""Compiled hot paths of the PDDL parser (pddltools/syntax/_speedups.c); optional, see pddltools/syntax/frozen.py."""

from collections.abc import Callable
from typing import Any

from pddltools.diagnostics import Source

class Maker:
    """A positional constructor of a frozen, slotted dataclass that writes its slots directly."""

    def __init__(self, cls: type, field_names: tuple[str, ...], defaults: tuple[object, ...] = ()) -> None: ...
    def __call__(self, *args: Any) -> Any: ...

def without_collector(cls: type) -> bool: ...

class SpanOf:
    """The getter of a node's span: the anchor in one slot moved by the offset in another."""

    def __init__(self, cls: type, anchor_slot: object, offset_slot: object, span_maker: Maker) -> None: ...
    def __call__(self, node: Any) -> Any: ...

class FlatScanner:
    """A run of flat literals (or init elements) at an offset: (nodes, end) or None.

    The constructors must be Makers (checked when it is built): `frozen.fast_constructor` returns one
    wherever this module is built, typed as the plain callable it is."""

    def __init__(self, classes: bytes, comment_start: int, comment_end: int, variable_prefix: int, open: int,
                 close: int, negation: str, equals: str, init_mode: bool, hard: frozenset[str],
                 span: Callable[..., object], atom: Callable[..., object],
                 not_: Callable[..., object], constant: Callable[..., object], variable: Callable[..., object],
                 function_term: Callable[..., object], init_assignment: Callable[..., object],
                 number: Callable[..., object], number_value: Callable[[str], object],
                 fallback: Callable[[str, int, Source], tuple[object, int] | None],
                 anchors_of: Callable[[Source], object] | None = None) -> None: ...
    def __call__(self, text: str, pos: int, source: Source) -> tuple[tuple[object, ...], int] | None: ...

class Driver:
    """The LALR loop of pddltools.syntax.lalr.FastParser over its tables, numbered."""

    def __init__(self, *, match: Callable[[str, int], Any], group_terminals: tuple[int, ...],
                 terminal_names: tuple[str, ...], keywords: tuple[dict[str, int] | None, ...], nstates: int,
                 action: bytes, nnonterminals: int, goto: bytes,
                 rules: tuple[tuple[Any, int, int, tuple[int, ...] | None, bool], ...],
                 error_terminal: int, trigger_terminal: int,
                 fast_paths: tuple[tuple[int, Callable[[str, int, Source], tuple[object, int] | None]], ...],
                 max_stack: int, token: Maker,
                 automaton: tuple[bytes, int, bytes, bytes, tuple[int, ...]] | None = None) -> None: ...
    def run(self, text: str, start_state: int, source: Source, lower_each: bool
            ) -> tuple[list[int], list[Any], tuple[Any, ...] | None]: ...
