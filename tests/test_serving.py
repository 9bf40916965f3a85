"""A server's life (`pddltools.serving.serve_until_signalled`), shared by `ppddl serve` and `rddlsim serve`:
SIGINT and SIGTERM are caught before the port opens, so whoever finds it open may signal at once."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pddltools.diagnostics import InputError
from pddltools.serving import LimitedServer, Limits, ResultsLog, serve_until_signalled


class Recording(LimitedServer):
    """A server that notes how SIGTERM is handled at the moment it is asked to listen."""

    def __init__(self) -> None:
        super().__init__(logging.getLogger("test-serving"), Limits())
        self.sigterm_at_start: object = None

    async def start(self, host: str = "127.0.0.1", port: int = 2323) -> asyncio.Server:
        self.sigterm_at_start = signal.getsignal(signal.SIGTERM)
        return await super().start(host, port)


def dispositions() -> tuple[object, object]:
    return signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)


# SIGINT as a terminal leaves it (Python's KeyboardInterrupt) and as `cmd &` in a script does (ignored,
# as in CI): the server must give back whichever it found
SIGINT_AS_FOUND = pytest.mark.parametrize("sigint", [signal.default_int_handler, signal.SIG_IGN],
                                          ids=["terminal", "background"])


@pytest.fixture
def sigint_as(sigint: object) -> Iterator[None]:
    found = signal.signal(signal.SIGINT, sigint)  # type: ignore[arg-type]
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, found)


@SIGINT_AS_FOUND
@pytest.mark.usefixtures("sigint_as")
def test_sigterm_is_caught_before_listening_and_stops_the_server_cleanly(tmp_path: Path) -> None:
    before = dispositions()
    server = Recording()
    results = ResultsLog(tmp_path / "log.jsonl")
    ports: list[int] = []

    def announce(port: int) -> None:
        ports.append(port)
        os.kill(os.getpid(), signal.SIGTERM)  # at once, as a script that waited for the line would

    asyncio.run(serve_until_signalled(server, "127.0.0.1", 0, results, announce))
    assert server.sigterm_at_start not in (signal.SIG_DFL, signal.SIG_IGN, None)
    assert len(ports) == 1 and ports[0] > 0
    assert results._file.closed
    assert dispositions() == before


@SIGINT_AS_FOUND
@pytest.mark.usefixtures("sigint_as")
def test_a_port_in_use_is_E003_and_gives_the_signals_back(tmp_path: Path) -> None:
    results = ResultsLog(tmp_path / "log.jsonl")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]

        async def serve() -> tuple[tuple[object, object], tuple[object, object]]:
            before = dispositions()  # asyncio.run's own SIGINT handler among them, where it sets one
            with pytest.raises(InputError) as raised:
                await serve_until_signalled(Recording(), "127.0.0.1", port, results, lambda _: None)
            assert [d.code for d in raised.value.diagnostics] == ["E003"]
            assert str(port) in raised.value.diagnostics[0].message
            return before, dispositions()  # still inside the loop: the server's handlers must be gone

        inside, after = asyncio.run(serve())
        assert after == inside
    results.close()
