"""An mdpsim server on asyncio: every problem of the files given, many clients at once, each session with
its own clock, as `mdpsim --port` serves them (`mdpserver.cc`'s `host_problem`).

A session: the client's session-request; session-init; then per round a round-request, round-init, and
states until the goal holds, the turn limit is reached, the client says `<done/>`, or the session's time
is out; then end-round; after the last round, end-session. Every round-end and session-end is appended to
the results log (fsynced) before the client is told.

As mdpsim, and where we differ:
- an unknown problem: `<error>bad problem "p"</error>`, then the connection closes;
- an action that is no ground action of the problem: `<error>bad action "(a x)"</error>`, one whose
  precondition is false: `<error>disabled action "(a x)"</error>`; either ends the round (end-round
  follows), the session goes on;
- out of time: the action that arrives late is not applied and the round ends; later rounds get a
  round-init with `time-left` 0 and end at once (mdpsim does the same);
- malformed XML, a message that is not the one expected, a session-request without a name or problem: the
  connection closes without a reply (mdpsim's thread returns; with `<act>` lacking its `<action>` mdpsim
  crashes, here the session ends);
- mdpsim's end-session's `turn-average` reads an uninitialised counter; here it is the mean number of
  turns of the successful rounds. Session ids count from 1 in each server (mdpsim keeps them in a file).
- limits mdpsim lacks (shared with `rddl serve`, `pddltools.serving`): a connection must send its
  session-request within `idle` seconds, every message must arrive whole within `stall` seconds of its
  first byte (plus one per 16 KB), at most `max_connections` are open, and the log lines of the crowd are
  rate-limited; a client silent `stall` seconds past its session's time is cut off (mdpsim would wait).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Mapping
from dataclasses import dataclass

from pddltools.ppddl import protocol
from pddltools.ppddl.simulation import Round, Simulator, Task
from pddltools.ppddl.state_view import StateView
from pddltools.serving import LimitedServer, Limits, ProtocolSession, ResultsLog, SessionEnded

LOG = logging.getLogger("pddltools.ppddl.server")


@dataclass(frozen=True)
class ServerConfig(Limits):
    rounds: int = 30
    time_ms: int = 900_000  # per session: mdpsim's default, 15 minutes
    turns: int = 1000  # per round (mdpsim's default is no limit)
    seed: int = 0
    max_message: int = protocol.MAX_MESSAGE  # the protocol's own default


class MdpsimServer(LimitedServer):
    def __init__(self, tasks: Mapping[str, Task], config: ServerConfig, results: ResultsLog) -> None:
        super().__init__(LOG, config)
        self.tasks = dict(tasks)
        self.views = {name: StateView(task) for name, task in self.tasks.items()}
        self.config = config
        self.results = results

    def new_session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> _Session:
        return _Session(self, reader, writer)


class _Session(ProtocolSession[protocol.Message]):
    server: MdpsimServer

    def __init__(self, server: MdpsimServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        config = server.config
        super().__init__(server, protocol.MdpsimReader(reader, config.max_message), writer)
        self.config = config
        self.session_start = self.started

    def encode(self, message: protocol.Message) -> bytes:
        return protocol.encode(message)

    def decode(self, frame: bytes) -> protocol.Message:
        return protocol.decode(frame)

    def elapsed_ms(self) -> int:
        return int((self.loop.time() - self.session_start) * 1000)

    def time_left_ms(self) -> int:
        return max(0, self.config.time_ms - self.elapsed_ms())

    async def receive(self) -> protocol.Message:
        """The next message. mdpsim waits for it as long as the client takes; here a client silent past its
        session's time (and `stall` seconds of grace) is cut off, so that it cannot hold its connection for
        ever."""
        try:
            return await self.read(self.session_start + self.config.time_ms / 1000 + self.config.stall)
        except TimeoutError:
            self.note(logging.WARNING, "the client said nothing past the session's time; session ended")
            raise SessionEnded from None

    async def first(self) -> protocol.SessionRequest | None:
        """The session-request, within `idle` seconds; None (and a throttled log line) without one."""
        message = await self.read_first(self.started + self.config.idle)
        if message is None:
            return None
        if not isinstance(message, protocol.SessionRequest) or not message.name or not message.problem:
            self.server.throttle.note("first", "a connection's first message was no session-request with a name "
                                               "and a problem: closed (as mdpsim closes it)")
            return None
        return message

    def record(self, event: str, **fields: object) -> None:
        self.server.results.append({
            "event": event, "session": self.id, "client": self.client, "problem": self.served,
            "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"), **fields})

    async def converse(self) -> None:
        request = await self.first()
        self.server.waiting.pop(self, None)
        if request is None:
            return
        self.client, self.served = request.name, request.problem
        task = self.server.tasks.get(request.problem)
        if task is None:
            self.note(logging.WARNING, "unknown problem; bad problem sent, closed")
            await self.send(protocol.ErrorMessage(f'bad problem "{request.problem}"'))
            return
        self.note(logging.INFO, "session started")
        await self.play(task)

    async def play(self, task: Task) -> None:
        config = self.config
        simulator = Simulator(task, config.turns, config.seed * 1_000_003 + self.id)
        view = self.server.views[task.name]
        await self.send(protocol.SessionInit(self.id, config.rounds, config.time_ms, config.turns))
        self.session_start = self.loop.time()
        total_metric = 0.0
        successes, goal_time, goal_turns = 0, 0, 0
        number = 1
        while number <= config.rounds:
            if not isinstance(await self.receive(), protocol.RoundRequest):
                self.note(logging.WARNING, "expected <round-request>; session ended")
                raise SessionEnded
            time_left = self.time_left_ms()
            await self.send(protocol.RoundInit(self.id, number, time_left, config.rounds - number))
            current, spent = await self.play_round(simulator, view, time_left)
            reward = simulator.value(current)
            total_metric += float(reward)
            turns = current.turn
            if current.goal:
                successes += 1
                goal_time += spent
                goal_turns += turns
            self.record("round-end", domain=task.domain_name, round=number, reward=float(reward), goal=current.goal,
                        turns=turns, ended=current.ended, time_spent_ms=spent)
            await self.send(protocol.EndRound(self.id, number, view.message(current.state, current.goal), current.goal,
                                     spent, turns))
            number += 1
        played = number - 1
        metric = total_metric / config.rounds if config.rounds > 0 else None
        self.record("session-end", domain=task.domain_name, rounds=played, rounds_planned=config.rounds,
                    successes=successes,
                    metric_average=metric, time_used_ms=self.elapsed_ms())
        await self.send(protocol.EndSession(self.id, played, config.rounds - successes, successes,
                                   goal_time / successes if successes else None,
                                   goal_turns / successes if successes else None, metric))
        self.note(logging.INFO, f"session ended: {successes} of {played} rounds reached the goal")

    async def play_round(self, simulator: Simulator, view: StateView, time_left: int) -> tuple[Round, int]:
        """One round; the round and its time in milliseconds (at most the time that was left)."""
        started = self.loop.time()
        current = simulator.reset()
        if time_left <= 0:
            current.ended = "out-of-time"
        while not current.over:
            await self.send(view.message(current.state, current.goal))
            message = await self.receive()
            if isinstance(message, protocol.Done):
                current.ended = "done"
                break
            if not isinstance(message, protocol.Act):
                self.note(logging.WARNING, "expected <act> or <done/>; session ended (mdpsim kills the connection)")
                raise SessionEnded
            shown = "(" + " ".join((message.name, *message.terms)) + ")"
            action = simulator.ground(message.name, message.terms)
            if action is None or not simulator.applicable(action, current.state):
                reason = "bad action" if action is None else "disabled action"
                await self.send(protocol.ErrorMessage(f'{reason} "{shown}"'))
                current.ended = "bad-action" if action is None else "disabled"
                break
            if self.time_left_ms() <= 0:
                current.ended = "out-of-time"
                break
            simulator.step(current, action)
        spent = min(time_left, int((self.loop.time() - started) * 1000))
        return current, max(0, spent)


__all__ = ["MdpsimServer", "ServerConfig"]
