"""Fuzzing mdpsim's messages (issue 30's target for the new surface): a seeded mutator (fixed seed, small
budget: CI runs the same inputs every time) breaks valid messages of both sides (hostile words and
numbers, cut tags, doubled and dropped parts, entities, deep nesting, bytes that are not UTF-8).

What must hold: decoding a mutated message gives a message or a located `ProtocolError`, never another
exception; the framing never waits for ever or grows past its limit; a live server fed mutated client
sessions ends each of them (or plays on) without an internal error, and serves a clean client after them.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path

import pytest

from pddltools.ppddl import protocol
from pddltools.ppddl.client import Client
from pddltools.ppddl.protocol import MdpsimReader
from pddltools.ppddl.simulation import load_task
from pddltools.rddlsim.protocol import ProtocolError
from tests.ppddl.conftest import COIN, running_server
from tests.ppddl.test_mdpsim_protocol import TRANSCRIPT

SEED = 30
BUDGET = {"decode": 400, "sessions": 40}
HOSTILE = [b"", b"<", b">", b"/>", b"</x>", b"\x00", b"\xff\xfe", "🙂".encode(), b"9" * 5000, b"-1", b"1/0", b"nan",
           b"&amp;", b"&x;", b'<!DOCTYPE a [<!ENTITY x "y">]>', b"<?xml version='1.0'?>", b"<a>" * 3000,
           b"]]>", b"<![CDATA[", b"<!--", b"-->", b" a=\"b\"", b"<done/>", b"<round-request/>", b"\n" * 3]
CLIENT_SESSION = [
    b"<session-request><name>fuzz</name><problem>toss</problem></session-request>",
    b"<round-request/>",
    b"<act><action><name>flip</name></action></act>",
    b"<act><action><name>flip</name></action></act>",
    b"<done/>",
    b"<round-request/>",
    b"<done/>",
]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits of `data`."""
    for _ in range(rng.randint(1, 3)):
        pick = rng.randrange(6)
        at = rng.randrange(len(data) + 1)
        if pick == 0:  # a hostile piece inserted
            data = data[:at] + rng.choice(HOSTILE) + data[at:]
        elif pick == 1:  # cut short
            data = data[:at]
        elif pick == 2:  # a span doubled
            end = rng.randrange(at, len(data) + 1)
            data = data[:end] + data[at:end] + data[end:]
        elif pick == 3:  # a span dropped
            data = data[:at] + data[rng.randrange(at, len(data) + 1):]
        elif pick == 4:  # a tag renamed
            tags = [i for i in range(len(data)) if data[i:i + 1] == b"<"]
            if tags:
                i = rng.choice(tags) + 1
                data = data[:i] + rng.choice([b"x", b"state", b"end-session", b"act", b"/", b"!"]) + data[i:]
        else:  # a text replaced by a hostile number or word
            data = data.replace(b">", b">" + rng.choice(HOSTILE[7:12]), 1)
    return data


def test_decoding_mutated_messages_gives_a_message_or_a_protocol_error() -> None:
    rng = random.Random(SEED)
    messages = [data.rstrip(b"\n") for _, data in TRANSCRIPT]
    outcomes = {"decoded": 0, "refused": 0}
    for _ in range(BUDGET["decode"]):
        data = mutate(rng.choice(messages), rng)
        try:
            protocol.decode(data)
            outcomes["decoded"] += 1
        except ProtocolError as exc:
            assert exc.diagnostics and exc.diagnostics[0].code in {"E945", "E946", "E947"}, data
            outcomes["refused"] += 1
    assert outcomes["decoded"] > 0 and outcomes["refused"] > 0


async def _split_all(data: bytes, limit: int) -> list[bytes]:
    stream = asyncio.StreamReader()
    stream.feed_data(data)
    stream.feed_eof()
    reader = MdpsimReader(stream, limit)
    found = []
    while (frame := await reader.read_frame(None, 1.0)) is not None:
        found.append(frame)
    return found


def test_framing_mutated_streams_ends_with_frames_or_a_protocol_error() -> None:
    rng = random.Random(SEED + 1)
    whole = b"".join(data for _, data in TRANSCRIPT)
    for _ in range(BUDGET["decode"] // 4):
        data = mutate(whole, rng)
        try:
            frames = asyncio.run(_split_all(data, 4096))
        except ProtocolError as exc:
            assert exc.diagnostics[0].code in {"E945", "E948"}
            continue
        assert all(len(f) <= 4096 + 65536 for f in frames)


def test_a_server_fed_mutated_sessions_stays_up_and_serves_a_clean_client(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(SEED + 2)

    async def one(port: int, parts: list[bytes]) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:  # the server may close first: writing then fails, as it may for a real client
            with contextlib.suppress(ConnectionError):
                for part in parts:
                    writer.write(part)
                    await asyncio.sleep(0)
                writer.write_eof()
                await asyncio.wait_for(reader.read(), 5)  # the server closes or answers; never hangs
        finally:
            writer.close()

    async def run() -> bool:
        async with running_server(tmp_path / "log.jsonl", rounds=2, idle=1.0, stall=1.0) as (server, port):
            for _ in range(BUDGET["sessions"]):
                parts = list(CLIENT_SESSION)
                index = rng.randrange(len(parts))
                parts[index] = mutate(parts[index], rng)
                await one(port, parts)
            result = await Client(load_task([COIN], "landed")).play("127.0.0.1", port)
            return result.end is not None and len(server.open) == 0

    with caplog.at_level("WARNING", logger="pddltools.ppddl.server"):
        assert asyncio.run(run())
    assert "internal error" not in caplog.text
