"""A client for mdpsim servers (mdpsim's own and `pddltools ppddl serve`), as mdpsim's `mdpclient` plays:
the problem is read from local files, a policy picks each action from the state the server sends
(`random`: uniformly among the applicable actions, as mdpclient's planner; `noop`: `<done/>`).

A round's reward is read off its end-round's state: the problem's metric over it (with `goal-reached`
for mdpsim's `goal-achieved` and the turns used for `total-time`).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field

from pddltools.diagnostics import Error, error
from pddltools.ppddl import protocol
from pddltools.ppddl.protocol import (
    Act,
    Done,
    EndRound,
    EndSession,
    ErrorMessage,
    Message,
    RoundInit,
    RoundRequest,
    SessionInit,
    SessionRequest,
    StateMessage,
)
from pddltools.ppddl.simulation import Round, Simulator, Task, policy_of
from pddltools.ppddl.state_view import StateView
from pddltools.rddlsim.protocol import ProtocolError


class ClientError(Error):
    """The server closed, refused the problem, or sent something out of order."""


def _fail(message: str) -> ClientError:
    return ClientError([error("E950", message)])


@dataclass(frozen=True)
class PlayedRound:
    round: int
    reward: float
    goal: bool
    turns: int
    time_spent_ms: int
    error: str = ""  # the server's <error> in the round, if any


@dataclass
class SessionResult:
    problem: str
    client: str
    session_id: int = 0
    rounds: list[PlayedRound] = field(default_factory=list)
    end: EndSession | None = None

    @property
    def mean(self) -> float:
        return sum(r.reward for r in self.rounds) / len(self.rounds) if self.rounds else float("nan")

    def to_json(self) -> dict[str, object]:
        end = self.end
        return {"problem": self.problem, "client": self.client, "session": self.session_id,
                "rounds": [{"round": r.round, "reward": r.reward, "goal": r.goal, "turns": r.turns,
                            "time_spent_ms": r.time_spent_ms, **({"error": r.error} if r.error else {})}
                           for r in self.rounds],
                "mean": self.mean, "successes": sum(r.goal for r in self.rounds),
                "metric_average": end.metric_average if end else None, "complete": end is not None}


class Client:
    def __init__(self, task: Task, policy: str = "random", name: str = "pddltools", seed: int = 0,
                 timeout: float = 600.0) -> None:
        self.task = task
        self.view = StateView(task)
        self.simulator = Simulator(task, horizon=1 << 62, seed=seed)
        self.policy = policy_of(policy, seed + 1)
        self.name = name
        self.timeout = timeout  # seconds to wait for any one message

    async def play(self, host: str, port: int) -> SessionResult:
        reader, writer = await asyncio.open_connection(host, port, limit=protocol.MAX_MESSAGE + 65536)
        try:
            return await self._session(protocol.MdpsimReader(reader), writer)
        finally:
            writer.close()
            with contextlib.suppress(OSError, TimeoutError):
                await asyncio.wait_for(writer.wait_closed(), 1.0)

    async def _receive(self, reader: protocol.MdpsimReader) -> Message:
        loop = asyncio.get_running_loop()
        try:
            message = await reader.message(loop.time() + self.timeout, self.timeout)
        except TimeoutError:
            raise _fail(f"the server sent nothing for {self.timeout:g} s") from None
        except ProtocolError as exc:
            raise ClientError([error("E950", f"the server sent a bad message: {exc}")]) from None
        if message is None:
            raise _fail("the server closed the connection")
        return message

    async def _session(self, reader: protocol.MdpsimReader, writer: asyncio.StreamWriter) -> SessionResult:
        result = SessionResult(self.task.name, self.name)
        writer.write(protocol.encode(SessionRequest(self.name, self.task.name)))
        init = await self._receive(reader)
        if isinstance(init, ErrorMessage):
            raise _fail(f"the server refused the session: {init.text}")
        if not isinstance(init, SessionInit):
            raise _fail(f"expected <session-init>, got <{protocol.TAGS[type(init)]}>")
        result.session_id = init.session_id
        for _ in range(init.rounds):
            writer.write(protocol.encode(RoundRequest()))
            message = await self._receive(reader)
            if isinstance(message, EndSession):
                result.end = message
                return result
            if not isinstance(message, RoundInit):
                raise _fail(f"expected <round-init>, got <{protocol.TAGS[type(message)]}>")
            ended = await self._round(reader, writer, message.round)
            if isinstance(ended, EndSession):
                result.end = ended
                return result
            result.rounds.append(ended)
        end = await self._receive(reader)
        if not isinstance(end, EndSession):
            raise _fail(f"expected <end-session>, got <{protocol.TAGS[type(end)]}>")
        result.end = end
        return result

    async def _round(self, reader: protocol.MdpsimReader, writer: asyncio.StreamWriter, number: int
                     ) -> PlayedRound | EndSession:
        turns = 0
        refused = ""
        while True:
            message = await self._receive(reader)
            if isinstance(message, EndRound):
                return PlayedRound(number, self.reward(message), message.goal_reached, message.turns_used,
                                   message.time_spent, refused)
            if isinstance(message, EndSession):
                return message
            if isinstance(message, ErrorMessage):
                refused = message.text  # the end-round follows
                continue
            if not isinstance(message, StateMessage):
                raise _fail(f"expected <state>, got <{protocol.TAGS[type(message)]}>")
            state = self.view.state(message)
            action = self.policy.act(self.simulator, state)
            writer.write(protocol.encode(Done() if action is None else Act(action.name, action.args)))
            turns += 1

    def reward(self, end: EndRound) -> float:
        """The metric over the end-round's state, as mdpsim's end-session averages it."""
        state = self.view.state(end.state)
        return float(self.simulator.value(Round(self.task, state, end.turns_used, end.goal_reached, "end")))


__all__ = ["Client", "ClientError", "SessionResult"]
