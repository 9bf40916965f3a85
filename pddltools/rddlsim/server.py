"""An RDDLSim server on asyncio: every instance of a folder, many clients at once, each with its own clock.

What a session looks like on the wire is RDDLSim's (see `protocol`). The clock starts when the
connection is accepted; the session has `timeout` seconds in all. Every round-end and session-end is
appended to the results log, flushed and fsynced, before the client is told.

Bad input, and what happens (following the Java server where it has a rule; no error message is ever
sent, as RDDLSim sends none):
- malformed XML, a wrong root element, an unknown action name, a number that does not parse, a message
  over the size limit: the session ends at once and the socket closes (RDDLSim: stack trace, close);
- an unknown object, the wrong number of arguments, an enum or object value not of the range: that
  action is dropped (RDDLSim accepts these silently), a boolean other than `true` reads as false;
- more non-default actions than `max-nondef-actions`, or a broken state-action constraint or action
  precondition: the round ends at once with round-reward 0.0 and turns-used 0, the session goes on;
- an unknown instance name: the socket closes, nothing is sent;
- a client that disconnects mid-round: its session ends; a client that sends half a message and then
  nothing for `stall` seconds: its session ends (RDDLSim's thread would wait; an asyncio server must
  not keep it forever);
- a client out of session time: a round-end with negative time-left, then the session-end at once.
Each case is one log line naming the session, the client and the instance. Other sessions go on.

No client, and no crowd of them, can lock the others out: a connection must send its session-request
within `idle` seconds; every message must arrive whole within `stall` seconds of its first byte (plus a
second for each 16 KB: see `protocol.MIN_RATE`), so a peer trickling a byte a second is cut off too;
at most `max_connections` are open at once (by default what the process's descriptor limit leaves
room for), and a connection beyond that makes room by closing the oldest one that has not yet sent its
session-request (or is refused, when every open one is in session). These closings, and a descriptor
shortage in the accept loop, are logged at most once per ten seconds each, with how many there were.

Where we differ on purpose: `<no-header/>` affects only the session that asks for it (in RDDLSim it is
a process-wide flag that changes every later session too).
"""

from __future__ import annotations

import asyncio
import base64
import datetime
import logging
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pddltools.diagnostics import Diagnostic, Error, error
from pddltools.rddl_simulation.grounding import Key, Value
from pddltools.rddl_simulation.problems import Problem
from pddltools.rddl_simulation.simulator import ActionError, ConstraintViolation, Simulator
from pddltools.rddlsim import protocol
from pddltools.serving import (
    LimitedServer,
    Limits,
    ProtocolSession,
    ResultsLog,
    SessionEnded,
    Throttle,
    default_max_connections,
)

LOG = logging.getLogger("pddltools.rddlsim.server")


@dataclass(frozen=True)
class ServerConfig(Limits):
    rounds: int = 30
    timeout: float = 1080.0  # seconds per session, as RDDLSim's default
    seed: int = 0
    max_message: int = protocol.MAX_MESSAGE  # the protocol's own default
    folder: str = ""


class _OutOfTime(SessionEnded):
    """The session's time ran out while the server waited for the client."""


@dataclass
class _Pool:
    """Idle simulators per instance: compiling an instance once serves every later session."""

    problems: Mapping[str, Problem]
    idle: dict[str, list[Simulator]] = field(default_factory=dict)

    def take(self, name: str) -> Simulator:
        spare = self.idle.get(name)
        return spare.pop() if spare else self.problems[name].simulator()

    def give_back(self, name: str, simulator: Simulator) -> None:
        self.idle.setdefault(name, []).append(simulator)


class RDDLSimServer(LimitedServer):
    def __init__(self, problems: Mapping[str, Problem], config: ServerConfig, results: ResultsLog) -> None:
        super().__init__(LOG, config)
        self.problems = problems
        self.config = config
        self.results = results
        self.pool = _Pool(problems)

    def new_session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> _Session:
        return _Session(self, reader, writer)

    def prepare(self) -> list[Diagnostic]:
        """Compile every instance once (the simulators wait in the pool); those that cannot be simulated
        are taken out of service, and their diagnostics returned, so no client is accepted for them."""
        failed: list[Diagnostic] = []
        served = dict(self.problems)
        for name, problem in self.problems.items():
            try:
                self.pool.give_back(name, problem.simulator())
            except Error as exc:
                failed.extend(Diagnostic(d.code, d.severity, f"instance {name} is not served: {d.message}", d.span)
                              for d in exc.diagnostics)
                del served[name]
            except RecursionError:
                failed.append(error("R106", f"instance {name} is not served: expressions nest too deeply"))
                del served[name]
        self.problems = served
        self.pool.problems = served
        return failed


class _Session(ProtocolSession[protocol.Message]):
    server: RDDLSimServer
    subject = "instance"

    def __init__(self, server: RDDLSimServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        config = server.config
        super().__init__(server, protocol.Reader(reader, config.max_message), writer)
        self.config = config
        self.deadline = self.started + config.timeout
        self.header = True
        self.simulator: Simulator | None = None  # taken from the pool for the session, given back at its end

    # -- plumbing --------------------------------------------------------------------------------

    def encode(self, message: protocol.Message) -> bytes:
        return protocol.encode(message, self.header)

    def decode(self, frame: bytes) -> protocol.Message:
        return protocol.decode(frame)

    def release(self) -> None:
        if self.simulator is not None:
            self.server.pool.give_back(self.served, self.simulator)

    def time_left_ms(self) -> float:
        # whole milliseconds, as RDDLSim's clock (currentTimeMillis) gives them
        return float(math.floor((self.deadline - self.loop.time()) * 1000.0))

    async def receive(self) -> protocol.Message:
        """The next message; a resource-request is answered here and the wait goes on, as in RDDLSim."""
        while True:
            try:
                message = await self.read(self.deadline)
            except TimeoutError:
                raise _OutOfTime from None
            if isinstance(message, protocol.ResourceRequest):
                await self.send(protocol.ResourceNotification(self.time_left_ms()))
                continue
            if self.loop.time() > self.deadline:
                raise _OutOfTime
            return message

    async def first(self) -> protocol.Message | None:
        """The connection's first message, within `idle` seconds; None (and a throttled log line) when it
        does not come."""
        message = await self.read_first(min(self.deadline, self.started + self.config.idle))
        if isinstance(message, protocol.ResourceRequest):  # answered, as any later one; the request must follow
            await self.send(protocol.ResourceNotification(self.time_left_ms()))
            return await self.receive()
        return message

    async def expect(self, kind: type[protocol.Message]) -> protocol.Message:
        message = await self.receive()
        if not isinstance(message, kind):
            self.note(logging.WARNING, f"expected <{_tag(kind)}>, got <{_tag(type(message))}>; session ended")
            raise SessionEnded
        return message

    def record(self, event: str, **fields: Any) -> None:
        record = {"event": event, "session": self.id, "client": self.client, "instance": self.served,
                  "time": datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds"), **fields}
        if self.config.folder:
            record["folder"] = self.config.folder  # lets `rddl score` find the files to run baselines
        self.server.results.append(record)

    # -- the session -----------------------------------------------------------------------------

    async def converse(self) -> None:
        request = await self.first()
        if request is None:
            return
        self.server.waiting.pop(self, None)
        if not isinstance(request, protocol.SessionRequest):
            self.note(logging.WARNING, f"expected <session-request>, got <{_tag(type(request))}>; closed")
            return
        self.client = request.client_name
        self.header = not request.no_header
        problem = self.server.problems.get(request.problem_name)
        if problem is None:
            self.note(logging.WARNING, f"unknown instance {request.problem_name!r}; closed without a reply")
            return
        self.served = problem.name
        self.simulator = self.server.pool.take(problem.name)
        self.note(logging.INFO, "session started")
        await self.play(problem, self.simulator)

    async def play(self, problem: Problem, simulator: Simulator) -> None:
        rounds = self.config.rounds
        task = base64.b64encode(problem.task_text().encode("utf-8")).decode("ascii")
        await self.send(protocol.SessionInit(task, self.id, rounds, self.config.timeout * 1000.0))
        total, used = 0.0, 0
        for number in range(1, rounds + 1):
            try:
                await self.expect(protocol.RoundRequest)
            except _OutOfTime:
                self.note(logging.WARNING, "out of session time before a round: session-end follows")
                break
            await self.send(protocol.RoundInit(number, rounds - number, self.time_left_ms()))
            reward, out_of_time = await self.play_round(problem, simulator, number)
            total += reward
            used += 1
            if out_of_time:
                break
        time_left = int(self.time_left_ms())
        self.record("session-end", domain=problem.domain.name, total_reward=total, rounds=used,
                    rounds_planned=rounds, time_left_ms=time_left)
        await self.send(protocol.SessionEnd(problem.name, total, used, self.client, self.id, time_left))
        self.note(logging.INFO, f"session ended: {used} rounds, total reward {total}")

    async def play_round(self, problem: Problem, simulator: Simulator, number: int) -> tuple[float, bool]:
        """One round; its reward and whether the session's time ran out in it."""
        observation = simulator.reset(self.config.seed * 1_000_003 + self.id * 1009 + number)
        immediate = 0.0
        ended = "horizon"
        out_of_time = False
        while True:
            fluents = None if simulator.partially_observed and simulator.turn == 0 else \
                protocol.observed(observation)
            await self.send(protocol.Turn(simulator.turn + 1, self.time_left_ms(), immediate, fluents))
            try:
                message = await self.expect(protocol.Actions)
            except _OutOfTime:
                self.note(logging.WARNING, "out of session time in a round: round-end and session-end follow")
                ended, out_of_time = "out-of-time", True
                break
            assert isinstance(message, protocol.Actions)
            actions = self.actions(simulator, message)
            try:
                step = simulator.step(actions)
            except (ActionError, ConstraintViolation) as exc:
                self.note(logging.WARNING, f"{exc}; round {number} ends with reward 0, as in RDDLSim")
                return await self.end_round(problem, number, 0.0, 0, immediate, "invalid-actions"), False
            immediate, observation = step.reward, step.observation
            if step.done:
                ended = "terminated" if simulator.turn < simulator.horizon else "horizon"
                break
        reward = await self.end_round(problem, number, simulator.total_reward, simulator.turn, immediate, ended)
        return reward, out_of_time

    async def end_round(self, problem: Problem, number: int, reward: float, turns: int, immediate: float,
                        ended: str) -> float:
        time_left = int(self.time_left_ms())
        self.record("round-end", domain=problem.domain.name, round=number - 1, reward=reward, turns=turns,
                    ended=ended, time_left_ms=time_left)
        await self.send(protocol.RoundEnd(problem.name, self.client, number - 1, reward, turns, time_left, immediate))
        return reward

    def actions(self, simulator: Simulator, message: protocol.Actions) -> dict[Key, Value]:
        """The actions as RDDLSim reads them: unknown names end the session, other slips are dropped."""
        decls = simulator.model.decls
        actions: dict[Key, Value] = {}
        for name, args, text in message.actions:
            decl = decls.get(name)
            if decl is None or decl.kind != "action-fluent":
                self.note(logging.WARNING, f"unknown action {name!r}; session ended")
                raise SessionEnded
            if len(args) != len(decl.params) or any(
                    a not in simulator.model.objects.get(p, ()) for a, p in zip(args, decl.params, strict=False)):
                self.note(logging.INFO, f"action {name}({', '.join(args)}) does not fit {name}"
                          f"({', '.join(decl.params)}); dropped, as RDDLSim ignores it")
                continue
            try:
                value = protocol.parse_value(text, decl.range)
            except ValueError:
                self.note(logging.WARNING, f"action {name}: {text!r} is not {decl.range}; session ended")
                raise SessionEnded from None
            if decl.range not in ("bool", "int", "real") and value not in simulator.model.objects.get(decl.range, ()):
                self.note(logging.INFO, f"action {name}: {text!r} is not a value of {decl.range}; dropped")
                continue
            actions[(name, tuple(args))] = value
        return actions


def _tag(kind: type[Any]) -> str:
    names = {protocol.SessionRequest: "session-request", protocol.SessionInit: "session-init",
             protocol.RoundRequest: "round-request", protocol.RoundInit: "round-init", protocol.Turn: "turn",
             protocol.Actions: "actions", protocol.RoundEnd: "round-end", protocol.SessionEnd: "session-end",
             protocol.ResourceRequest: "resource-request", protocol.ResourceNotification: "resource-notification"}
    return names.get(kind, kind.__name__)


async def serve(problems: Mapping[str, Problem], config: ServerConfig, results: ResultsLog,
                host: str = "127.0.0.1", port: int = 2323, ready: asyncio.Event | None = None,
                stop: asyncio.Event | None = None) -> None:
    """Serve until `stop` is set (or forever); `ready` is set once the port is bound."""
    server = RDDLSimServer(problems, config, results)
    listener = await server.start(host, port)
    LOG.info("serving %d instances on %s", len(problems),
             ", ".join(f"{s.getsockname()[0]}:{s.getsockname()[1]}" for s in listener.sockets))
    if ready is not None:
        ready.set()
    async with listener:
        if stop is None:
            await listener.serve_forever()
        else:
            await stop.wait()
            listener.close()
            for task in list(server.active):
                task.cancel()


def bound_port(listener: asyncio.Server) -> int:
    port: int = listener.sockets[0].getsockname()[1]
    return port


__all__ = ["Error", "RDDLSimServer", "ResultsLog", "ServerConfig", "Throttle", "default_max_connections", "serve"]
