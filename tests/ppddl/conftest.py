"""An in-process mdpsim server over corpus/ppddl/coin.pddl, and raw-socket helpers."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

from pddltools.ppddl.server import MdpsimServer, ServerConfig
from pddltools.ppddl.simulation import load_task
from pddltools.serving import ResultsLog

COIN = Path(__file__).resolve().parents[2] / "corpus" / "ppddl" / "coin.pddl"


@contextlib.asynccontextmanager
async def running_server(log: Path, **config: object) -> AsyncIterator[tuple[MdpsimServer, int]]:
    results = ResultsLog(log)
    tasks = {name: load_task([COIN], name) for name in ("toss", "landed")}
    server = MdpsimServer(tasks, ServerConfig(**config), results)  # type: ignore[arg-type]
    listener = await server.start("127.0.0.1", 0)
    try:
        yield server, listener.sockets[0].getsockname()[1]
    finally:
        listener.close()
        server.stop_sessions()
        await asyncio.sleep(0)
        results.close()


async def read_element(reader: asyncio.StreamReader, timeout: float = 5.0) -> bytes:
    """One server message, its newline included (the server writes one whole message per line)."""
    return await asyncio.wait_for(reader.readline(), timeout)


def log_records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
