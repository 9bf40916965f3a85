#!/usr/bin/env python3
"""`rddl serve` (or `ppddl serve`, `--protocol mdpsim`) under a crowd: real clients served while idle and
trickling connections hold on.

The server runs in a child process under an open-file limit (`--nofile`, default 1,024, the common
default of Linux); this process then opens `--idle` connections that never send a byte and `--slow`
connections that send a session-request one byte a second, and, with all of them open, plays
`--clients` real sessions (the no-op policy, a few rounds each). It reports how many real sessions
were served, how long they took, when the slow connections were cut off, and what the server cost:
its descriptors and resident memory, and its log (bytes, lines, tracebacks).

    python benchmarks/rddl_serve_load.py
    python benchmarks/rddl_serve_load.py --idle 1100 --slow 20 --clients 5 --json /tmp/load.json
    python benchmarks/rddl_serve_load.py --protocol mdpsim      # ppddl serve, mdpsim's messages

Before issue 30 the 1,100 idle connections took every descriptor: no real client was served, the slow
ones outlived `--stall`, and the accept loop logged tens of thousands of tracebacks.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
FOLDER = REPO / "corpus" / "rddl" / "split"
INSTANCE = "split_1"
HEADER = b'<?xml version="1.0" encoding="UTF-8"?>\n'
COIN = REPO / "corpus" / "ppddl" / "coin.pddl"
#: the server's command line after `pddltools`, per protocol
SERVERS = {"rddlsim": ["rddl", "serve", str(FOLDER)], "mdpsim": ["ppddl", "serve", str(COIN)]}
PROTOCOL = "rddlsim"


def _frame(xml: str) -> bytes:
    if PROTOCOL == "mdpsim":  # one element, no header and no end byte
        return xml.encode()
    return HEADER + xml.encode() + b"\0"


def _request(name: str) -> bytes:
    if PROTOCOL == "mdpsim":
        return _frame(f"<session-request><name>{name}</name><problem>toss</problem></session-request>")
    return _frame(f"<session-request><problem-name>{INSTANCE}</problem-name><client-name>{name}</client-name>"
                  "</session-request>")


def start_server(log: Path, nofile: int, stall: float, idle: float, memory: int) -> tuple[subprocess.Popen[str], int]:
    """The server in a child process under `nofile` descriptors and, when `memory` (MB), that address space."""
    code = ("import resource, sys; n, mb = int(sys.argv[1]), int(sys.argv[2]); del sys.argv[1:3]; "
            "resource.setrlimit(resource.RLIMIT_NOFILE, (n, n)); "
            "mb and resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20)); "
            "from pddltools.cli import main; sys.exit(main())")
    command = [sys.executable, "-c", code, str(nofile), str(memory), *SERVERS[PROTOCOL], "--port", "0",
               "--rounds", "2",
               "--log", str(log.with_suffix(".jsonl")), "--stall", f"{stall:g}", "--idle", f"{idle:g}",
               "--format", "json"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    with open(log, "w") as errors:
        process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=errors, text=True, env=env)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        process.kill()
        raise SystemExit("the server did not start: " + log.read_text()[-2000:])
    return process, int(json.loads(line)["port"])


async def _message(reader: asyncio.StreamReader) -> bytes:
    ending = b"\n" if PROTOCOL == "mdpsim" else b"\0"  # mdpsim's server ends each message with a newline
    return await asyncio.wait_for(reader.readuntil(ending), 60)


async def play(port: int, name: str) -> float:
    """One whole session with the no-op policy (mdpsim: `<done/>`); its seconds."""
    began = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(_request(name))
    message = await _message(reader)
    assert b"session-init" in message, message[:200]
    mdpsim = PROTOCOL == "mdpsim"
    rounds = int(message.split(b"<rounds>" if mdpsim else b"<num-rounds>")[1].split(b"<")[0])
    end, turn, act = (b"<end-round>", b"<state>", "<done/>") if mdpsim else (b"<round-end>", b"<turn>", "<actions/>")
    for _ in range(rounds):
        writer.write(_frame("<round-request/>"))
        assert b"round-init" in await _message(reader)
        while end not in (message := await _message(reader)):
            assert turn in message, message[:200]
            writer.write(_frame(act))
    assert (b"end-session" if mdpsim else b"session-end") in await _message(reader)
    writer.close()
    return time.monotonic() - began


async def trickle(port: int, cap: float) -> float | None:
    """A session-request sent a byte a second; the seconds until the server closed the connection (None:
    still open after `cap` seconds)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    began = time.monotonic()
    data = _request("slow")
    try:
        for byte in data:
            writer.write(bytes([byte]))
            await writer.drain()
            try:
                if not await asyncio.wait_for(reader.read(1), 1.0):
                    return time.monotonic() - began  # closed by the server
            except TimeoutError:
                pass
            if time.monotonic() - began > cap:
                return None
    except (ConnectionError, OSError):
        return time.monotonic() - began
    return None


def server_state(pid: int) -> dict[str, int]:
    status = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {"fds": len(os.listdir(f"/proc/{pid}/fd")), "rss_kb": int(status["VmRSS"].split()[0]),
            "peak_rss_kb": int(status["VmHWM"].split()[0])}


async def crowd(port: int, pid: int, idle: int, slow: int, clients: int, cap: float) -> dict[str, Any]:
    held = []
    for _ in range(idle):
        try:
            held.append((await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10))[1])
        except (OSError, TimeoutError):
            break
    trickling = [asyncio.create_task(trickle(port, cap)) for _ in range(slow)]
    await asyncio.sleep(0.5)
    during = server_state(pid)
    began = time.monotonic()
    results = await asyncio.gather(*(play(port, f"c{i}") for i in range(clients)), return_exceptions=True)
    served = [r for r in results if isinstance(r, float)]
    seconds = time.monotonic() - began
    cut = await asyncio.gather(*trickling)
    for writer in held:
        writer.close()
    return {"idle_opened": len(held), "slow": slow, "clients": clients, "served": len(served),
            "failed": [repr(r)[:200] for r in results if not isinstance(r, float)],
            "clients_seconds": round(seconds, 3), "slowest_session": round(max(served, default=0.0), 3),
            "slow_cut_off": sum(1 for c in cut if c is not None),
            "slow_cut_after_max": round(max((c for c in cut if c is not None), default=0.0), 2),
            "server_during": during}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nofile", type=int, default=1024, help="the server's open-file limit (default 1024)")
    parser.add_argument("--idle", type=int, default=1100, help="connections that never send (default 1100)")
    parser.add_argument("--slow", type=int, default=20, help="connections sending a byte a second (default 20)")
    parser.add_argument("--clients", type=int, default=5, help="real sessions played meanwhile (default 5)")
    parser.add_argument("--stall", type=float, default=5.0, help="the server's --stall (default 5)")
    parser.add_argument("--idle-timeout", type=float, default=10.0, help="the server's --idle (default 10)")
    parser.add_argument("--memory", type=int, default=0, metavar="MB",
                        help="the server's address-space limit (default none)")
    parser.add_argument("--protocol", choices=sorted(SERVERS), default="rddlsim",
                        help="rddlsim: `rddl serve` (default); mdpsim: `ppddl serve`")
    parser.add_argument("--json", metavar="FILE", help="also write the numbers here")
    args = parser.parse_args(argv)
    global PROTOCOL
    PROTOCOL = args.protocol
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = args.idle + args.slow + args.clients + 64
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "serve.log"
        server, port = start_server(log, args.nofile, args.stall, args.idle_timeout, args.memory)
        try:
            cap = 4 * args.stall + 30
            # the whole experiment is bounded too: a server that hangs fails it rather than stalling it
            numbers = asyncio.run(asyncio.wait_for(crowd(port, server.pid, args.idle, args.slow, args.clients, cap),
                                                   cap + 120))
            numbers["server_after"] = server_state(server.pid)
        finally:
            server.terminate()
            server.wait(30)
        text = log.read_text(errors="replace")
    numbers.update(nofile=args.nofile, stall=args.stall, log_bytes=len(text.encode()),
                   log_lines=len(text.splitlines()), log_tracebacks=text.count("Traceback"))
    print(f"{numbers['served']}/{args.clients} real sessions served in {numbers['clients_seconds']:.2f} s "
          f"beside {numbers['idle_opened']} idle and {args.slow} slow connections (server limit {args.nofile} "
          f"descriptors; it held {numbers['server_during']['fds']}, {numbers['server_during']['rss_kb'] // 1024} MB)")
    print(f"slow connections cut off: {numbers['slow_cut_off']}/{args.slow}, the last after "
          f"{numbers['slow_cut_after_max']} s (--stall {args.stall:g})")
    print(f"server log: {numbers['log_bytes']} bytes, {numbers['log_lines']} lines, "
          f"{numbers['log_tracebacks']} tracebacks")
    if args.json:
        Path(args.json).write_text(json.dumps(numbers, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
