"""Fuzzing targets for the rest of issue 30's surfaces: results lines, the results store's rows, and
RDDLSim's protocol messages and frames.

As in tests/test_fuzz_turn3_targets.py (the scaffolding is tests/fuzzing.py): fixed seeds and a budget
counted in inputs, one child process per parse path (the compiled loop and the Python one) under an
address-space cap, each input under an alarm; the child reports only what went wrong.

- Results lines (`score`, `report`, `select` read them): runs whose fields are replaced by hostile values
  (5,000-digit numbers, `NaN`, `Infinity`, lists, objects, NUL, paths to /dev/zero, a named pipe, a
  folder, a name too long for the file system), dropped or cut short, as JSON lines and as the document
  `run --format json` prints; half of them validated (the parser reads the domain, problem and plan).
  Each must give runs that every scoring rule, the report and `select` take, or an S-code error that
  points at its line; nothing else.
- The results store's rows: a database another program wrote hostile values into (text, blobs,
  infinity, 5,000-character names) must read as runs every rule takes, or be refused with an S-code.
- RDDLSim's messages: every message kind, encoded, then its values replaced (numbers past any range,
  `1_0`, other scripts' digits), cut, a byte flipped, an element doubled or dropped, an attribute of
  200,000 characters, entities declared, 20,000 nested elements: `decode` gives a message or an R-code
  error. A session-init whose task is a mutated RDDL file: the client reads an instance or says why
  with a registered code. Action values of every range: a value or ValueError (which ends the session).
- Frames: messages split at random places, with stray NULs and chunks of any size, read back whole and in
  order by the server's reader; a frame over the limit and a peer closing mid-message are R-codes.
- The language server's frames (pddltools/lsp/framing.py, in process; tests/test_fuzz_turn3_targets.py
  sends mutated frames to a running server): every intact frame is read back, in order, past broken
  ones (a bad or missing Content-Length, junk or overlong header lines), each reported, none taken.

Run as a script (`python tests/test_fuzz_turn3_surfaces.py compiled|python`), this module is the child.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # the child: this worktree's tests.* importable as when pytest runs
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzzing import PATHS, REPO, Hang, alarm, cap_address_space, emit, mutate, run_child, use_python_loop

PER_INPUT = 20  # seconds: a hang detector, far above any input's time even on a loaded machine
ADDRESS_SPACE = 3 << 30
#: inputs per target and parse path
BUDGET = {"results": 100, "store": 40, "messages": 200, "tasks": 40, "values": 300, "frames": 60, "lsp": 30}
COSTS = REPO / "corpus" / "plans" / "costs"
SPLIT = REPO / "corpus" / "rddl" / "split"


def _located(exc: Any, prefix: str) -> str | None:
    """None if `exc` is an error of pddltools with codes starting `prefix`, each with a place; else why not."""
    from pddltools.diagnostics import Error

    if not isinstance(exc, Error):
        return traceback.format_exception(exc)[-1][-3000:]
    for d in exc.diagnostics:
        if not d.code.startswith(prefix):
            return f"{d.code} is not an {prefix} code: {d.message[:300]}"
    return None


# ---------------------------------------------------------------------------------------------------
# Results lines

SEEDS: list[dict[str, Any]] = [
    {"planner": "A", "domain": "costs/domain.pddl", "problem": "costs/problem.pddl", "plan": "costs/drive.plan",
     "time": 1.5, "status": "solved", "config": "baseline"},
    {"planner": "B", "domain": "costs/domain.pddl", "problem": "costs/problem.pddl", "plan": None,
     "plan_text": "(fly a b)\n", "time": 2, "cpu": 1.9, "memory": 1000, "status": "solved", "config": "x",
     "track": "sat"},
    {"planner": "C", "domain": "costs", "domain_path": "costs/domain.pddl", "problem": "costs/problem-nometric.pddl",
     "plan": None, "time": 3, "status": "timeout", "config": "baseline", "reason": "out of time"},
    {"planner": "A", "domain": "costs/domain.pddl", "problem": "costs/problem-nometric.pddl", "plan": "costs/fly.plan",
     "wall": 0.5, "status": "invalid-plan", "config": "baseline"},
]
VALUES: list[Any] = [None, True, False, -1, 0, 2**63, -2**63 - 1, 1e308, "", "x", "²", [], {}, [[[]]], {"a": {"b": 1}},
                     "/dev/zero", "p.fifo", "folder", "../../../../etc/passwd", "\x00", "a" * 5000, "solved", "crash",
                     "costs/drive.plan"]
#: JSON text no Python value dumps to
LITERALS = ["9" * 5000, "-" + "9" * 5000, "1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1e-999", "-0.0",
            "[" * 3000 + "]" * 3000, "99999999999999999999999"]
FIELDS = ["planner", "domain", "problem", "plan", "time", "status", "config", "cpu", "memory", "track", "reason",
          "domain_path", "plan_text", "wall"]


def _results_text(rng: random.Random) -> str:
    lines = []
    for n, seed in enumerate(SEEDS):
        item = dict(seed)
        literal = None
        if rng.random() < 0.7:
            field = rng.choice(FIELDS)
            pick = rng.random()
            if pick < 0.15:
                item.pop(field, None)
            elif pick < 0.65:
                item[field] = rng.choice(VALUES)
            else:
                item[field], literal = f"@{n}@", rng.choice(LITERALS)
        line = json.dumps(item)
        if literal is not None:
            line = line.replace(f'"@{n}@"', literal)
        if rng.random() < 0.08:
            line = line[:rng.randrange(len(line) + 1)]
        lines.append(line)
    if rng.random() < 0.2:  # the document `run --format json` prints
        return '{"runs": [' + ", ".join(lines) + "]}\n"
    text = "\n".join(lines) + "\n"
    return mutate(text, rng) if rng.random() < 0.15 else text


def _scored(runs: list[Any]) -> None:
    """Every rule scores `runs`; the report and the selection are made (what `score`, `report` and `select` do)."""
    from pddltools.score.classical import MissingBounds
    from pddltools.score.reference import References
    from pddltools.score.report import render_html
    from pddltools.score.rules import RULES, score
    from pddltools.score.selection import select

    bounds = References.of({run.problem_path: 10.0 for run in runs})
    for rules in RULES:
        try:
            scores = score(runs, rules, references=bounds if rules == "ipc2018-bounded" else None)
        except MissingBounds:
            continue
        if rules == "ipc2008-sat":
            render_html(runs, scores)
    select(runs)


def _results(rng: random.Random, folder: Path) -> str | None:
    from pddltools.score.results import load_text
    from pddltools.score.validation import Validator

    text = _results_text(rng)
    try:
        runs = load_text(text, "fuzz.jsonl", folder, Validator() if rng.random() < 0.3 else None)
    except Exception as exc:
        return _located(exc, "S") or (None if all(d.span is not None for d in exc.diagnostics)  # type: ignore[attr-defined]
                                      else "an error without a place")
    _scored(runs)
    return None


# ---------------------------------------------------------------------------------------------------
# The results store's rows

HOSTILE_CELLS: list[Any] = ["abc", b"\x00\x01", float("inf"), float("-inf"), -1, 10**18, 1.5, "", "9" * 5000, "²",
                            "a" * 5000, 0]
COLUMNS = ["planner", "track", "config", "domain", "domain_path", "problem_path", "status", "wall", "cpu",
           "peak_memory", "returncode", "plan_text", "value", "length", "reason", "finished_at", "wall_limit",
           "memory_limit", "plan_limit"]


def _stored_runs(db: Path) -> None:
    """A results database of four runs, as `run` writes one."""
    from pddltools.score.store import Run, Store

    with Store.open(db) as store:
        for n in range(4):
            store.add(Run(planner=f"P{n % 2}", track="", config="baseline", domain="costs",
                          domain_path=str(COSTS / "domain.pddl"), domain_hash="-",
                          problem_path=str(COSTS / f"problem{n // 2}.pddl"), problem_hash="-",
                          status=("solved", "timeout", "solved", "invalid-plan")[n], wall=1.0 + n, cpu=1.0 + n,
                          peak_memory=1 << 20, plan_text="(drive a b)\n", length=1, value=3.0 + n))


def _store(rng: random.Random, folder: Path, index: int) -> str | None:
    from pddltools.score.results import load_runs

    db = folder / f"store-{index}.db"
    shutil.copy(folder / "stored.db", db)
    connection = sqlite3.connect(db)
    try:
        connection.execute("PRAGMA synchronous = OFF")  # a scratch copy: no need to wait for the disk
        for _ in range(rng.randint(1, 3)):
            column = rng.choice(COLUMNS)
            with contextlib.suppress(sqlite3.IntegrityError):  # NOT NULL, CHECK, UNIQUE: SQLite refuses it
                connection.execute(f"UPDATE runs SET {column} = ? WHERE id = ?",
                                   (rng.choice(HOSTILE_CELLS), rng.randint(1, 4)))
        connection.commit()
    finally:
        connection.close()
    try:
        runs = load_runs(db, None)
    except Exception as exc:
        return _located(exc, "S")  # a database has no lines to point at: the code and the file say it
    _scored(runs)
    return None


# ---------------------------------------------------------------------------------------------------
# RDDLSim's messages, tasks and values

HOSTILE_TEXT = ["9" * 5000, "1e999", "-1e999", "nan", "NaN", "Infinity", "²", "٣", "1_0", "0x10", "", " ", "-0",
                "1e-999", "&amp;", "&#0;", "&#x10FFFF;", "]]>", "🙂", "a" * 100000, "3.5", "-7", "true"]


def _messages() -> list[Any]:
    from pddltools.rddlsim import protocol as p

    return [p.SessionRequest("split_1", "client", "rddl", True), p.SessionInit("dGFzaw==", 3, 30, 1e6),
            p.RoundRequest(), p.RoundInit(1, 29, 1e5), p.Turn(3, 1000.0, -1.5, (("x", ("a", "b"), "true"),)),
            p.Turn(1, 1.0, 0.0, None), p.Actions((("move", ("r1",), "1.5"), ("go", (), "true"))),
            p.RoundEnd("i", "c", 1, 2.5, 40, 1000, 0.5), p.SessionEnd("i", 3.0, 30, "c", 3, 100),
            p.ResourceRequest(), p.ResourceNotification(10.0, "enough")]


def _broken_message(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("ascii")
    pick = rng.randrange(9)
    if pick == 0:  # an element's text replaced
        parts = re.split(r"(>[^<]*<)", text)
        inner = [i for i, part in enumerate(parts) if part.startswith(">") and part.endswith("<") and len(part) > 2]
        if inner:
            parts[rng.choice(inner)] = ">" + rng.choice(HOSTILE_TEXT).replace("<", "&lt;") + "<"
        text = "".join(parts)
    elif pick == 1:
        text = text[:rng.randrange(len(text))]
    elif pick == 2:
        at = rng.randrange(len(text))
        text = text[:at] + rng.choice(HOSTILE_TEXT) + text[at:]
    elif pick == 3:  # huge attributes
        text = re.sub(r"(<[a-z-]+)", r'\1 huge="' + "z" * rng.choice([10, 200000]) + '"', text, count=2)
    elif pick == 4:  # entities: refused, never expanded
        body = text.split("\n", 1)[-1]
        text = '<!DOCTYPE r [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>' + body.replace(">", ">&b;", 2)
    elif pick == 5:
        depth = rng.choice([10, 1000, 20000])
        text = "<turn>" + "<a>" * depth + "</a>" * depth + "</turn>"
    elif pick == 6:
        raw = bytearray(data)
        raw[rng.randrange(len(raw))] = rng.randrange(256)
        return bytes(raw)
    elif pick == 7:
        tags = re.findall(r"<([a-z-]+)>", text)
        if tags:
            tag = rng.choice(tags)
            text = text.replace(f"<{tag}>", f"<{tag}><{tag}>", 1)
    else:
        text = re.sub(r"<([a-z-]+)>[^<]*</\1>", "", text, count=1)
    return text.encode("utf-8")


def _message(rng: random.Random, messages: list[Any]) -> str | None:
    from pddltools.rddlsim import protocol

    data = _broken_message(rng, protocol.encode(rng.choice(messages)))
    try:
        protocol.decode(data)
    except Exception as exc:
        return _located(exc, "R35")
    return None


def _task(rng: random.Random) -> str | None:
    """A session-init carrying a mutated RDDL task, as the client reads it."""
    from pddltools.rddlsim import protocol
    from pddltools.rddlsim.client import problem_from_task

    text = (SPLIT / "domain.rddl").read_text(encoding="utf-8") + (SPLIT / "instance.rddl").read_text(encoding="utf-8")
    task = base64.b64encode(mutate(text, rng).encode()).decode()
    message = protocol.decode(protocol.encode(protocol.SessionInit(task, 1, 1, 1000.0)))
    try:
        problem_from_task(message.task, "split_1")  # type: ignore[attr-defined]
    except Exception as exc:
        return _located(exc, "R")
    return None


RANGES = ["bool", "int", "real", "enum_level", "obj"]


def _value(rng: random.Random) -> str | None:
    from pddltools.rddlsim import protocol

    text = rng.choice([*HOSTILE_TEXT, "<", "< @a: 1 >", "< $x: < @a: 1, @b: 0.5 >, @c: true >",
                       "< @a: " * 200 + "1" + " >" * 200, "< @a : >", "<>", "< @a: 1, >"])
    try:
        protocol.parse_value(text, rng.choice(RANGES))
    except ValueError:  # the server ends the session, saying which value was not of its range
        pass
    except Exception as exc:
        return traceback.format_exception(exc)[-1][-3000:]
    return None


def _frames(rng: random.Random, messages: list[Any]) -> str | None:
    """Messages sent in chunks of any size, stray NULs between them, read back whole and in order."""
    from pddltools.rddlsim import protocol

    sent = [protocol.encode(rng.choice(messages)) for _ in range(rng.randint(1, 5))]
    stream = b"".join((b"\0" * rng.randint(0, 2)) + frame for frame in sent)
    ending = rng.randrange(3)  # 0: clean close; 1: closed mid-message; 2: a frame over the limit
    if ending == 1:
        stream += sent[0][:rng.randint(1, len(sent[0]) - 1)]
    elif ending == 2:
        stream += b"<x>" + b"y" * 5000

    async def read() -> str | None:
        reader = asyncio.StreamReader()
        at = 0
        while at < len(stream):
            step = rng.randint(1, 700)
            reader.feed_data(stream[at:at + step])
            at += step
        reader.feed_eof()
        frames = protocol.Reader(reader, limit=4096)
        got = []
        try:
            while (message := await frames.read(stall=None)) is not None:
                got.append(message)
        except protocol.ProtocolError as exc:
            expected = {1: "R354", 2: "R353"}.get(ending)
            if exc.diagnostics[0].code != expected:
                return f"{exc.diagnostics[0].code} ({exc.diagnostics[0].message}) after {len(got)} messages"
        else:
            if ending != 0:
                return "no error at the end"
        if [protocol.encode(m) for m in got] != sent:
            return f"read back {len(got)} messages of {len(sent)}, or not the same"
        return None

    return asyncio.run(read())


# ---------------------------------------------------------------------------------------------------
# The language server's frames

HEADERS = [b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n", b"X-Junk: 1\r\n",
           b"Content-Lenght: 12\r\n", b"Content-Length: -3\r\n", b"Content-Length: 99999999999999999999\r\n",
           b"Content-Length: \xd9\xa3\r\n", b"Content-Length: " + b"9" * 20000 + b"\r\n",
           b"X: " + b"y" * 20000 + b"\r\n", b"content-length :  7\r\n"]


def _lsp(rng: random.Random) -> str | None:
    """Frames read by the server's reader: each intact frame's body comes back, in order, whatever broken
    frames (a bad or missing length, junk or overlong header lines) stand between them, each of which
    is reported as not a frame, never taken for one."""
    import io

    from pddltools.lsp.framing import FrameReader

    bodies = [json.dumps({"jsonrpc": "2.0", "id": n, "method": "m", "params": {"x": "y" * rng.randint(0, 300)}}
                         ).encode() for n in range(rng.randint(1, 6))]
    stream, intact, broken = b"", [], 0
    for body in bodies:
        header = b"Content-Length: %d\r\n" % len(body)
        if rng.random() < 0.4:  # a broken header: the body is then read as junk, up to the next header
            extra = rng.choice(HEADERS)
            header = extra if extra.startswith(b"Content-Length") and rng.random() < 0.5 else header + extra
            if not (extra.startswith(b"Content-Type") or extra == b"content-length :  7\r\n"):
                broken += 1
            else:
                intact.append(body if extra.startswith(b"Content-Type") else body[:7])
        else:
            intact.append(body)
        stream += b"\r\n" * rng.randint(0, 1) + header + b"\r\n" + body

    async def read() -> str | None:
        reader = FrameReader(io.BytesIO(stream), None)
        got, problems = [], 0
        while (found := await reader.frame()) is not None:
            body, problem = found
            if body is not None:
                got.append(body)
            problems += problem is not None
        if [b for b in got if b in bodies or b in intact] != intact:
            return f"read {len(got)} bodies, {problems} problems; {len(intact)} frames were intact"
        if problems < broken:
            return f"{broken} broken frames, {problems} reported"
        return None

    return asyncio.run(read())


# ---------------------------------------------------------------------------------------------------
# The child


def child(path: str) -> None:
    cap_address_space(ADDRESS_SPACE)
    if path == "python":
        use_python_loop()
    folder = Path(tempfile.mkdtemp(prefix="fuzz-surfaces-"))
    shutil.copytree(COSTS, folder / "costs")
    os.mkfifo(folder / "p.fifo")
    (folder / "folder").mkdir()
    _stored_runs(folder / "stored.db")
    messages = _messages()
    # imported before any alarm: the language server's import (pygls, lsprotocol) is seconds on a busy
    # machine, and an alarm that cut it short would leave every later input importing it again
    import pddltools.lsp.framing  # noqa: F401
    targets: dict[str, Callable[[random.Random, int], str | None]] = {
        "results": lambda rng, n: _results(rng, folder),
        "store": lambda rng, n: _store(rng, folder, n),
        "messages": lambda rng, n: _message(rng, messages),
        "tasks": lambda rng, n: _task(rng),
        "values": lambda rng, n: _value(rng),
        "frames": lambda rng, n: _frames(rng, messages),
        "lsp": lambda rng, n: _lsp(rng),
    }
    try:
        for target, run in targets.items():
            rng = random.Random(f"{target}-30")  # the same inputs on every run and on both paths
            checked = 0
            for n in range(BUDGET[target]):
                state = rng.getstate()
                try:
                    with alarm(PER_INPUT):
                        problem = run(rng, n)
                except Hang:
                    problem = f"still running after {PER_INPUT} s"
                except BaseException:
                    problem = traceback.format_exc()[-3000:]
                checked += 1
                if problem is not None:
                    emit({"target": target, "input": n, "problem": problem, "state": repr(state)[:200]})
            emit({"target": target, "checked": checked})
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------------------------------------------
# The tests

if __name__ != "__main__":
    import pytest

    @pytest.fixture(scope="module", params=PATHS)
    def found(request: pytest.FixtureRequest) -> dict[str, list[dict[str, Any]]]:
        records, err = run_child([__file__, request.param], timeout=120 + PER_INPUT * sum(BUDGET.values()))
        out: dict[str, list[dict[str, Any]]] = {target: [] for target in BUDGET}
        for record in records:
            if "checked" in record:
                assert record["checked"] == BUDGET[record["target"]]
                out.setdefault("_done", []).append(record)
            else:
                out[record["target"]].append(record)
        assert len(out.get("_done", [])) == len(BUDGET), err
        return out

    @pytest.mark.parametrize("target", list(BUDGET))
    def test_hostile_input_ends_in_a_result_or_a_registered_error(found: dict[str, list[dict[str, Any]]],
                                                                  target: str) -> None:
        assert found[target] == []


if __name__ == "__main__":
    child(sys.argv[1])
