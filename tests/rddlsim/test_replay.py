"""Replays of the captured RDDLSim sessions: the Java client's side against our server, the Java server's
side against our client. Every reply must have the same elements in the same order; values may differ
only where they are random (states, rewards) or clocks (time-left).

The RDDL2 capture (`inst_lang_extension_examples`, served from corpus/rddl/rddlsim) has int-range enums,
object fluents and tuple values; its round ends by `terminate-when`, so how many turns it lasts is
random: with the server's seed 0 our round lasts the capture's 6 turns, which the check below needs
(`turns-used` and the number of turns are compared, not only the tags).
"""

from __future__ import annotations

import asyncio
import base64
import re
from pathlib import Path
from xml.etree.ElementTree import Element

import pytest

from pddltools.rddlsim import protocol
from pddltools.rddlsim.client import Client

from .conftest import capture, conversation, running_server

VOLATILE = {"time-left", "immediate-reward", "round-reward", "total-reward", "fluent-value", "action-value",
            "action-name", "action-arg"}


def shape(element: Element) -> tuple[object, ...]:
    """The element's tags in order, with the text of the fields that are neither random nor clocks."""
    text = None if element.tag in VOLATILE or len(element) else (element.text or "").strip()
    return (element.tag, text, tuple(shape(child) for child in element))


_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:E-?[0-9]+)?")


def tuple_values(element: Element) -> list[str]:
    """The RDDL2 tuple values of a turn with their numbers masked: how members are labelled and nested
    (`< $col1: < @x: #, @y: # >, ... >`) is not random, only the numbers are."""
    return [_NUMBER.sub("#", value.text or "") for value in element.iter("fluent-value")
            if (value.text or "").startswith("<")]


def action_shape(element: Element) -> tuple[object, ...]:
    """An actions message: the tags of each action (which actions a random policy picks may differ)."""
    return (element.tag, tuple(tuple(child.tag for child in action) for action in element))


@pytest.mark.parametrize(("name", "rounds"), [("session-sysadmin-mdp.jsonl", 2), ("session-pomdp.jsonl", 1),
                                              ("session-rddl2-values.jsonl", 1)])
def test_java_client_side_against_our_server(name: str, rounds: int, tmp_path: Path) -> None:
    talk = conversation(capture(name))

    async def run() -> None:
        async with running_server(tmp_path / "log.jsonl", rounds=rounds, timeout=1080.0, seed=0) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            frames = protocol.Reader(reader)
            for direction, data in talk:
                if direction == "C->S":
                    writer.write(data)
                    await writer.drain()
                    continue
                ours = await asyncio.wait_for(frames.read_frame(), 30)
                assert ours is not None, f"our server closed early; RDDLSim sent {data[:80]!r}"
                assert ours.startswith(protocol.HEADER)
                expected, got = protocol.parse_element(data), protocol.parse_element(ours)
                if expected.tag == "session-init":
                    # the task is the same text, byte for byte: domain file, 2 newlines, instance file, newline
                    assert base64.b64decode(got.findtext("task") or "") == \
                        base64.b64decode(expected.findtext("task") or "")
                assert shape(got) == shape(expected)
                assert tuple_values(got) == tuple_values(expected)
            assert await asyncio.wait_for(frames.read_frame(), 10) is None  # the server closes, as RDDLSim does
            writer.close()

    asyncio.run(run())


@pytest.mark.parametrize(("name", "policy"), [("session-sysadmin-mdp.jsonl", "random"),
                                              ("session-pomdp.jsonl", "random"),
                                              ("session-rddl2-values.jsonl", "noop")])
def test_java_server_side_against_our_client(name: str, policy: str) -> None:
    talk = conversation(capture(name))
    instance = protocol.decode(next(d for direction, d in talk if direction == "C->S"))
    assert isinstance(instance, protocol.SessionRequest)
    checked: list[str] = []

    async def fake_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        frames = protocol.Reader(reader)
        for direction, data in talk:
            if direction == "S->C":
                writer.write(data)
                await writer.drain()
                continue
            ours = await asyncio.wait_for(frames.read_frame(), 30)
            assert ours is not None
            expected, got = protocol.parse_element(data), protocol.parse_element(ours)
            if expected.tag == "actions":
                assert got.tag == "actions"
                assert all(tags[0] == "action-name" and tags[-1] == "action-value" and
                           set(tags[1:-1]) <= {"action-arg"} for tags in action_shape(got)[1])  # type: ignore[union-attr]
            else:
                assert shape(got) == shape(expected)
            checked.append(got.tag)
        writer.close()

    async def run() -> None:
        listener = await asyncio.start_server(fake_server, "127.0.0.1", 0)
        port = listener.sockets[0].getsockname()[1]
        result = await asyncio.wait_for(Client(instance.problem_name, policy, "MyClient").play("127.0.0.1", port), 60)
        listener.close()
        assert result.end is not None
        sent = [protocol.decode(d) for direction, d in talk if direction == "S->C"]
        assert result.rounds == [m for m in sent if isinstance(m, protocol.RoundEnd)]
        assert result.end == sent[-1]

    asyncio.run(run())
    assert checked.count("session-request") == 1 and "actions" in checked
