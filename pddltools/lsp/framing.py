"""The language server's reading of its input: LSP frames checked before pygls sees them.

pygls' own loop trusts the client: `Content-Length: 99999999999999999999` makes it die (an
OverflowError in `read`), a header of gigabytes without a newline is read whole, and a request that
does not fit its schema (a negative position) is logged and never answered, so the client waits
for ever. Here every header line and body is bounded, and a frame that cannot be a message gets an
error reply and is skipped (the reader then looks for the next `Content-Length` header, so that the
frames after a bad one are still read): a parse error (-32700) for a body that is not JSON, an
invalid request (-32600) for a header or a message that is not one, invalid params (-32602), with
the request's id, for a request whose parameters do not fit the method. The server stays up.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer

from pddltools.lsp.quickstart import MAX_BODY, MAX_HEADER_LINE, Opening

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32602, -32603

# searched, not matched whole: after a bad frame the next header may follow the bad body on its line
_LENGTH = re.compile(rb"Content-Length[ \t]*:[ \t]*(\S*)[ \t]*\r?\n?$", re.IGNORECASE)
_TYPE = re.compile(rb"Content-Type[ \t]*:", re.IGNORECASE)

logger = logging.getLogger(__name__)


class FrameReader:
    """Frames from a binary stream, read in `executor` so that the event loop stays free."""

    def __init__(self, stream: BinaryIO, executor: ThreadPoolExecutor | None) -> None:
        self.stream = stream
        self.executor = executor

    async def _call(self, method: Any, *args: Any) -> bytes:
        data: bytes = await asyncio.get_running_loop().run_in_executor(self.executor, method, *args)
        return data

    async def _line(self) -> tuple[bytes, bool]:
        """A header line (at most MAX_HEADER_LINE bytes kept) and whether it was longer."""
        line = await self._call(self.stream.readline, MAX_HEADER_LINE + 1)
        if len(line) <= MAX_HEADER_LINE or line.endswith(b"\n"):
            return line, False
        while True:  # the rest of an overlong line is read and dropped, a bounded piece at a time
            rest = await self._call(self.stream.readline, 1 << 16)
            if not rest or rest.endswith(b"\n"):
                return line[:MAX_HEADER_LINE], True

    async def frame(self) -> tuple[bytes | None, str | None] | None:
        """(body, None), (None, why the frame is not one), or None at the end of the input."""
        length: int | None = None
        problem: str | None = None
        seen = False
        while True:
            line, overlong = await self._line()
            if not line:
                return None
            if not line.strip():
                if seen:
                    break
                continue  # blank lines between frames are not a frame
            seen = True
            if overlong:
                problem = problem or f"a header line longer than {MAX_HEADER_LINE:,} bytes"
                continue
            found = _LENGTH.search(line)
            if found is not None:
                digits = found.group(1)
                length, problem = None, None  # a Content-Length starts a frame afresh
                if not (digits.isdigit() and digits.isascii()):
                    problem = f"the Content-Length {digits[:24].decode(errors='replace')!r} is not a number of bytes"
                elif len(digits) > 12 or int(digits) > MAX_BODY:
                    problem = (f"the Content-Length {digits[:24].decode()} is larger than the {MAX_BODY >> 20} MB a "
                               "message may have")
                else:
                    length = int(digits)
            elif _TYPE.match(line) is None:
                problem = problem or f"not an LSP header: {line.strip()[:60].decode(errors='replace')!r}"
        if problem is None and length is None:
            problem = "a message without a Content-Length header"
        if problem is not None or length is None:
            return None, problem
        body = await self._call(self.stream.read, length)
        if len(body) < length:
            return None
        return body, None


class Replies:
    """Error replies written in the server's own framing, on the event loop's thread."""

    def __init__(self, server: LanguageServer) -> None:
        self.server = server

    def error(self, ident: Any, code: int, message: str) -> None:
        self._write({"jsonrpc": "2.0", "id": ident if isinstance(ident, int | str) else None,
                     "error": {"code": code, "message": message}})

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def _write(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        writer = self.server.protocol.writer
        if writer is not None:
            writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def dispatch(server: LanguageServer, replies: Replies, body: bytes) -> None:
    """Hand one body to pygls, answering what it cannot take with an error."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        replies.error(None, PARSE_ERROR, f"Parse error: the message is not JSON ({str(exc)[:80]})")
        return
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        replies.error(None, INVALID_REQUEST, "Invalid Request: a message is a JSON-RPC 2.0 object")
        return
    ident = data.get("id")
    request = "method" in data and "id" in data
    try:
        message = server.protocol.structure_message(data)
    except JsonRpcInvalidParams:
        if request:
            replies.error(ident, INVALID_PARAMS, f"Invalid params for {str(data.get('method'))[:60]}: a "
                          "value does not fit the protocol (a negative or too large position, a wrong type)")
        return
    except Exception:
        if request:
            replies.error(ident, INVALID_REQUEST, "Invalid Request: the message does not fit the protocol")
        return
    try:
        server.protocol.handle_message(message)
    except Exception as exc:
        logger.exception("Unable to handle message")
        if request:
            replies.error(ident, INTERNAL_ERROR, f"Internal error: {type(exc).__name__}")


class _Held:
    """A writer that keeps what pygls writes (its reply to the `initialize` already answered)."""

    def __init__(self) -> None:
        self.data = b""

    def write(self, data: bytes) -> None:
        self.data += data

    def close(self) -> None:
        pass


def replay_initialize(server: LanguageServer, body: bytes) -> dict[str, Any] | None:
    """Hand pygls the `initialize` request `lsp.quickstart` answered, keeping its reply from the client;
    return that reply (None if pygls wrote none)."""
    writer, include_headers = server.protocol.writer, server.protocol._include_headers
    held = _Held()
    server.protocol.set_writer(held, include_headers=False)
    try:
        dispatch(server, Replies(server), body)
    finally:
        server.protocol.set_writer(writer, include_headers=include_headers)  # type: ignore[arg-type]
    if not held.data:
        return None
    reply: dict[str, Any] = json.loads(held.data.rpartition(b"\r\n\r\n")[2])  # an error reply comes framed
    return reply


async def _serve(server: LanguageServer, reader: FrameReader, stop: threading.Event,
                 opening: Opening | None = None) -> None:
    replies = Replies(server)
    if opening is not None and opening.answered is not None:
        reply = replay_initialize(server, opening.answered)
        if reply is not None and "error" in reply and opening.fallback is not None:
            # answered already: pygls takes the request without the capabilities it cannot read
            replies.notify("window/showMessage", {"type": 2, "message": (
                "pddltools lsp: the client's capabilities do not fit the protocol "
                f"({reply['error'].get('message', '')[:200]}); the server runs as for a client that states "
                "only its position encodings")})
            reply = replay_initialize(server, opening.fallback)
        if reply is None or reply.get("result") != opening.reply:
            logger.error("pygls' answer to initialize differs from the one sent (lsp/quickstart.py): %s", reply)
    while not stop.is_set():
        frame = await reader.frame()
        if frame is None:
            break
        body, problem = frame
        if body is None:
            replies.error(None, INVALID_REQUEST, f"Invalid Request: {problem}")
            continue
        dispatch(server, replies, body)


def serve_stdio(server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None,
                opening: Opening | None = None) -> None:
    """`server.start_io()`, with the frames read here; `opening` is what `lsp.quickstart` read first."""
    from pygls.io_ import StdoutWriter

    stop = threading.Event()
    server._stop_event = stop  # what pygls' shutdown sets to end the loop
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    stream = stdin or sys.stdin.buffer
    reader = FrameReader(opening.stream(stream) if opening is not None else stream, server.thread_pool)
    try:
        asyncio.run(_serve(server, reader, stop, opening))
    except BrokenPipeError:
        logger.error("Connection to the client is lost! Shutting down the server.")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()  # type: ignore[no-untyped-call]
