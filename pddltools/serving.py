"""What the simulation servers share (`rddl serve` speaks RDDLSim's protocol, `ppddl serve` mdpsim's): the
results log, and an asyncio server no crowd of idle connections can lock.

`LimitedServer` keeps at most `cap` connections open at once (by default what the process's descriptor
limit leaves room for); a connection beyond that makes room by closing the oldest one that has not yet
sent its session-request (or is refused, when every open one is in session). Those closings, and a
descriptor shortage in the accept loop, are logged by a `Throttle`: at most once per ten seconds each,
with how many were held back. A protocol's server subclasses it and makes one `Session` per connection;
the session takes itself off `waiting` once its session-request is in, and reads every message with
the protocol's reader under the idle, stall and minimum-rate limits (`rddlsim.protocol.Reader`).
`read_results` reads the log back for the scorers.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import itertools
import json
import logging
import os
import resource
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Error, InputError, error
from pddltools.reading import read_input_text


@dataclass(frozen=True)
class Limits:
    """What no client, nor a crowd of them, may take of a server; a protocol's `ServerConfig` adds its
    session's terms (rounds, time) and gives `max_message` its own default."""

    max_message: int = 1 << 20  # bytes a message may have
    stall: float = 30.0  # seconds a message may take from its first byte (plus one per protocol.MIN_RATE bytes)
    idle: float = 10.0  # seconds a new connection may take to send its session-request
    max_connections: int = 0  # open at once; 0: as many as the descriptor limit leaves room for


def default_max_connections() -> int:
    """Connections the process's open-file limit leaves room for, and at most 4,096. 128 descriptors are
    kept back: for the results log, the listening sockets and the event loop, and because asyncio accepts
    up to its backlog (100) at a time, before the server sees any of them and can close one."""
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (OSError, ValueError):
        return 1024
    if soft == resource.RLIM_INFINITY:
        return 4096
    return max(8, min(4096, soft - 128))


class Throttle:
    """Log lines of one kind at most once per `every` seconds, each saying how many were held back:
    a crowd of idle connections, or a descriptor shortage, must not flood the log."""

    def __init__(self, log: logging.Logger, every: float = 10.0) -> None:
        self.log = log
        self.every = every
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def note(self, kind: str, message: str, level: int = logging.WARNING) -> None:
        now = time.monotonic()
        last = self._last.get(kind)
        if last is not None and now - last < self.every:
            self._held[kind] = self._held.get(kind, 0) + 1
            return
        held = self._held.pop(kind, 0)
        self._last[kind] = now
        self.log.log(level, "%s%s", message, f" (and {held} more like it in the last {now - last:.0f} s)"
                     if held and last is not None else "")


class ResultsLog:
    """Append-only JSON lines; each record is on disk (fsync) when `append` returns."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.path, "ab")  # noqa: SIM115 - open for the server's whole life
        self._lock = threading.Lock()

    def append(self, record: Mapping[str, Any]) -> None:
        line = (json.dumps(dict(record), sort_keys=True) + "\n").encode("utf-8")
        with self._lock:
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_results(path: str | Path, code: CodeId) -> list[dict[str, Any]]:
    """The records of a results log (JSON objects, one a line; other JSON values skipped). Raises
    `InputError` when the file cannot be read, and `InputError` with `code` naming the line that is not
    JSON."""
    text = read_input_text(path, f"results log {path}")
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            # a server killed while writing leaves at most its last line torn: every earlier one is whole
            raise InputError([error(code, f"{path}:{number}: not a JSON line")]) from None
        if isinstance(record, dict):
            records.append(record)
    return records


class Session(Protocol):
    """One connection's session, as `LimitedServer` holds it."""

    def close_quietly(self) -> None:
        """Close to make room for a newer connection (its end is not worth a log line of its own)."""

    async def run(self) -> None:
        """The whole session; returns when the connection is closed."""


class LimitedServer:
    """An asyncio server with a connection cap; subclasses make the sessions (`new_session`)."""

    def __init__(self, log: logging.Logger, limits: Limits) -> None:
        self.log = log
        self.limits = limits
        self.max_message = limits.max_message
        self.active: set[asyncio.Task[None]] = set()
        self.open: dict[Session, None] = {}  # every connection, oldest first
        self.waiting: dict[Session, None] = {}  # those that have not sent their session-request, oldest first
        self.cap = limits.max_connections or default_max_connections()
        self.throttle = Throttle(log)
        self.session_ids = itertools.count(1)  # as mdpsim and RDDLSim number them, from 1 in each server

    def new_session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Session:
        raise NotImplementedError

    async def start(self, host: str = "127.0.0.1", port: int = 2323) -> asyncio.Server:
        asyncio.get_running_loop().set_exception_handler(self._loop_error)
        return await asyncio.start_server(self._accept, host, port, limit=self.max_message + 65536)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Out of descriptors in the accept loop (asyncio retries a second later): one line, not a traceback
        per failed accept."""
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
            self.throttle.note("descriptors", f"cannot accept a connection: {exc.strerror} ({len(self.open)} "
                                              f"open, at most {self.cap}); retrying", logging.ERROR)
            return
        loop.default_exception_handler(context)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self.open) >= self.cap:
            oldest = next(iter(self.waiting), None)
            if oldest is None:
                self.throttle.note("refused", f"{len(self.open)} connections open, all in session (at most "
                                              f"{self.cap}, --max-connections): a new one refused")
                writer.transport.abort()
                return
            self.throttle.note("evicted", f"{len(self.open)} connections open (at most {self.cap}, "
                                          "--max-connections): the oldest without a session-request closed")
            self.waiting.pop(oldest, None)
            oldest.close_quietly()
        task = asyncio.current_task()
        if task is not None:
            self.active.add(task)
        session = self.new_session(reader, writer)
        self.open[session] = None
        self.waiting[session] = None
        try:
            await session.run()
        finally:
            self.open.pop(session, None)
            self.waiting.pop(session, None)
            if task is not None:
                self.active.discard(task)

    def stop_sessions(self) -> None:
        for task in list(self.active):
            task.cancel()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def stop_on_signals() -> asyncio.Event:
    """An event SIGINT or SIGTERM sets, for a server's main loop to wait on. Made before the server
    listens: whoever finds the port open may signal at once, and must find the signal caught, not the
    process killed before it closes its log."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop.set)
    return stop


async def serve_until_signalled(server: LimitedServer, host: str, port: int, results: ResultsLog,
                                announce: Callable[[int], None]) -> None:
    """A server's life in a command: SIGINT and SIGTERM are caught, then it listens on `host`:`port`
    (`InputError`, E003, when it cannot), and `announce` is called with the bound port; at the first
    signal the listener closes, every session is ended and the results log closed. However it ends, the
    two signals get back the handling they had before (asyncio would leave SIGINT's default handler, even
    where it was ignored)."""
    saved = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    stop = stop_on_signals()
    try:
        try:
            listener = await server.start(host, port)
        except OSError as exc:
            raise InputError([error("E003", f"cannot listen on {host}:{port}: {exc}")]) from None
        announce(listener.sockets[0].getsockname()[1])
        async with listener:
            await stop.wait()
        server.stop_sessions()
        results.close()
    finally:
        loop = asyncio.get_running_loop()
        for signum, handler in saved.items():
            loop.remove_signal_handler(signum)
            if handler is not None:  # None: set outside Python, nothing of ours to give back
                signal.signal(signum, handler)


class FrameReader(Protocol):
    """A protocol's reader of frames (`rddlsim.protocol.Reader` and its subclasses)."""

    @property
    def partial(self) -> bool:
        """Part of a message has arrived, not yet all of it."""

    async def read_frame(self, deadline: float | None = None, stall: float | None = None) -> bytes | None:
        """The next frame, or None when the peer closed between messages; `TimeoutError` at `deadline`."""


class SessionEnded(Exception):
    """Stop this session now, without another message (the reason is already logged)."""


M = TypeVar("M")


class ProtocolSession(Generic[M]):
    """One connection's session, in what both protocols do the same way; a protocol's session says how
    its messages of type `M` are written and read (`encode`, `decode`), plays the session from its first
    message on (`converse`), and gives back what it held when the connection ends (`release`).

    An error in reading (a message over the size limit, stalled, cut short, one that does not decode: the
    reader's and `decode`'s `Error`s) or the peer's close ends the session with a log line, as a client
    that does not take what is sent does; a failed simulation (any other `Error`) or a bug end this
    session only, never the server."""

    #: what a session plays, in its log lines: mdpsim's `problem`, RDDLSim's `instance`
    subject = "problem"

    def __init__(self, server: LimitedServer, reader: FrameReader, writer: asyncio.StreamWriter) -> None:
        self.server = server
        self.id: int = next(server.session_ids)
        self.loop = asyncio.get_running_loop()
        self.started = self.loop.time()
        self.frames = reader
        self.writer = writer
        self.stall = server.limits.stall
        self.idle = server.limits.idle
        self.client = "?"
        self.served = "?"  # the problem's or instance's name, once the session-request names one
        self.quiet = False  # closed to make room: its end is not worth a line of its own
        peer = writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else str(peer)

    def encode(self, message: M) -> bytes:
        """`message` as it goes on the wire."""
        raise NotImplementedError

    def decode(self, frame: bytes) -> M:
        """The message in one frame; the protocol's `Error` for anything else."""
        raise NotImplementedError

    async def converse(self) -> None:
        """The session from the connection's first message to its last."""
        raise NotImplementedError

    def release(self) -> None:
        """Give back what the session held (nothing, unless a protocol's session says otherwise)."""

    def close_quietly(self) -> None:
        self.quiet = True
        self.server.waiting.pop(self, None)
        self.writer.transport.abort()

    def note(self, level: int, what: str) -> None:
        if not self.quiet:
            self.server.log.log(level, "session %d (%s, client %s, %s %s): %s", self.id, self.peer, self.client,
                                 self.subject, self.served, what)

    async def send(self, message: M) -> None:
        self.writer.write(self.encode(message))
        if self.writer.transport.get_write_buffer_size() < 65536:
            return  # the kernel took it; waiting on drain() for every turn costs more than the send
        try:
            async with asyncio.timeout(self.stall):
                await self.writer.drain()
        except (TimeoutError, ConnectionError) as exc:
            self.note(logging.WARNING, f"the client does not take messages ({type(exc).__name__}); session ended")
            raise SessionEnded from None

    async def read(self, deadline: float) -> M:
        """The next message, arrived whole by `deadline` (else `TimeoutError`) and within the stall limit."""
        try:
            frame = await self.frames.read_frame(deadline, self.stall)
            message = None if frame is None else self.decode(frame)
        except Error as exc:
            self.note(logging.WARNING, f"{exc}; session ended")
            raise SessionEnded from None
        except ConnectionError as exc:
            self.note(logging.WARNING, f"connection lost ({exc}); session ended")
            raise SessionEnded from None
        if message is None:
            self.note(logging.WARNING, "the client closed the connection; session ended")
            raise SessionEnded
        return message

    async def read_first(self, deadline: float) -> M | None:
        """The connection's first message, by `deadline`; None (and a throttled log line) when it does not
        come: the connection is idle, trickles, fails or closes before it says anything."""
        throttle = self.server.throttle
        try:
            frame = await self.frames.read_frame(deadline, self.stall)
            message = None if frame is None else self.decode(frame)
        except TimeoutError:
            what = "sent nothing" if not self.frames.partial else "did not finish its first message"
            throttle.note("idle", f"a connection {what} within {self.idle:g} s (--idle): closed")
            return None
        except (Error, ConnectionError) as exc:
            if not self.quiet:
                throttle.note("first", f"a connection failed before its session-request ({exc}): closed")
            return None
        if message is None:
            if not self.quiet:
                throttle.note("silent", "a connection closed before its session-request", logging.INFO)
            return None
        return message

    async def run(self) -> None:
        try:
            await self.converse()
        except SessionEnded:
            pass
        except Error as exc:  # the task or model failed (a metric that cannot be evaluated, a bad probability)
            self.note(logging.ERROR, f"the simulation failed: {exc}; session ended")
        except Exception:  # a bug must end one session, never the server
            self.server.log.exception("session %d: internal error; session ended", self.id)
        finally:
            self.release()
            self.writer.close()
            with contextlib.suppress(TimeoutError, ConnectionError, OSError):
                await asyncio.wait_for(self.writer.wait_closed(), 1.0)
