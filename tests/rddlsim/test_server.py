"""The server on bad input: each case gets its log line and RDDLSim's treatment (see the server's
docstring for which), while a well-behaved client in a session beside it finishes normally."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from pddltools.rddlsim import protocol
from pddltools.rddlsim.client import Client
from pddltools.rddlsim.protocol import (
    Actions,
    ResourceNotification,
    ResourceRequest,
    RoundEnd,
    RoundInit,
    RoundRequest,
    SessionEnd,
    SessionInit,
    SessionRequest,
    Turn,
)
from tests.loop_clock import LoopClock

from .conftest import log_records, running_server


class Raw:
    """A hand-driven client: writes bytes, reads messages."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.frames = protocol.Reader(reader)
        self.writer = writer

    async def send(self, data: bytes | protocol.Message) -> None:
        self.writer.write(data if isinstance(data, bytes) else protocol.encode(data))
        await self.writer.drain()

    async def read(self, timeout: float = 20.0) -> protocol.Message | None:
        try:
            return await asyncio.wait_for(self.frames.read(), timeout)
        except (ConnectionError, protocol.ProtocolError):
            return None


async def open_round(port: int, instance: str = "sysadmin_inst_mdp__1", name: str = "raw") -> tuple[Raw, Turn]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    raw = Raw(reader, writer)
    await raw.send(SessionRequest(instance, name))
    assert isinstance(await raw.read(), SessionInit)
    await raw.send(RoundRequest())
    assert isinstance(await raw.read(), RoundInit)
    turn = await raw.read()
    assert isinstance(turn, Turn)
    return raw, turn


def action(name: str, args: tuple[str, ...], value: str) -> Actions:
    return Actions(((name, args, value),))


Script = Callable[[int, Path], Awaitable[None]]


def run_beside_a_good_client(tmp_path: Path, script: Script, **config: object) -> None:
    async def main() -> None:
        async with running_server(tmp_path / "log.jsonl", **{"rounds": 2, "stall": 1.0, **config}) as (_, port):
            good = asyncio.create_task(Client("sysadmin_inst_mdp__1", "random", "good").play("127.0.0.1", port))
            await asyncio.wait_for(script(port, tmp_path / "log.jsonl"), 30)
            result = await asyncio.wait_for(good, 60)
            assert result.end is not None and len(result.rounds) == 2
    asyncio.run(main())


async def closes(raw: Raw) -> None:
    assert await raw.read() is None


CLOSING = [
    ("malformed", b"<actions><action>\0", "malformed XML"),
    ("wrong-root", b"<hello/>\0", "unexpected root element <hello>"),
    ("unknown-action", protocol.encode(action("fly", (), "true")), "unknown action 'fly'"),
    ("oversized", b"<actions>" + b" " * (1 << 20) + b"x" * 70000, "over 1048576 bytes"),
    ("stall", b"<actions><act", "half a message, then nothing"),
    ("round-request-mid-round", protocol.encode(RoundRequest()), "expected <actions>, got <round-request>"),
]


@pytest.mark.parametrize(("data", "line"), [(data, text) for _, data, text in CLOSING], ids=[c[0] for c in CLOSING])
def test_bad_input_ends_only_its_session(data: bytes, line: str, tmp_path: Path,
                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "pddltools.rddlsim.server")

    async def script(port: int, log: Path) -> None:
        raw, _ = await open_round(port)
        await raw.send(data)
        await closes(raw)

    run_beside_a_good_client(tmp_path, script)
    assert any(line in r.getMessage() and "session ended" in r.getMessage() for r in caplog.records), line
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)


def test_a_vanished_client_is_logged(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "pddltools.rddlsim.server")

    async def script(port: int, log: Path) -> None:
        raw, _ = await open_round(port)
        raw.writer.close()
        await asyncio.sleep(0.3)

    run_beside_a_good_client(tmp_path, script)
    assert any("closed the connection" in r.getMessage() for r in caplog.records)


DROPPED = [
    ("unknown-object", action("reboot", ("c99",), "true")),
    ("missing-argument", action("reboot", (), "true")),
    ("yes-as-boolean", action("reboot", ("c1",), "yes")),
]


@pytest.mark.parametrize("message", [m for _, m in DROPPED], ids=[d[0] for d in DROPPED])
def test_slips_rddlsim_accepts_are_accepted(message: Actions, tmp_path: Path) -> None:
    async def script(port: int, log: Path) -> None:
        raw, _ = await open_round(port)
        await raw.send(message)
        turn = await raw.read()
        assert isinstance(turn, Turn) and turn.turn_num == 2
        raw.writer.close()

    run_beside_a_good_client(tmp_path, script)


def test_typed_values_counters(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "pddltools.rddlsim.server")

    async def script(port: int, log: Path) -> None:
        raw, first = await open_round(port, "counters_inst")
        assert first.fluents is not None and ("current", (), "@slow") in first.fluents
        await raw.send(Actions((("switch-to", (), "@fast"), ("extra", (), "2"))))
        turn = await raw.read()
        assert isinstance(turn, Turn) and turn.fluents is not None
        assert ("current", (), "@fast") in turn.fluents and ("count", ("a",), "2") in turn.fluents
        assert ("heat", (), "0.85") in turn.fluents
        await raw.send(action("switch-to", (), "@medium"))  # not a mode: dropped
        assert isinstance(await raw.read(), Turn)
        await raw.send(action("extra", (), "three"))  # not an int: RDDLSim's parse fails, session ends
        await closes(raw)

    run_beside_a_good_client(tmp_path, script)
    messages = [r.getMessage() for r in caplog.records]
    assert any("'@medium' is not a value of mode; dropped" in m for m in messages)
    assert any("'three' is not int; session ended" in m for m in messages)


def test_too_many_actions_end_the_round_with_zero_and_the_log_comes_first(tmp_path: Path) -> None:
    async def script(port: int, log: Path) -> None:
        raw, _ = await open_round(port)
        await raw.send(Actions((("reboot", ("c1",), "true"), ("reboot", ("c2",), "true"))))
        end = await raw.read()
        assert isinstance(end, RoundEnd) and end.round_reward == 0.0 and end.turns_used == 0
        # the record is on disk before the client hears of the round's end
        assert any(r["event"] == "round-end" and r["client"] == "raw" and r["ended"] == "invalid-actions"
                   for r in log_records(log))
        await raw.send(RoundRequest())  # the session goes on
        assert isinstance(await raw.read(), RoundInit)
        raw.writer.close()

    run_beside_a_good_client(tmp_path, script)


def test_resource_request_is_answered_and_the_wait_goes_on(tmp_path: Path) -> None:
    async def script(port: int, log: Path) -> None:
        raw, _ = await open_round(port)
        await raw.send(ResourceRequest())
        note = await raw.read()
        assert isinstance(note, ResourceNotification) and note.memory_left == "enough" and note.time_left > 0
        await raw.send(Actions())
        assert isinstance(await raw.read(), Turn)
        raw.writer.close()

    run_beside_a_good_client(tmp_path, script)


def test_unknown_instance_closes_without_a_reply(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "pddltools.rddlsim.server")

    async def script(port: int, log: Path) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        raw = Raw(reader, writer)
        await raw.send(SessionRequest("no_such_instance", "raw"))
        await closes(raw)

    run_beside_a_good_client(tmp_path, script)
    assert any("unknown instance 'no_such_instance'" in r.getMessage() for r in caplog.records)


def test_out_of_time_ends_round_and_session_at_once(tmp_path: Path) -> None:
    async def main() -> None:
        clock = LoopClock()  # the session's time runs out when the test says
        async with running_server(tmp_path / "log.jsonl", rounds=3, timeout=600.0, stall=3600.0) as (_, port):
            raw, _ = await open_round(port)
            await raw.send(Actions())
            assert isinstance(await raw.read(), Turn)
            clock.jump(601.0)
            await raw.send(Actions())
            end = await raw.read()
            assert isinstance(end, RoundEnd) and end.time_left < 0 and end.turns_used == 1
            session_end = await raw.read()
            assert isinstance(session_end, SessionEnd) and session_end.rounds_used == 1
            assert await raw.read() is None
        records = log_records(tmp_path / "log.jsonl")
        assert [r["event"] for r in records] == ["round-end", "session-end"]
        assert records[0]["ended"] == "out-of-time"
    asyncio.run(main())


def test_no_header_sessions_get_bare_elements(tmp_path: Path) -> None:
    async def main() -> None:
        async with running_server(tmp_path / "log.jsonl", rounds=1) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(protocol.encode(SessionRequest("sysadmin_inst_mdp__1", "bare", no_header=True)))
            data = await asyncio.wait_for(reader.read(16), 10)
            assert data.startswith(b"<session-init>")
            writer.close()
    asyncio.run(main())
