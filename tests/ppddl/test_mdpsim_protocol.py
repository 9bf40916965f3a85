"""mdpsim's protocol: the bytes of each message as mdpsim's sources write them (mdpserver.cc, client.cc,
states.cc), its framing, whole sessions between pddltools' server and client over localhost, the server's
answers to bad input and its limits, and `ppddl score` on the log."""

from __future__ import annotations

import asyncio
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.ppddl import protocol
from pddltools.ppddl.client import Client, ClientError
from pddltools.ppddl.protocol import (
    Act,
    Done,
    EndRound,
    EndSession,
    ErrorMessage,
    MdpsimReader,
    RoundInit,
    RoundRequest,
    SessionInit,
    SessionRequest,
    StateMessage,
)
from pddltools.ppddl.simulation import load_task
from pddltools.rddlsim.protocol import ProtocolError
from tests.loop_clock import LoopClock
from tests.ppddl.conftest import COIN, log_records, read_element, running_server

STATE = StateMessage(True, (("on", "b1", "b2"), ("emptyhand",)), ((("reward",), "-3/2"), (("fuel", "t1"), "7")))

#: Each message and its bytes, as mdpsim writes them (server messages end with std::endl).
TRANSCRIPT = [
    (SessionRequest("planner", "p01"),
     b"<session-request><name>planner</name><problem>p01</problem></session-request>"),
    (SessionInit(4, 30, 900000, 1000),
     b"<session-init><sessionID>4</sessionID><setting><rounds>30</rounds><allowed-time>900000</allowed-time>"
     b"<allowed-turns>1000</allowed-turns></setting></session-init>\n"),
    (RoundRequest(), b"<round-request/>"),
    (RoundInit(4, 2, 899512, 28),
     b"<round-init><sessionID>4</sessionID><round>2</round><time-left>899512</time-left>"
     b"<rounds-left>28</rounds-left></round-init>\n"),
    (STATE, b"<state><is-goal/><atom><predicate>on</predicate><term>b1</term><term>b2</term></atom><atom>"
            b"<predicate>emptyhand</predicate></atom><fluent><function>reward</function><value>-3/2</value>"
            b"</fluent><fluent><function>fuel</function><term>t1</term><value>7</value></fluent></state>\n"),
    (Act("pick-up", ("b1", "b2")),
     b"<act><action><name>pick-up</name><term>b1</term><term>b2</term></action></act>"),
    (Done(), b"<done/>"),
    (ErrorMessage('disabled action "(pick-up b1 b2)"'), b'<error>disabled action "(pick-up b1 b2)"</error>\n'),
    (EndRound(4, 2, StateMessage(False, (), ((("reward",), "0"),)), False, 17, 3),
     b"<end-round><sessionID>4</sessionID><round>2</round><state><fluent><function>reward</function>"
     b"<value>0</value></fluent></state><time-spent>17</time-spent><turns-used>3</turns-used></end-round>\n"),
    (EndSession(4, 30, 11, 19, 30.315789, 7.4736842, 0.6333333),
     b"<end-session><sessionID>4</sessionID><rounds>30</rounds><goals><failed>11</failed><reached>"
     b"<successes>19</successes><time-average>30.3158</time-average><turn-average>7.47368</turn-average>"
     b"</reached></goals><metric-average>0.633333</metric-average></end-session>\n"),
    (EndSession(5, 30, 30, 0, None, None, 0.0),
     b"<end-session><sessionID>5</sessionID><rounds>30</rounds><goals><failed>30</failed><reached>"
     b"<successes>0</successes></reached></goals><metric-average>0</metric-average></end-session>\n"),
]


@pytest.mark.parametrize(("message", "data"), TRANSCRIPT, ids=lambda m: type(m).__name__ if not isinstance(m, bytes)
                         else "")
def test_each_message_is_written_byte_for_byte_as_mdpsim_writes_it(message: protocol.Message, data: bytes) -> None:
    assert protocol.encode(message) == data
    back = protocol.decode(data.rstrip(b"\n"))
    if isinstance(message, EndSession) and message.time_average is not None:
        assert back == EndSession(4, 30, 11, 19, 30.3158, 7.47368, 0.633333)  # as printed: six digits
    else:
        assert back == message


def test_values_print_as_mdpsim_rationals_and_doubles() -> None:
    assert [protocol.rational(v) for v in (3, Fraction(-3, 2), Fraction(4, 2))] == ["3", "-3/2", "2"]
    assert [protocol.c_double(x) for x in (1e6, 0.5, 1 / 3, 100.0, 1234567.0)] == \
        ["1e+06", "0.5", "0.333333", "100", "1.23457e+06"]


async def _frames(chunks: list[bytes]) -> list[bytes]:
    stream = asyncio.StreamReader()
    for chunk in chunks:
        stream.feed_data(chunk)
    stream.feed_eof()
    reader = MdpsimReader(stream)
    found = []
    while (frame := await reader.read_frame(None, 5.0)) is not None:
        found.append(frame)
    return found


def test_framing_is_one_element_however_the_bytes_are_cut() -> None:
    """mdpsim reads tag by tag until the first element closes; newlines between messages are skipped."""
    whole = b"".join(data for _, data in TRANSCRIPT)
    expected = [data.rstrip(b"\n") for _, data in TRANSCRIPT]
    assert asyncio.run(_frames([whole])) == expected
    assert asyncio.run(_frames([whole[i:i + 7] for i in range(0, len(whole), 7)])) == expected


@pytest.mark.parametrize(("data", "code"), [
    (b"<session-request><name>x</name></session-request>", "E946"),
    (b"<round-init><sessionID>1</sessionID><round>one</round><time-left>5</time-left><rounds-left>1</rounds-left>"
     b"</round-init>", "E946"),
    (b"<actions/>", "E947"),
    (b"<act><action><name>a</b></action></act>", "E945"),
    (b'<!DOCTYPE x [<!ENTITY a "aaaa">]><done/>', "E945"),
    (b"<state><fluent><function>f</function><value>1/0</value></fluent></state>", "E946"),
    (b"<act/>", "E946"),
])
def test_malformed_messages_are_refused_with_their_code(data: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        protocol.decode(data)
    assert caught.value.diagnostics[0].code == code


def test_text_outside_an_element_and_a_message_cut_short_are_refused() -> None:
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(_frames([b"hello <done/>"]))
    assert caught.value.diagnostics[0].code == "E945"
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(_frames([b"<act><action><name>a</name>"]))
    assert caught.value.diagnostics[0].code == "E948"


@pytest.mark.parametrize(("data", "says"), [
    (b"<a>" + b"<a></a>" * 100_000, "nested in itself"),
    (b"<a>" * 10 + b"</b>" * 10, "closed by a tag of another name"),
])
def test_framing_refuses_what_no_mdpsim_message_is_at_once(data: bytes, says: str) -> None:
    """A frame is found by counting in C; the inputs that would make it look at every tag are refused."""
    with pytest.raises(ProtocolError) as caught:
        asyncio.run(_frames([data[i:i + 4096] for i in range(0, len(data), 4096)]))
    assert caught.value.diagnostics[0].code == "E945" and says in caught.value.diagnostics[0].message


# ---------------------------------------------------------------------------------------------------
# sessions


def _times(data: bytes) -> bytes:
    return re.sub(rb"<(time-left|time-spent)>\d+</", rb"<\1>T</", data)


def test_a_session_on_the_wire(tmp_path: Path) -> None:
    """Two rounds of `toss`: a bad action (error, then end-round), then done; the bytes the server sends."""

    async def run() -> list[bytes]:
        async with running_server(tmp_path / "log.jsonl", rounds=2, seed=3) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            got = []
            writer.write(b"<session-request><name>raw</name><problem>toss</problem></session-request>")
            got.append(await read_element(reader))
            writer.write(b"<round-request/>")
            got += [await read_element(reader), await read_element(reader)]
            writer.write(b"<act><action><name>jump</name><term>high</term></action></act>")
            got += [await read_element(reader), await read_element(reader)]
            writer.write(b"<round-request/>")
            got += [await read_element(reader), await read_element(reader)]
            writer.write(b"<done/>")
            got += [await read_element(reader), await read_element(reader)]
            writer.close()
            return got

    got = [_times(line) for line in asyncio.run(run())]
    start = b"<state><fluent><function>reward</function><value>0</value></fluent></state>"
    assert got == [
        b"<session-init><sessionID>1</sessionID><setting><rounds>2</rounds><allowed-time>900000</allowed-time>"
        b"<allowed-turns>1000</allowed-turns></setting></session-init>\n",
        b"<round-init><sessionID>1</sessionID><round>1</round><time-left>T</time-left><rounds-left>1</rounds-left>"
        b"</round-init>\n",
        start + b"\n",
        b'<error>bad action "(jump high)"</error>\n',
        b"<end-round><sessionID>1</sessionID><round>1</round>" + start
        + b"<time-spent>T</time-spent><turns-used>0</turns-used></end-round>\n",
        b"<round-init><sessionID>1</sessionID><round>2</round><time-left>T</time-left><rounds-left>0</rounds-left>"
        b"</round-init>\n",
        start + b"\n",
        b"<end-round><sessionID>1</sessionID><round>2</round>" + start
        + b"<time-spent>T</time-spent><turns-used>0</turns-used></end-round>\n",
        b"<end-session><sessionID>1</sessionID><rounds>2</rounds><goals><failed>2</failed><reached>"
        b"<successes>0</successes></reached></goals><metric-average>0</metric-average></end-session>\n",
    ]


def test_the_goal_at_the_start_ends_each_round_with_the_goal_reward(tmp_path: Path) -> None:
    async def run() -> list[bytes]:
        async with running_server(tmp_path / "log.jsonl", rounds=1) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"<session-request><name>raw</name><problem>landed</problem></session-request>"
                         b"<round-request/>")
            got = [await read_element(reader) for _ in range(4)]
            writer.close()
            return got

    got = [_times(line) for line in asyncio.run(run())]
    assert got[2] == (b"<end-round><sessionID>1</sessionID><round>1</round><state><is-goal/><atom><predicate>heads"
                      b"</predicate></atom><fluent><function>reward</function><value>10</value></fluent></state>"
                      b"<goal-reached/><time-spent>T</time-spent><turns-used>0</turns-used></end-round>\n")
    assert b"<successes>1</successes>" in got[3] and b"<metric-average>10</metric-average>" in got[3]


def test_pddltools_client_plays_whole_sessions_against_pddltools_server(tmp_path: Path,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"

    async def run() -> tuple[object, object]:
        async with running_server(log, rounds=30, seed=1) as (_, port):
            task = load_task([COIN], "toss")
            random_result = await Client(task, "random", "rnd", seed=2).play("127.0.0.1", port)
            noop_result = await Client(task, "noop", "idle").play("127.0.0.1", port)
            return random_result, noop_result

    played, idle = asyncio.run(run())
    assert played.end is not None and len(played.rounds) == 30  # type: ignore[attr-defined]
    records = [r for r in log_records(log) if r["client"] == "rnd"]
    rounds = [r for r in records if r["event"] == "round-end"]
    assert [r.reward for r in played.rounds] == [r["reward"] for r in rounds]  # type: ignore[attr-defined]
    assert [r.goal for r in played.rounds] == [r["goal"] for r in rounds]  # type: ignore[attr-defined]
    assert played.end.successes == sum(r.goal for r in played.rounds)  # type: ignore[attr-defined]
    assert played.end.metric_average == pytest.approx(played.mean, abs=1e-5)  # type: ignore[attr-defined]
    assert all(r.reward == 0 and r.turns == 0 for r in idle.rounds)  # type: ignore[attr-defined]
    # IPPC scores of the log: rnd reached the goal in some rounds, idle in none
    assert main(["ppddl", "score", str(log), "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    assert [c["client"] for c in scored["clients"]] == ["rnd", "idle"]
    first = scored["clients"][0]["problems"][0]
    assert first["successes"] == played.end.successes and first["rounds"] == 30  # type: ignore[attr-defined]
    assert first["mean_reward"] == pytest.approx(played.mean)  # type: ignore[attr-defined]
    assert main(["ppddl", "score", str(log)]) == 0
    assert "1. client rnd" in capsys.readouterr().out


def test_an_unknown_problem_gets_bad_problem_and_the_client_says_so(tmp_path: Path) -> None:
    async def run() -> tuple[bytes, str]:
        async with running_server(tmp_path / "log.jsonl") as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"<session-request><name>raw</name><problem>nosuch</problem></session-request>")
            answer = await read_element(reader)
            closed = await asyncio.wait_for(reader.read(), 5)
            writer.close()
            task = load_task([COIN], "toss")
            client = Client(task)
            client.task = type(task)(**{**task.__dict__, "name": "nosuch"})
            try:
                await client.play("127.0.0.1", port)
            except ClientError as exc:
                return answer + closed, exc.diagnostics[0].message
            return answer + closed, ""

    answer, message = asyncio.run(run())
    assert answer == b'<error>bad problem "nosuch"</error>\n'
    assert "bad problem" in message


def test_bad_input_closes_one_connection_and_the_server_goes_on(tmp_path: Path) -> None:
    async def run() -> list[bytes]:
        async with running_server(tmp_path / "log.jsonl", rounds=1) as (_, port):
            closed = []
            for first in (b"<round-request/>", b"<session-request><name>x</name></session-request>",
                          b"<session-request><name>x</name><problem>toss</problem></session-request>"
                          b"<round-request/><act><oops/></act>",
                          b"<a>" * 10 + b"</b>" * 10, b"\xff\xfe<done/>"):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(first)
                closed.append(await asyncio.wait_for(reader.read(), 5))
                writer.close()
            task = load_task([COIN], "landed")
            result = await Client(task).play("127.0.0.1", port)
            assert result.end is not None and result.end.successes == 1
            return closed

    closed = asyncio.run(run())
    assert closed[:2] == [b"", b""] and closed[3:] == [b"", b""]
    assert closed[2].startswith(b"<session-init>") and closed[2].endswith(b"</state>\n")


def test_idle_and_trickling_connections_are_cut_off(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> bytes:
        async with running_server(tmp_path / "log.jsonl", rounds=1, idle=0.3, stall=0.3) as (_, port):
            idle_reader, idle_writer = await asyncio.open_connection("127.0.0.1", port)
            idle = await asyncio.wait_for(idle_reader.read(), 30)  # closed after --idle
            slow_reader, slow_writer = await asyncio.open_connection("127.0.0.1", port)
            for byte in b"<session-request><name>slow":
                slow_writer.write(bytes([byte]))
                await asyncio.sleep(0.05)
                if slow_reader.at_eof():
                    break
            try:
                slow = await asyncio.wait_for(slow_reader.read(), 30)
            except ConnectionResetError:
                # closed by the server with bytes of ours still unread (a trickle byte sent as it cut
                # off): the kernel resets instead of ending the stream, and that is the same cut-off
                slow = b""
            idle_writer.close()
            slow_writer.close()
            return idle + slow

    with caplog.at_level("INFO", logger="pddltools.ppddl.server"):
        assert asyncio.run(run()) == b""
    assert "sent nothing within 0.3 s" in caplog.text


def test_the_cap_evicts_the_oldest_silent_connection(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # no idle limit to speak of: the crowd must still be there, however slowly a busy machine opens it
    async def run() -> tuple[bytes, bytes, int]:
        async with running_server(tmp_path / "log.jsonl", rounds=1, idle=3600.0, stall=3600.0,
                                  max_connections=3) as (server, port):
            crowd = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
            await asyncio.sleep(0.05)
            fourth = await asyncio.open_connection("127.0.0.1", port)
            evicted = await asyncio.wait_for(crowd[0][0].read(), 30)
            fourth[1].write(b"<session-request><name>ok</name><problem>landed</problem></session-request>")
            answer = await read_element(fourth[0], 30)
            still_open = len(server.open)
            for _, writer in [*crowd, fourth]:
                writer.close()
            return evicted, answer, still_open

    with caplog.at_level("INFO", logger="pddltools.ppddl.server"):
        evicted, answer, still_open = asyncio.run(run())
    assert evicted == b"" and still_open <= 3
    assert answer.startswith(b"<session-init>")
    assert "--max-connections" in caplog.text


def test_a_client_silent_past_its_session_time_is_cut_off(tmp_path: Path) -> None:
    async def run() -> tuple[list[bytes], bytes]:
        clock = LoopClock()  # the session's time (and the grace after it) runs out when the test says
        async with running_server(tmp_path / "log.jsonl", rounds=1, time_ms=600_000, stall=3600.0) as (_, port):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"<session-request><name>raw</name><problem>toss</problem></session-request>"
                         b"<round-request/>")
            lines = [await read_element(reader, 30) for _ in range(3)]
            clock.jump(600.0 + 3600.0 + 1.0)
            rest = await asyncio.wait_for(reader.read(), 30)  # nothing more: the close
            writer.close()
            return lines, rest

    lines, rest = asyncio.run(run())
    assert rest == b""
    assert [line[:12] for line in lines] == [b"<session-ini", b"<round-init>", b"<state><flue"]
