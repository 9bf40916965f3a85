"""A client for RDDLSim servers (ours and RDDLSim's Java one): a policy plays every round of a session.

The domain and instance come from the session-init's task (base64 RDDL text), so nothing needs to be
on the client's disk; `extra` files supply what the task leaves out (RDDLSim does not send a separate
non-fluents file). When the task cannot be simulated here (RDDLSim-only syntax), the no-op policy
still plays, with observations as plain text.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pddltools.diagnostics import Error, error
from pddltools.rddl import ast
from pddltools.rddl.parser import parse_text
from pddltools.rddl_simulation.grounding import Key, Value
from pddltools.rddl_simulation.problems import Problem, find_problems, problems_in
from pddltools.rddl_simulation.simulator import Simulator
from pddltools.rddlsim import protocol
from pddltools.rddlsim.policies import ActionSpace, Policy, load_policy
from pddltools.rddlsim.protocol import (
    Actions,
    Message,
    ResourceNotification,
    RoundEnd,
    RoundInit,
    RoundRequest,
    SessionEnd,
    SessionInit,
    SessionRequest,
    Turn,
)

LOG = logging.getLogger("pddltools.rddlsim.client")


class ClientError(Error):
    """The server closed, sent something out of order, or the instance cannot be played."""


def _fail(message: str) -> ClientError:
    return ClientError([error("R360", message)])


@dataclass
class SessionResult:
    instance: str
    client: str
    session_id: int = 0
    rounds: list[RoundEnd] = field(default_factory=list)
    end: SessionEnd | None = None

    def to_json(self) -> dict[str, object]:
        return {"instance": self.instance, "client": self.client, "session": self.session_id,
                "rounds": [{"round": r.round_num, "reward": r.round_reward, "turns": r.turns_used,
                            "time_left_ms": r.time_left} for r in self.rounds],
                "total_reward": self.end.total_reward if self.end else None,
                "rounds_used": self.end.rounds_used if self.end else len(self.rounds),
                "complete": self.end is not None}


class _NoModelPolicy:
    """The no-op for a task this package cannot simulate."""

    def reset(self) -> None:
        pass

    def act(self, observation: object) -> dict[Key, Value]:
        return {}


def problem_from_task(task: str, instance: str, extra: Sequence[str | Path] = ()) -> Problem:
    try:
        text = base64.b64decode(task, validate=False).decode("utf-8", "replace")
    except ValueError:
        raise _fail("the session-init's task is not base64") from None
    if not extra:
        found = _task_problems(text)
    else:
        found = {**find_problems(list(extra)), **_quiet([parse_text(text, "<task>")])}
    if instance not in found:
        raise _fail(f"the task does not define instance {instance}")
    return found[instance]


@functools.lru_cache(maxsize=64)
def _task_problems(text: str) -> dict[str, Problem]:
    # many sessions of one instance send one task: parse it once (problems are frozen, sharing is safe)
    return problems_in([parse_text(text, "<task>")])


def _quiet(files: Sequence[ast.RDDLFile]) -> dict[str, Problem]:
    try:
        return problems_in(files)
    except Error:
        return {}


class Client:
    def __init__(self, instance: str, policy_spec: str = "random", client_name: str = "pddltools",
                 seed: int = 0, extra: Sequence[str | Path] = (), timeout: float | None = None) -> None:
        self.instance = instance
        self.policy_spec = policy_spec
        self.client_name = client_name
        self.seed = seed
        self.extra = list(extra)
        self.timeout = timeout  # seconds to wait for any one server message
        self.simulator: Simulator | None = None

    async def play(self, host: str, port: int) -> SessionResult:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            return await self.session(reader, writer)
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, OSError):
                await writer.wait_closed()

    async def session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> SessionResult:
        frames = protocol.Reader(reader)
        loop = asyncio.get_running_loop()

        async def receive() -> Message:
            deadline = None if self.timeout is None else loop.time() + self.timeout
            try:
                message = await frames.read(deadline)
            except TimeoutError:
                raise _fail(f"no message from the server for {self.timeout} s") from None
            if message is None:
                raise _fail("the server closed the connection")
            return message

        async def send(message: Message) -> None:
            writer.write(protocol.encode(message))
            await writer.drain()

        result = SessionResult(self.instance, self.client_name)
        await send(SessionRequest(self.instance, self.client_name))
        try:
            init = await receive()
        except ClientError:
            raise _fail(f"the server closed without a session-init (does it know {self.instance}?)") from None
        if not isinstance(init, SessionInit):
            raise _fail(f"expected a session-init, got {type(init).__name__}")
        result.session_id = init.session_id
        policy = self.make_policy(init.task)
        while len(result.rounds) < init.num_rounds:
            await send(RoundRequest())
            message = await receive()
            if isinstance(message, SessionEnd):
                result.end = message
                return result
            if not isinstance(message, RoundInit):
                raise _fail(f"expected a round-init, got {type(message).__name__}")
            policy.reset()
            while True:
                message = await receive()
                if isinstance(message, Turn):
                    actions = policy.act(self.observation(message))
                    await send(self.encode_actions(actions))
                elif isinstance(message, RoundEnd):
                    result.rounds.append(message)
                    break
                elif isinstance(message, SessionEnd):
                    result.end = message
                    return result
                elif not isinstance(message, ResourceNotification):
                    raise _fail(f"unexpected {type(message).__name__} in a round")
        message = await receive()
        if not isinstance(message, SessionEnd):
            raise _fail(f"expected a session-end, got {type(message).__name__}")
        result.end = message
        return result

    def make_policy(self, task: str) -> Policy:
        try:
            problem = problem_from_task(task, self.instance, self.extra)
            self.simulator = problem.simulator(self.seed)
        except Error as exc:
            if self.policy_spec != "noop":
                raise _fail(f"cannot simulate {self.instance} here ({exc}); only --policy noop can play it") \
                    from None
            LOG.warning("cannot simulate %s here (%s); playing the no-op", self.instance, exc)
            return _NoModelPolicy()
        return load_policy(self.policy_spec, ActionSpace.of(self.simulator), self.seed + 1)

    def observation(self, turn: Turn) -> dict[Key, Value]:
        if turn.fluents is None:
            return {}
        decls = self.simulator.model.decls if self.simulator is not None else {}
        observation: dict[Key, Value] = {}
        for name, args, text in turn.fluents:
            decl = decls.get(name)
            try:
                value = protocol.parse_value(text, decl.range) if decl is not None else text
            except ValueError:
                value = text
            observation[(name, args)] = value
        return observation

    def encode_actions(self, actions: dict[Key, Value]) -> Actions:
        defaults = self.simulator.action_defaults if self.simulator is not None else {}
        # like RDDLSim's own policies: only the actions that differ from their defaults
        sent = tuple((name, args, protocol.format_value(value)) for (name, args), value in actions.items()
                     if defaults.get((name, args)) != value)
        return Actions(sent)
