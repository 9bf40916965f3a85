"""The LALR loops carry out Lark's callback wrappers themselves (`syntax/reductions.py`): on a grammar
with every kind of wrapper they build what Lark's own loop builds, compiled and in Python."""

from __future__ import annotations

from typing import Any

import pytest
from lark import Lark, Transformer
from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild

from pddltools.diagnostics import Source
from pddltools.pddl.parser import _parser
from pddltools.syntax.frozen import speedups
from pddltools.syntax.lalr import FastParser
from pddltools.syntax.reductions import LIST, direct_reductions

# anonymous tokens dropped, `[x]` placeholders (first, middle, last), `?rule` passing one child or
# calling its method, `x*` and `x+` lists spliced first or after other children, an alias
GRAMMAR = r"""
start: "(" "list" [NAME] item* ")" tail?
item: "[" [NAME] NUMBER+ [NAME] "]"
    | "<" value ">"                     -> angle
?value: NUMBER | "-" NUMBER | NAME "*" NUMBER
tail: NUMBER* ";"
NAME: /[a-z]+/
NUMBER: /[0-9]+/
%ignore /\s+/
"""


class Build(Transformer[Any, Any]):
    def start(self, c: list[Any]) -> tuple[Any, ...]:
        return ("start", *c)

    def item(self, c: list[Any]) -> tuple[Any, ...]:
        return ("item", *c)

    def angle(self, c: list[Any]) -> tuple[Any, ...]:
        return ("angle", *c)

    def value(self, c: list[Any]) -> tuple[Any, ...]:
        return ("value", *c)

    def tail(self, c: list[Any]) -> tuple[Any, ...]:
        return ("tail", *c)


def _plain(value: Any) -> Any:
    """Tokens as (type, text), whichever loop made them."""
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if hasattr(value, "type"):
        return (str(value.type), str(value.value))
    return value


TEXTS = [
    "(list)",
    "(list a)",
    "(list a [1] [b 2 3] [4 c] [d 5 6 e])",
    "(list <7> <- 8> <x * 9> [1]) ;",
    "(list [1 2 3 4 5 6 7 8]) 1 2 3 ;",
]


@pytest.mark.parametrize("compiled", [True, False] if speedups is not None else [False])
def test_the_loop_builds_what_larks_callbacks_build(compiled: bool) -> None:
    lark = Lark(GRAMMAR, parser="lalr", transformer=Build(), maybe_placeholders=True)
    driver = FastParser(lark, compiled=compiled)
    assert (driver.compiled is not None) == compiled
    for text in TEXTS:
        assert _plain(driver.parse(Source(text, "t"), "start")) == _plain(lark.parse(text)), text


def test_every_wrapper_of_the_toy_grammar_is_read_off() -> None:
    lark = Lark(GRAMMAR, parser="lalr", transformer=Build(), maybe_placeholders=True)
    callbacks = lark.parser.parser.parser.callbacks
    wrappers = {type(c) for c in callbacks.values()}
    assert {ChildFilterLALR, ExpandSingleChild} <= wrappers  # the grammar has what it is meant to test
    plans = direct_reductions(lark, callbacks)
    assert any(callback is LIST for callback, _ in plans.values())
    assert any(keep is not None and -1 in keep for _, keep in plans.values())
    assert any(keep is not None and min(keep) < -1 for _, keep in plans.values())
    for callback, _ in plans.values():
        assert not isinstance(callback, ChildFilterLALR | ChildFilterLALR_NoPlaceholders | ExpandSingleChild)


def test_pddl_reductions_call_the_builder_directly() -> None:
    """No rule of pddl.lark is left to Lark's wrappers (they would cost a call per reduction)."""
    for acts in _parser(True).driver.actions.values():
        for entry in acts.values():
            if entry.__class__ is tuple:
                assert not type(entry[0]).__module__.startswith("lark"), entry
