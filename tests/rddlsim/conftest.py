"""Shared helpers: the captures of ../shared/rddlsim, the IPPC folders, and an in-process server."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from pddltools.rddl_simulation.problems import Problem, find_problems
from pddltools.rddlsim.server import RDDLSimServer, ResultsLog, ServerConfig

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CAPTURES = SHARED / "rddlsim"
CORPUS = SHARED / "corpus" / "rddl"
IPPC = [CORPUS / "ippc-2011", CORPUS / "ippc-2014"]
OWN = REPO / "corpus" / "rddl" / "rddlsim"

_PROBLEMS: dict[str, Problem] = {}


def ippc_problems() -> dict[str, Problem]:
    if not _PROBLEMS:
        if not all(p.is_dir() for p in IPPC):
            pytest.skip(f"the shared corpus is not at {CORPUS}")
        _PROBLEMS.update(find_problems(IPPC))
        _PROBLEMS.update(find_problems([OWN]))
    return _PROBLEMS


@dataclass
class Chunk:
    t: float
    direction: str
    data: bytes


def capture(name: str) -> list[Chunk]:
    path = CAPTURES / name
    if not path.is_file():
        pytest.skip(f"no capture {path}")
    chunks = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        chunks.append(Chunk(record["t"], record["dir"], bytes.fromhex(record["hex"])))
    return chunks


def frames(chunks: list[Chunk], direction: str) -> list[bytes]:
    """The NUL-ended messages one side sent, whatever the chunking."""
    data = b"".join(c.data for c in chunks if c.direction == direction)
    return [part + b"\0" for part in data.split(b"\0") if part.strip()]


def conversation(chunks: list[Chunk]) -> list[tuple[str, bytes]]:
    """Messages in the order they were sent, each with its direction."""
    buffers = {"C->S": b"", "S->C": b""}
    out: list[tuple[str, bytes]] = []
    for chunk in chunks:
        if chunk.direction not in buffers:
            continue
        buffers[chunk.direction] += chunk.data
        while b"\0" in buffers[chunk.direction]:
            frame, _, rest = buffers[chunk.direction].partition(b"\0")
            buffers[chunk.direction] = rest
            if frame.strip():
                out.append((chunk.direction, frame + b"\0"))
    return out


@contextlib.asynccontextmanager
async def running_server(log: Path, **config: object) -> AsyncIterator[tuple[RDDLSimServer, int]]:
    results = ResultsLog(log)
    server = RDDLSimServer(ippc_problems(), ServerConfig(**config), results)  # type: ignore[arg-type]
    listener = await server.start("127.0.0.1", 0)
    try:
        yield server, listener.sockets[0].getsockname()[1]
    finally:
        listener.close()
        for task in list(server.active):
            task.cancel()
        await asyncio.sleep(0)
        results.close()


def log_records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
