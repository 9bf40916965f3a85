"""Fuzzing targets for the surfaces of issue 30: HTN plan files, PDDL+ plan files and LSP frames.

A seeded mutator (fixed seeds, a small budget: CI runs the same inputs every time) breaks valid inputs
of the project's corpus token by token and line by line: hostile words (`²`, 5,000 digits, `1e999999`,
`1_0`, Arabic-Indic digits, NUL, emoji), lines dropped, doubled, swapped, cut short. Each target runs in
a child process under an address-space cap, on both parse paths (the compiled loop and the Python one,
chosen for the whole child), each input under an alarm. What must hold: no exception escapes, no input
runs past its alarm, and a plan refused as an error says where. For the language server: every
mutated frame is answered or skipped, and a request sent after it is answered.

Run as a script (`python tests/test_fuzz_turn3_targets.py htn|pddlplus compiled|python`), this module
is the child.
"""

from __future__ import annotations

import json
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # the child: this worktree's tests.* importable as when pytest runs
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzzing import REPO, Hang, alarm, cap_address_space, emit, mutate, run_child, use_python_loop

PLANS = REPO / "corpus" / "plans" / "pddl+"
HTN = REPO / "corpus" / "hddl" / "plans"
PER_INPUT = 5  # seconds
ADDRESS_SPACE = 3 << 30
BUDGET = {"htn": 100, "pddlplus": 60}  # mutated inputs per parse path


# ---------------------------------------------------------------------------------------------------
# The child


def _cases(target: str) -> list[tuple[Any, str, str]]:
    """(task, plan text, name) of the valid seeds."""
    if target == "htn":
        from pddltools.hddl.verify import HTNTask

        out = []
        for folder in (HTN / "walk", HTN / "errands"):
            task = HTNTask.load(folder / "domain.hddl", folder / "problem.hddl")
            out += [(task, plan.read_text(encoding="utf-8"), plan.name) for plan in sorted(folder.glob("valid*.plan"))]
        return out
    from pddltools.validate import GroundedTask

    out = []
    for folder in sorted(p for p in PLANS.iterdir() if p.is_dir()):
        task = GroundedTask.load(folder / "domain.pddl", folder / "problem.pddl")
        out += [(task, plan.read_text(encoding="utf-8"), f"{folder.name}/{plan.name}")
                for plan in sorted(folder.glob("*.plan"))[:2]]
    return out


def child(target: str, path: str) -> None:
    cap_address_space(ADDRESS_SPACE)
    if path == "python":
        use_python_loop()
    from pddltools.diagnostics import Source

    seeds = _cases(target)
    rng = random.Random(f"{target}-30")  # the same inputs on every run and on both paths
    checked = 0
    for index in range(BUDGET[target]):
        task, text, name = seeds[index % len(seeds)]
        plan = mutate(text, rng)
        problem = None
        try:
            with alarm(PER_INPUT):
                if target == "htn":
                    from pddltools.hddl.verify import verify_plan

                    report = verify_plan(task, Source(plan, "fuzz.plan"))
                else:
                    from pddltools.validate import validate_plan

                    report = validate_plan(task, Source(plan, "fuzz.plan"))
            if report.verdict == "error" and not any(d.span is not None for d in report.diagnostics):
                problem = f"an error without a place: {report.message}"
        except Hang:
            problem = f"still running after {PER_INPUT} s"
        except BaseException:
            problem = traceback.format_exc()[-3000:]
        checked += 1
        if problem is not None:
            emit({"seed": name, "input": plan[:3000], "problem": problem})
    emit({"checked": checked})


# ---------------------------------------------------------------------------------------------------
# The tests

if __name__ != "__main__":
    import pytest

    from tests.lsp_raw import RawServer

    def fuzz(target: str, path: str) -> list[dict[str, Any]]:
        records, err = run_child([__file__, target, path], timeout=60 + PER_INPUT * BUDGET[target])
        assert records and records[-1].get("checked") == BUDGET[target], err
        return records[:-1]

    @pytest.mark.parametrize("path", ["compiled", "python"])
    @pytest.mark.parametrize("target", ["htn", "pddlplus"])
    def test_mutated_plans_end_in_a_verdict(target: str, path: str) -> None:
        assert fuzz(target, path) == []

    VALID = ("(define (domain d) (:requirements :strips) (:predicates (p ?x) (q))\n"
             "  (:action a :parameters (?x) :precondition (p ?x) :effect (q)))\n")

    def frames(rng: random.Random) -> list[bytes]:
        """A session's frames, one of them broken in one way or another."""
        messages: list[dict[str, Any]] = [
            {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                "uri": "file:///nowhere/d.pddl", "languageId": "pddl", "version": 1, "text": mutate(VALID, rng)}}},
            {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {
                "textDocument": {"uri": "file:///nowhere/d.pddl"},
                "position": {"line": rng.choice([0, 1, -1, 2**31, 10**6]), "character": rng.choice([0, 5, -2])}}},
            {"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol", "params": {
                "textDocument": {"uri": "file:///nowhere/d.pddl"}}},
        ]
        out = []
        for message in messages:
            body = json.dumps(message).encode()
            header = b"Content-Length: %d\r\n\r\n" % len(body)
            choice = rng.randrange(8)
            if choice == 0:  # a wrong length, then the next frame
                header = b"Content-Length: %d\r\n\r\n" % rng.choice([0, 10**12, 10**30, len(body) // 2])
            elif choice == 1:  # bytes of the body damaged
                cut = rng.randrange(len(body))
                body = body[:cut] + bytes([rng.randrange(256)]) + body[cut + 1:]
                header = b"Content-Length: %d\r\n\r\n" % len(body)
            elif choice == 2:
                header = header.replace(b"Content-Length", rng.choice([b"Content-Lenght", b"content-length",
                                                                       b"Content-Length :"]))
            elif choice == 3:
                header = rng.choice([b"Content-Type: x\r\n", b"\r\n", b"X: " + b"y" * 10000 + b"\r\n"]) + header
            out.append(header + body)
        return out

    @pytest.mark.parametrize("path", ["compiled", "python"])
    def test_mutated_frames_never_stop_the_server(path: str) -> None:
        rng = random.Random(f"lsp-30-{path}")
        server = RawServer(python_loop=path == "python")
        try:
            server.start()
            for session in range(8):
                for frame in frames(rng):
                    server.raw(frame)
                # whatever the frames did, a request after them is answered
                probe = server.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere/d.pddl"},
                                                              "position": {"line": 0, "character": 1}}, timeout=30)
                assert probe is not None and server.process.poll() is None, f"session {session}"
            assert server.stop() == 0
        finally:
            if server.process.poll() is None:
                server.process.kill()
                server.process.wait()
        time.sleep(0)

    def edited(text: str, rng: random.Random) -> str:
        """`text` after a few keystrokes' worth of edits: characters typed, cut, pasted, a '(' lost."""
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(text) + 1)
            pick = rng.randrange(4)
            if pick == 0:
                text = text[:at] + rng.choice(["(", ")", "(and", ":action", "x", "(:predicates", "\n", "-", "?x",
                                               "(:init", "²"]) + text[at:]
            elif pick == 1:
                text = text[:at] + text[at + rng.randint(1, 20):]
            elif pick == 2:
                other = rng.randrange(len(text) + 1)
                text = text[:at] + text[min(at, other):max(at, other)] + text[at:]
            else:
                text = text[:at] + text[at:].replace("(", "", 1)
        return text

    @pytest.mark.parametrize("path", ["compiled", "python"])
    def test_the_servers_syntax_errors_are_a_fresh_parses_through_an_editing_session(path: str) -> None:
        """The language server's section-by-section parse, its cache warm from the versions before,
        reports the syntax errors a fresh parse of the whole text (`check`) reports, keystroke after
        keystroke of random edits to the example domains and problems."""
        from pddltools.diagnostics import Source
        from pddltools.lsp.incremental import SectionCache
        from pddltools.lsp.recovery import syntax_errors
        from pddltools.syntax.testing import parser_variant

        files = sorted((REPO / "corpus" / "pddl" / "examples").glob("*/*.pddl"))
        rng = random.Random(f"lsp-edits-30-{path}")
        cache = SectionCache()
        text = ""
        with parser_variant(compiled=path == "compiled"):
            for keystroke in range(80):
                if keystroke % 20 == 0:
                    text = rng.choice(files).read_text(encoding="utf-8")
                text = edited(text, rng)
                source = Source(text, "edited.pddl")
                shown = sorted((d.code, d.span.start if d.span else -1) for d in cache.parse(source).syntax)
                fresh = sorted((d.code, d.span.start if d.span else -1) for d in syntax_errors(source) or ())
                assert shown == fresh, text


if __name__ == "__main__":
    child(sys.argv[1], sys.argv[2])
