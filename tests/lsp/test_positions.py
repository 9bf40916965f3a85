"""`Positions` gives the same LSP positions whether it counts newlines (a few offsets, before its index
of line starts is built) or looks them up in that index, in any order of offsets and any encoding."""

from __future__ import annotations

import random

from lsprotocol import types as lsp

from pddltools.lsp.positions import Positions

TEXT = "(define (problem p)\n  (:init (at a b))\r\n\n  ; é 𝄞 comment\n  (:goal (at a 𝄞)))\n" * 40


def indexed(offset: int, encoding: str) -> lsp.Position:
    positions = Positions(TEXT, encoding)
    assert positions.starts[1] == TEXT.index("\n") + 1  # the index, built first
    return positions.position(offset)


def test_counting_and_the_index_agree_in_any_order() -> None:
    rng = random.Random(31)
    for encoding in ("utf-16", "utf-8", "utf-32"):
        offsets = [0, len(TEXT), len(TEXT) + 5, -3, TEXT.index("é") + 1, TEXT.index("𝄞") + 1]
        offsets += [rng.randrange(len(TEXT)) for _ in range(300)]
        for order in (sorted(offsets), offsets, sorted(offsets, reverse=True)):
            counting = Positions(TEXT, encoding)
            for offset in order:  # past two readings of the text, it builds the index midway
                assert counting.position(offset) == indexed(offset, encoding), (encoding, offset)
    position = Positions(TEXT).position(TEXT.index("(:goal"))
    assert position == lsp.Position(line=4, character=2)
