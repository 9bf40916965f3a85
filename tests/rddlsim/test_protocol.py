"""Framing and messages: every frame of the captures decodes and encodes back to the same bytes."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.rddlsim import protocol
from pddltools.rddlsim.protocol import (
    Actions,
    MessageTooLarge,
    ProtocolError,
    RoundEnd,
    SessionEnd,
    SessionInit,
    SessionRequest,
    Turn,
)

from .conftest import capture, frames

CAPTURES = ["session-sysadmin-mdp.jsonl", "session-pomdp.jsonl", "session-rddl2-values.jsonl"]


@pytest.mark.parametrize("name", CAPTURES)
@pytest.mark.parametrize("direction", ["C->S", "S->C"])
def test_every_captured_frame_round_trips_byte_for_byte(name: str, direction: str) -> None:
    messages = frames(capture(name), direction)
    assert messages
    for frame in messages:
        assert protocol.encode(protocol.decode(frame)) == frame


def test_captured_values_decode_as_documented() -> None:
    server = [protocol.decode(f) for f in frames(capture("session-sysadmin-mdp.jsonl"), "S->C")]
    init = server[0]
    assert isinstance(init, SessionInit) and init.num_rounds == 2 and init.time_allowed == 1080000.0
    turns = [m for m in server if isinstance(m, Turn)]
    assert turns[0].immediate_reward == 0.0 and turns[1].immediate_reward == 9.25
    assert turns[0].fluents is not None and turns[0].fluents[0] == ("running", ("c1",), "true")
    ends = [m for m in server if isinstance(m, RoundEnd)]
    assert [e.round_num for e in ends] == [0, 1] and [e.turns_used for e in ends] == [40, 40]
    assert isinstance(server[-1], SessionEnd) and server[-1].total_reward == 497.25
    pomdp = [protocol.decode(f) for f in frames(capture("session-pomdp.jsonl"), "S->C")]
    first_turn = next(m for m in pomdp if isinstance(m, Turn))
    assert first_turn.fluents is None
    client = [protocol.decode(f) for f in frames(capture("session-pomdp.jsonl"), "C->S")]
    assert isinstance(client[0], SessionRequest) and client[0].problem_name == "sysadmin_inst_pomdp__1"
    assert Actions() in client


@pytest.mark.parametrize(("value", "text"), [
    (9.25, "9.25"), (1e-4, "1.0E-4"), (204.40000000000015, "204.40000000000015"), (1079752.0, "1079752.0"),
    (1e7, "1.0E7"), (0.001, "0.001"), (-3.5e-9, "-3.5E-9"), (0.0, "0.0"), (-0.0, "-0.0"),
    (123456789.5, "1.234567895E8"), (float("inf"), "Infinity"), (float("nan"), "NaN"),
])
def test_numbers_print_as_java_doubles(value: float, text: str) -> None:
    assert protocol.java_double(value) == text


def test_values_read_as_rddlsim_reads_them() -> None:
    assert protocol.parse_value("true", "bool") is True
    assert protocol.parse_value("yes", "bool") is False  # Boolean.valueOf
    assert protocol.parse_value("3", "int") == 3 and protocol.parse_value("2.5", "real") == 2.5
    assert protocol.parse_value("@fast", "mode") == "@fast"
    with pytest.raises(ValueError):
        protocol.parse_value("three", "int")


@pytest.mark.parametrize(("data", "code"), [
    (b"<round-request>", "R350"),
    (b"<?xml version='1.0'?><hello/>", "R352"),
    (b"<turn><turn-num>x</turn-num></turn>", "R351"),
    (b'<!DOCTYPE a [<!ENTITY b "bbbbbbbbbbbbbbbbb"><!ENTITY c "&b;&b;&b;&b;&b;&b;">]><actions>&c;</actions>',
     "R350"),
    (b'<!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><actions>&e;</actions>', "R350"),
])
def test_bad_messages_are_refused(data: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        protocol.decode(data)
    assert caught.value.diagnostics[0].code == code


def _reader(data: list[bytes], limit: int = protocol.MAX_MESSAGE) -> protocol.Reader:
    stream = asyncio.StreamReader()
    for chunk in data:
        stream.feed_data(chunk)
    stream.feed_eof()
    return protocol.Reader(stream, limit)


def test_reader_buffers_across_chunks_and_accepts_messages_without_header() -> None:
    async def run() -> list[object]:
        reader = _reader([b"<round-", b"request/>\0<?xml version=\"1.0\"?>\n<acti", b"ons/>\0\0"])
        return [await reader.read(), await reader.read(), await reader.read()]
    assert asyncio.run(run()) == [protocol.RoundRequest(), Actions(), None]


def test_reader_refuses_oversized_and_torn_messages() -> None:
    async def oversized() -> None:
        await _reader([b"<actions>" + b"x" * 5000], limit=1000).read()

    async def torn() -> None:
        await _reader([b"<actions>"]).read()

    with pytest.raises(MessageTooLarge):
        asyncio.run(oversized())
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(torn())
    assert caught.value.diagnostics[0].code == "R354"


names = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=12) \
    .map(str.strip).filter(bool)
reals = st.floats(allow_nan=False)
fluents = st.tuples(names, st.tuples(*[names] * 2) | st.tuples(names) | st.just(()), names)


@settings(max_examples=150, deadline=None)
@given(st.one_of(
    st.builds(Turn, st.integers(0, 10**6), reals, reals, st.none() | st.lists(fluents, max_size=4).map(tuple)),
    st.builds(Actions, st.lists(fluents, max_size=4).map(tuple)),
    st.builds(RoundEnd, names, names, st.integers(0, 99), reals, st.integers(0, 10**4), st.integers(-10**9, 10**9),
              reals),
    st.builds(SessionEnd, names, reals, st.integers(0, 99), names, st.integers(1, 10**6), st.integers(-10**9, 10**9)),
    st.builds(SessionRequest, names, names),
))
def test_messages_round_trip(message: protocol.Message) -> None:
    data = protocol.encode(message)
    assert data.startswith(protocol.HEADER) and data.endswith(b"\0") and data.count(b"\0") == 1
    assert data.decode("ascii")  # US-ASCII on the wire, whatever the names hold
    assert protocol.decode(data) == message
