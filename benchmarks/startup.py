#!/usr/bin/env python3
"""Start-up cost of `pddltools` commands in a fresh process, side by side with a bare Python and VAL.

Each row is the CPU time (user + system, of the child and its children) of one fresh process, the least
of `--repeat` runs, so a busy machine inflates it less than wall time would:

- `python -c pass`: the floor any Python command pays;
- `pddltools --version`, `pddltools --help`;
- `pddltools validate` of the repository's 10-line ADL task (`corpus/plans/adl`) and one plan;
- `pddltools check` of the bundled example;
- the language server: a fresh `pddltools lsp` answering `initialize` (the time to its reply, wall, as an
  editor waits for it), then `shutdown`/`exit`;
- VAL's `Validate` on the same task and plan, when `--val PATH` names a built VAL.

Issue 29's targets: `validate` of a small task at most 0.08 s of CPU, `--version` at most 0.05 s,
`initialize` at most 0.3 s.

    python benchmarks/startup.py [--repeat 5] [--val /path/to/Validate] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ADL = REPO / "corpus" / "plans" / "adl"
HELLO = REPO / "corpus" / "pddl" / "examples" / "hello"
PDDLTOOLS = [sys.executable, "-m", "pddltools"]
#: Users' Pythons keep compiled byte code; a shell that sets PYTHONDONTWRITEBYTECODE would have every run
#: compile every module again (about 0.1 s more here), which is not what a user pays.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(argv: list[str]) -> float:
    """The CPU seconds one run of `argv` costs, read from the children's rusage before and after."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, cwd=REPO, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frame(stream: object) -> dict[str, object]:
    read_line = stream.readline  # type: ignore[attr-defined]
    length = 0
    while (line := read_line()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))  # type: ignore[attr-defined,no-any-return]


def lsp_initialize() -> tuple[float, float]:
    """(wall seconds from start to the `initialize` reply, CPU seconds of the whole server process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    server = subprocess.Popen([*PDDLTOOLS, "lsp"], cwd=REPO, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"processId": os.getpid(), "rootUri": REPO.as_uri(), "capabilities": {}}}))
    server.stdin.flush()
    while "id" not in (reply := read_frame(server.stdout)):
        pass
    wall = time.perf_counter() - started
    assert reply.get("id") == 1, reply
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.close()
    server.wait(30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=5)
    options.add_argument("--val", type=Path, help="VAL's Validate binary")
    options.add_argument("--json", type=Path, help="also write the rows here")
    args = options.parse_args()

    commands: dict[str, list[str]] = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "pddltools --version": [*PDDLTOOLS, "--version"],
        "pddltools --help": [*PDDLTOOLS, "--help"],
        "pddltools validate (10-line ADL task)": [*PDDLTOOLS, "validate", str(ADL / "domain.pddl"),
                                                  str(ADL / "problem.pddl"), str(ADL / "valid.plan")],
        "pddltools check (hello)": [*PDDLTOOLS, "check", str(HELLO / "domain.pddl"), str(HELLO / "problem.pddl")],
    }
    if args.val:
        commands["VAL Validate (10-line ADL task)"] = [str(args.val), str(ADL / "domain.pddl"),
                                                       str(ADL / "problem.pddl"), str(ADL / "valid.plan")]
    rows: dict[str, float] = {}
    for name, argv in commands.items():
        cpu_of(argv)  # a first run fills the caches (the grammar's tables, the OS's file cache)
        rows[name] = min(cpu_of(argv) for _ in range(args.repeat))
    initialize = [lsp_initialize() for _ in range(args.repeat)]
    rows["pddltools lsp: initialize reply (wall)"] = min(wall for wall, _ in initialize)
    rows["pddltools lsp: whole session (CPU)"] = min(cpu for _, cpu in initialize)

    width = max(map(len, rows))
    print(f"{'command':<{width}}  seconds")
    for name, seconds in rows.items():
        print(f"{name:<{width}}  {seconds:7.3f}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
