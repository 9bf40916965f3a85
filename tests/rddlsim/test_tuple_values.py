"""RDDL2 tuple values on the wire: every tuple the Java server sent in the RDDL2 capture reads back into a
`Vector` and prints again byte for byte, so our server spells them as RDDLSim does."""

from __future__ import annotations

import html
import re

import pytest

from pddltools.rddl_simulation.tuples import Vector
from pddltools.rddlsim import protocol

from .conftest import capture, frames


def test_every_captured_tuple_value_reads_back_and_prints_the_same() -> None:
    text = b"".join(frames(capture("session-rddl2-values.jsonl"), "S->C")).decode("ascii")
    values = [html.unescape(v) for v in re.findall(r"<fluent-value>([^<]*)</fluent-value>", text)]
    tuples = [v for v in values if v.startswith("<")]
    assert len(tuples) == 54  # 6 turns x (4 randDir + 4 randMult + 1 randMatrix)
    for value in tuples:
        assert protocol.format_value(protocol.parse_tuple(value)) == value


def test_a_tuple_reads_into_labels_and_typed_members() -> None:
    matrix = protocol.parse_value("< $col1: < @x: 2.5, @y: 20 >, $col2: < @x: 1.0E-4, @y: 0 > >", "matrix-2d")
    assert matrix == Vector((("col1", Vector((("@x", 2.5), ("@y", 20)))),
                             ("col2", Vector((("@x", 1e-4), ("@y", 0))))))
    assert protocol.format_value(matrix) == "< $col1: < @x: 2.5, @y: 20 >, $col2: < @x: 1.0E-4, @y: 0 > >"


@pytest.mark.parametrize("text", ["< @1: 2", "< @1 2 >", "< @1: 2 > >", "<>"])
def test_a_broken_tuple_is_a_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        protocol.parse_tuple(text)
