#!/usr/bin/env python3
"""Start-up cost of `pddltools` commands in a fresh process, side by side with a bare Python and VAL.

Each row is the CPU time (user + system, of the child and its children) of one fresh process, the least
of `--repeat` runs, so a busy machine inflates it less than wall time would:

- `python -c pass`: the floor any Python command pays;
- `pddltools --version`, `pddltools --help`;
- `pddltools validate` of the repository's 10-line ADL task (`corpus/plans/adl`) and one plan;
- `pddltools check` of the bundled example;
- the language server: a fresh `pddltools lsp` answering `initialize` (the time to its reply, wall, as an
  editor waits for it), then `shutdown`/`exit`; the CPU of that whole session; and the wall time from
  the start to the first diagnostics of a small domain opened right after `initialized` (what an editor
  shows first: it waits for pygls and the parser to be imported, after the reply to `initialize`);
- a keystroke on the largest IPC problem of `../shared/corpus` to the diagnostics of that version (wall,
  the server's pause for typing included), when the corpus is there (`--no-keystroke` leaves it out);
- VAL's `Validate` on the same task and plan, when `--val PATH` names a built VAL.

Each row shows its target where issue 29 or 31 sets one: `validate` of a small task at most 0.08 s of
CPU, `--version` at most 0.05 s, `initialize` at most 0.3 s, a keystroke to diagnostics at most 0.2 s.

    python benchmarks/startup.py [--repeat 5] [--val /path/to/Validate] [--json out.json] [--no-keystroke]
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
CORPUS = REPO.parent / "shared" / "corpus" / "pddl"
#: The console script a user runs (`pip install` puts it beside the interpreter), else `python -m pddltools`.
_SCRIPT = Path(sys.executable).with_name("pddltools")
PDDLTOOLS = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "pddltools"]
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


class ServerGone(EOFError):
    """The language server closed its output before the message being read."""


def read_frame(stream: object) -> dict[str, object]:
    read_line = stream.readline  # type: ignore[attr-defined]
    length = 0
    while (line := read_line()) != b"\r\n":
        if line == b"":
            raise ServerGone
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))  # type: ignore[attr-defined,no-any-return]


def _open(uri: str, text: str) -> bytes:
    return frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "pddl", "version": 1, "text": text}}})


def _diagnostics(stream: object, uri: str, version: int) -> None:
    """Read until the diagnostics of `uri` at `version` or later are published."""
    while True:
        message = read_frame(stream)
        params = message.get("params")
        if message.get("method") == "textDocument/publishDiagnostics" and isinstance(params, dict) \
                and params.get("uri") == uri and (params.get("version") or 0) >= version:
            return


def lsp_initialize(first: Path | None = None) -> tuple[float, float, float | None]:
    """(wall seconds from start to the `initialize` reply, CPU seconds of the whole server process, and
    with `first` the wall seconds from start to the first diagnostics of `first` opened after it)."""
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
    shown = None
    if first is not None:
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        server.stdin.write(_open(first.as_uri(), first.read_text(encoding="utf-8")))
        server.stdin.flush()
        _diagnostics(server.stdout, first.as_uri(), 1)
        shown = time.perf_counter() - started
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.close()
    server.wait(30)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), shown


def largest_problem() -> Path | None:
    problems = [p for p in CORPUS.rglob("*.pddl") if p.is_file() and "domain" not in p.name] if CORPUS.is_dir() else []
    return max(problems, key=lambda p: p.stat().st_size) if problems else None


def _cpu_of(pid: int) -> float:
    """The CPU seconds process `pid` has used so far (Linux: /proc/PID/stat's utime + stime)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def keystrokes(problem: Path, repeat: int) -> list[tuple[float, float]]:
    """(wall, server CPU) seconds from a one-character edit of `problem` (a space before its last
    parenthesis, typed and undone in turn) to the diagnostics of that version, `repeat` times, in one
    server. The wall time includes the server's pause for typing; the CPU time does not, and is what a
    busy machine inflates least."""
    text = problem.read_text(encoding="utf-8")
    at = text.rindex(")")
    edited = text[:at] + " " + text[at:]
    uri = problem.as_uri()
    server = subprocess.Popen([*PDDLTOOLS, "lsp"], cwd=REPO, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                              "params": {"processId": os.getpid(), "rootUri": None, "capabilities": {}}}))
    server.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    server.stdin.write(_open(uri, text))
    server.stdin.flush()
    _diagnostics(server.stdout, uri, 1)
    times = []
    for version in range(2, repeat + 2):
        started, cpu = time.perf_counter(), _cpu_of(server.pid)
        server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": edited if version % 2 == 0 else text}]}}))
        server.stdin.flush()
        _diagnostics(server.stdout, uri, version)
        times.append((time.perf_counter() - started, _cpu_of(server.pid) - cpu))
    server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
    server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
    server.stdin.close()
    server.wait(60)
    return times


#: The rows' targets (issue 29: start-up; issue 31: the language server's keystroke).
TARGETS = {
    "pddltools --version": 0.05,
    "pddltools validate (10-line ADL task)": 0.08,
    "pddltools lsp: initialize reply (wall)": 0.3,
    "pddltools lsp: keystroke on the largest IPC problem to diagnostics (wall, median)": 0.2,
}


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeat", type=int, default=5)
    options.add_argument("--val", type=Path, help="VAL's Validate binary")
    options.add_argument("--json", type=Path, help="also write the rows here")
    options.add_argument("--no-keystroke", action="store_true", help="leave out the keystroke on the largest problem")
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
    problem = None if args.no_keystroke else largest_problem()
    try:
        initialize = [lsp_initialize() for _ in range(args.repeat)]
        rows["pddltools lsp: initialize reply (wall)"] = min(wall for wall, _, _ in initialize)
        rows["pddltools lsp: whole session (CPU)"] = min(cpu for _, cpu, _ in initialize)
        shown = [lsp_initialize(HELLO / "domain.pddl")[2] for _ in range(args.repeat)]
        rows["pddltools lsp: start to the first diagnostics of a small domain (wall)"] = min(s for s in shown if s)
        if problem is not None:
            typed = keystrokes(problem, max(args.repeat, 3))
            rows["pddltools lsp: keystroke on the largest IPC problem to diagnostics (wall, median)"] = \
                sorted(wall for wall, _ in typed)[len(typed) // 2]
            rows["pddltools lsp: keystroke on the largest IPC problem (server CPU, median)"] = \
                sorted(cpu for _, cpu in typed)[len(typed) // 2]
    except ServerGone:
        problem = None
        print(f"startup.py: `{' '.join(PDDLTOOLS)} lsp` ended without answering, so the language server's rows "
              "are left out; it needs the lsp extra (pip install -e '.[lsp]')", file=sys.stderr)

    width = max(map(len, rows))
    print(f"{'command':<{width}}  seconds  target")
    for name, seconds in rows.items():
        target = TARGETS.get(name)
        verdict = "" if target is None else f"  <= {target:.2f} {'met' if seconds <= target else 'NOT met'}"
        print(f"{name:<{width}}  {seconds:7.3f}{verdict}")
    if problem is not None:
        print(f"(largest problem: {problem.relative_to(CORPUS)}, {problem.stat().st_size / 1e6:.1f} MB)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    missing = [name for name in TARGETS if name not in rows]
    if missing:
        print(f"startup.py: not measured here, so neither met nor missed: {'; '.join(missing)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
