"""`ppddl simulate|serve|client|score --format json` follow the schemas `pddltools schema` publishes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.schemas import schema
from tests.ppddl.conftest import COIN, running_server


def conforms(command: str, data: Any) -> None:
    jsonschema.validate(data, schema(command), cls=jsonschema.Draft202012Validator)


def test_simulate_and_its_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ppddl", "simulate", str(COIN), "--problem", "toss", "--rounds", "5", "--format", "json"]) == 0
    conforms("ppddl simulate", json.loads(capsys.readouterr().out))
    assert main(["ppddl", "simulate", str(COIN), "--problem", "nosuch", "--format", "json"]) == 2
    failed = json.loads(capsys.readouterr().out)
    conforms("ppddl simulate", failed)
    assert failed["files"][-1]["diagnostics"][0]["code"] == "E943"


def test_client_and_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"

    async def run() -> int:
        async with running_server(log, rounds=3) as (_, port):
            return await asyncio.to_thread(main, ["ppddl", "client", "127.0.0.1", str(port), str(COIN), "--problem",
                                                  "toss", "--format", "json"])

    assert asyncio.run(run()) == 0
    played = json.loads(capsys.readouterr().out)
    conforms("ppddl client", played)
    assert played["complete"] and len(played["rounds"]) == 3
    assert main(["ppddl", "score", str(log), "--format", "json"]) == 0
    conforms("ppddl score", json.loads(capsys.readouterr().out))
    log.write_text("not json\n")
    assert main(["ppddl", "score", str(log), "--format", "json"]) == 2
    conforms("ppddl score", json.loads(capsys.readouterr().out))


def test_serve_prints_one_line_once_bound(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In process: once the port answers, SIGTERM stops the server as it stops `ppddl serve` run by hand."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    returned = threading.Event()

    def stop_when_listening() -> None:
        # signal only a server that answers and has caught SIGTERM: uncaught, it would end pytest's worker
        while not returned.is_set():
            with socket.socket() as s, contextlib.suppress(OSError):
                s.connect(("127.0.0.1", port))
                if signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None):
                    os.kill(os.getpid(), signal.SIGTERM)
                    return
            time.sleep(0.025)

    stopper = threading.Thread(target=stop_when_listening)
    stopper.start()
    try:
        status = main(["ppddl", "serve", str(COIN), "--port", str(port), "--format", "json", "--log",
                       str(tmp_path / "log.jsonl")])
    finally:
        returned.set()
        stopper.join()
    data = json.loads(capsys.readouterr().out)
    conforms("ppddl serve", data)
    assert data["problems"] == ["landed", "toss"] and data["port"] == port
    assert status == 0
