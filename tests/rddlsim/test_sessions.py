"""Our client against our server: every IPPC-2011 and IPPC-2014 instance of the corpus for 3 full rounds
(their real horizons), and a bounded load test of 50 concurrent clients with a stalled one beside them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pddltools.rddlsim.client import Client, SessionResult

from .conftest import CORPUS, ippc_problems, log_records, running_server

ROUNDS = 3


def ippc_instances() -> list[str]:
    problems = ippc_problems()
    return sorted(name for name, p in problems.items()
                  if p.instance.span is not None and "/ippc-20" in p.instance.span.file)


@pytest.mark.corpus
def test_every_ippc_instance_plays_three_rounds(tmp_path: Path) -> None:
    names = ippc_instances()
    expected = {p.stem for folder in ("ippc-2011", "ippc-2014") for p in (CORPUS / folder).glob("*_inst_*.rddl")}
    assert set(names) == expected and len(names) >= 30

    async def main() -> list[SessionResult]:
        async with running_server(tmp_path / "log.jsonl", rounds=ROUNDS, timeout=600.0) as (_, port):
            # the clients take turns with the server on one event loop: instances run side by side
            clients = [Client(name, "random", "pddltools", seed=i).play("127.0.0.1", port)
                       for i, name in enumerate(names)]
            return await asyncio.wait_for(asyncio.gather(*clients), 600)

    results = asyncio.run(main())
    problems = ippc_problems()
    for result in results:
        horizon = problems[result.instance].simulator().horizon
        assert result.end is not None, result.instance
        assert [r.turns_used for r in result.rounds] == [horizon] * ROUNDS, result.instance
        assert result.end.total_reward == pytest.approx(sum(r.round_reward for r in result.rounds))
    records = log_records(tmp_path / "log.jsonl")
    assert sum(r["event"] == "round-end" for r in records) == ROUNDS * len(names)
    assert sum(r["event"] == "session-end" for r in records) == len(names)


CLIENTS = 50


def test_fifty_concurrent_clients_and_a_stalled_one(tmp_path: Path) -> None:
    """A client that sends half a message and then nothing holds no other session up. No clock is read:
    the server's stall limit is longer than the whole test may run, and the stalled client stays connected
    until every other session has ended, so a server that waited on it would never finish them (and
    `wait_for` would end the test as failed)."""
    instance = "sysadmin_inst_mdp__1"
    stall = 3600.0

    async def stalled(port: int, release: asyncio.Event) -> bool:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"<session-request><problem-name>sysadmin_inst_mdp__1</prob")  # and nothing more
        await writer.drain()
        await release.wait()
        await asyncio.sleep(0)
        connected = not reader.at_eof()  # the server has not dropped it
        writer.close()
        return connected

    async def main() -> tuple[list[SessionResult], bool]:
        async with running_server(tmp_path / "log.jsonl", rounds=ROUNDS, timeout=120.0, stall=stall) as (_, port):
            release = asyncio.Event()
            blocker = asyncio.create_task(stalled(port, release))
            await asyncio.sleep(0.05)
            runs = [Client(instance, "random", f"load-{i}", seed=i).play("127.0.0.1", port) for i in range(CLIENTS)]
            done = await asyncio.wait_for(asyncio.gather(*runs), 300)
            release.set()
            return done, await blocker

    done, stalled_throughout = asyncio.run(main())
    assert all(r.end is not None and len(r.rounds) == ROUNDS for r in done)
    assert stalled_throughout, "the stalled client was still connected while the fifty sessions ran"
    records = log_records(tmp_path / "log.jsonl")
    ends = [r for r in records if r["event"] == "round-end"]
    assert len(ends) == CLIENTS * ROUNDS
    assert {r["client"] for r in records if r["event"] == "session-end"} == {f"load-{i}" for i in range(CLIENTS)}
