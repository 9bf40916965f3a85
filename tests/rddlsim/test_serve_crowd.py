"""`rddl serve` under a crowd (issue 30): real clients are served while idle and trickling connections hold
on, under a descriptor limit the crowd exceeds; the slow ones are cut off; the log stays a few lines.

A smaller crowd than the benchmark's (benchmarks/rddl_serve_load.py: 1,100 idle and 20 slow connections
under 1,024 descriptors), in the same proportion to the limit, so that the test stays cheap.
"""

from __future__ import annotations

import asyncio
import errno
import importlib.util
import json
import logging
import os
from pathlib import Path
from types import ModuleType

import pytest

from pddltools.rddlsim.server import RDDLSimServer, ResultsLog, ServerConfig, Throttle

from .conftest import REPO


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rddl_serve_load", REPO / "benchmarks" / "rddl_serve_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_real_clients_are_served_beside_more_idle_connections_than_descriptors(tmp_path: Path) -> None:
    out = tmp_path / "numbers.json"
    module = _load()
    # the server in a child process under 192 descriptors (room for 64 connections) and 1 GB of address space
    assert module.main(["--nofile", "192", "--memory", "1024", "--idle", "250", "--slow", "3", "--clients", "3",
                        "--stall", "1", "--json", str(out)]) == 0
    numbers = json.loads(out.read_text())
    assert numbers["idle_opened"] == 250  # more than the server has descriptors: it made room
    assert numbers["served"] == 3 and numbers["failed"] == []
    assert numbers["slow_cut_off"] == 3  # a byte a second did not keep them past --stall
    assert numbers["server_during"]["fds"] <= 192
    assert numbers["log_tracebacks"] == 0
    # the start line, 3 sessions of 2 lines, and throttled notes (evictions, idle, slow), not one per peer
    assert numbers["log_lines"] < 20, numbers["log_lines"]


def test_the_throttle_logs_one_line_per_kind_and_counts_the_rest(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test.throttle")
    throttle = Throttle(log, every=3600.0)
    with caplog.at_level(logging.INFO, logger="test.throttle"):
        for _ in range(1000):
            throttle.note("descriptors", "cannot accept")
        throttle.note("idle", "idle connection closed")
    assert [r.getMessage() for r in caplog.records] == ["cannot accept", "idle connection closed"]
    throttle.every = 0.0  # the next line of a kind says how many were held back
    with caplog.at_level(logging.INFO, logger="test.throttle"):
        throttle.note("descriptors", "cannot accept")
    assert caplog.records[-1].getMessage().startswith("cannot accept (and 999 more like it")


def test_running_out_of_descriptors_in_the_accept_loop_is_one_line_not_a_traceback_each(
        caplog: pytest.LogCaptureFixture) -> None:
    """What asyncio's accept loop reports when accept() fails with EMFILE (it retries a second later):
    before, a traceback per failed accept (95,796 in 33 s); now one line per ten seconds, with a count."""
    results = ResultsLog(os.devnull)
    server = RDDLSimServer({}, ServerConfig(max_connections=960), results)
    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.INFO, logger="pddltools.rddlsim.server"):
            for _ in range(1000):
                server._loop_error(loop, {"message": "socket.accept() out of system resource",
                                          "exception": OSError(errno.EMFILE, "Too many open files")})
    finally:
        loop.close()
        results.close()
    (record,) = caplog.records
    assert record.getMessage() == ("cannot accept a connection: Too many open files (0 open, at most 960); "
                                   "retrying") and record.exc_info is None
