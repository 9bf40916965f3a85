"""`pddltools lsp` in a child process, spoken to over raw frames (the turn-3 reproducers and fuzzing)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from typing import Any

from tests.fuzzing import PYTHON_LOOP, cap_address_space, child_env

#: The server's address space: a frame read whole, or a message kept without bound, ends it here.
ADDRESS_SPACE = 3 << 30


class RawServer:
    """`pddltools lsp` in a child process (address space capped), spoken to byte by byte."""

    def __init__(self, python_loop: bool = False) -> None:
        # the Python parse loop for every thread of the server (the variant's default, not a context)
        start = (PYTHON_LOOP if python_loop else "") + (
                 "import sys; from pddltools.lsp.server import main; sys.exit(main())")
        self.process = subprocess.Popen([sys.executable, "-c", start], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=child_env(),
                                        preexec_fn=lambda: cap_address_space(ADDRESS_SPACE))
        self.buffer = b""
        self.next_id = 100

    def raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def read(self, timeout: float) -> dict[str, Any] | None:
        assert self.process.stdout is not None
        end = time.monotonic() + timeout
        while True:
            at = self.buffer.find(b"\r\n\r\n")
            if at >= 0:
                header = next(line for line in self.buffer[:at].split(b"\r\n")
                              if line.lower().startswith(b"content-length"))
                size = int(header.split(b":")[1])
                if len(self.buffer) >= at + 4 + size:
                    body, self.buffer = self.buffer[at + 4:at + 4 + size], self.buffer[at + 4 + size:]
                    found: dict[str, Any] = json.loads(body)
                    return found
            left = end - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.process.stdout], [], [], left)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 1 << 16)
                if not chunk:
                    return None
                self.buffer += chunk

    def reply(self, ident: Any, timeout: float = 20) -> dict[str, Any] | None:
        """The response to request `ident` (None: an error reply to a frame without one)."""
        end = time.monotonic() + timeout
        while (message := self.read(max(0.0, end - time.monotonic()))) is not None:
            if "method" not in message and message.get("id") == ident:
                return message
        return None

    def request(self, method: str, params: Any, timeout: float = 20) -> dict[str, Any] | None:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.reply(self.next_id, timeout)

    def diagnostics(self, uri: str, timeout: float = 30) -> list[dict[str, Any]] | None:
        end = time.monotonic() + timeout
        while (message := self.read(max(0.0, end - time.monotonic()))) is not None:
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                found: list[dict[str, Any]] = message["params"]["diagnostics"]
                return found
        return None

    def start(self) -> None:
        assert self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}) is not None
        self.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    def stop(self) -> int | None:
        try:
            self.request("shutdown", None, timeout=10)
            self.send({"jsonrpc": "2.0", "method": "exit"})
            return self.process.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
            return None

