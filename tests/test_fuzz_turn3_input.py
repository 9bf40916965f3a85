"""The hostile inputs of ../shared/fuzz/turn3 that reach pddltools' input side (issue 30).

Each reproducer's commands (its cmd.sh) run in a child process, in-process through `pddltools.cli.main`,
each under an alarm, the child under an address-space cap and a timeout: a regression to a hang, a
traceback or memory without bound fails these tests instead of stalling CI. The parent checks what
each command must now do: its exit status and the registered code it reports.

The deepest formula of each construct that the parser accepts (the one depth limit, E105) is then run
through every later stage, and one level deeper must be refused at the parser on both parse paths.

Run as a script (`python tests/test_fuzz_turn3_input.py cases|deep`), this module is the child.
"""

from __future__ import annotations

import contextlib
import io
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # the child: this worktree's tests.* importable as when pytest runs
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzzing import REPO, TURN3, Hang, alarm, cap_address_space, check_findings, emit, run_child

#: Seconds one command may take in the child (before the fixes: from 5 s to for ever).
PER_CASE = 10
#: The child's address space: /dev/zero read whole, or n! matchings kept, end in MemoryError here.
ADDRESS_SPACE = 3 << 30

H = REPO / "corpus" / "pddl" / "examples" / "hello"
T = REPO / "corpus" / "plans" / "temporal"
CO = REPO / "corpus" / "plans" / "pddl+" / "cooling"
GROW = {"grow-domain.pddl": "(define (domain grow) (:requirements :time :numeric-fluents) (:functions (x))\n"
                            "  (:process grow :parameters () :precondition (>= (x) 0)\n"
                            "    :effect (increase (x) (* #t (* (x) (x)))))\n"
                            "  (:action stop :parameters () :precondition (>= (x) 0) :effect (assign (x) (x))))\n",
        "grow-problem.pddl": "(define (problem p) (:domain grow) (:init (= (x) 0.01)) (:goal (>= (x) 0)))\n",
        "grow.plan": "21: (stop)\n"}

#: (case, folder under turn3, argv, exit status, what the output must contain)
CASES: list[tuple[str, str, list[str], int, str]] = [
    ("parse-dev-zero", "dev-zero-memory", ["parse", "/dev/zero"], 2, "E004"),
    ("validate-dev-zero", "dev-zero-memory", ["validate", f"{H}/domain.pddl", f"{H}/problem.pddl", "/dev/zero"],
     2, "E004"),
    ("rddl-check-dev-zero", "dev-zero-memory", ["rddl", "check", "/dev/zero"], 2, "E004"),
    ("report-plan-dev-zero", "dev-zero-memory", ["report", "{dir}/plan-is-dev-zero.jsonl", "-o", "{tmp}/out.html"],
     2, "S044"),
    ("score-dev-null", "dev-zero-memory", ["score", "/dev/null", "--rules", "ipc2008-sat"], 2, "S040"),
    ("epsilon-1e5000", "cli-number-options", ["validate", "--epsilon", "1e5000", f"{T}/domain.pddl",
                                              f"{T}/problem.pddl", f"{T}/concurrent.plan"], 2, "out of range"),
    ("delta-1e100000", "cli-number-options", ["validate", "--delta", "1e100000", f"{CO}/domain.pddl",
                                              f"{CO}/problem.pddl", f"{CO}/valid.plan"], 2, "out of range"),
    ("epsilon-1e100000000", "cli-number-options", ["validate", "--epsilon", "1e100000000", f"{T}/domain.pddl",
                                                   f"{T}/problem.pddl", f"{T}/concurrent.plan"], 2, "out of range"),
    ("delta-0.0001", "cli-number-options", ["validate", "--delta", "0.0001", f"{CO}/domain.pddl",
                                            f"{CO}/problem.pddl", f"{CO}/valid.plan"], 0, "valid"),
    # change that --delta must approximate (dx/dt = x²): 210,000 steps refused at once, saying so
    ("delta-steps-bounded", "cli-number-options", ["validate", "--delta", "0.0001", "{tmp}/grow-domain.pddl",
                                                   "{tmp}/grow-problem.pddl", "{tmp}/grow.plan"], 2, "100,000"),
    ("epsilon-underscore", "cli-number-options", ["validate", "--epsilon", "1_0", f"{T}/domain.pddl",
                                                  f"{T}/problem.pddl", f"{T}/concurrent.plan"], 2, "not a number"),
    ("chain500", "hddl-deep-decomposition", ["validate", "{dir}/chain-domain.hddl", "{dir}/chain-problem.hddl",
                                             "{dir}/chain500.plan"], 0, "valid, value 500"),
    ("chain1000", "hddl-deep-decomposition", ["validate", "{dir}/chain-domain.hddl", "{dir}/chain-problem.hddl",
                                              "{dir}/chain1000.plan"], 0, "valid, value 1000"),
    ("cycle3", "hddl-cycle-recursion", ["validate", "{dir}/chain-domain.hddl", "{dir}/chain-problem.hddl",
                                        "{dir}/cycle3.plan"], 1, "V109"),
    ("match8", "hddl-match-exponential", ["validate", "{dir}/domain8.hddl", "{dir}/problem8.hddl",
                                          "{dir}/plan8.plan"], 1, "V111"),
    ("match10", "hddl-match-exponential", ["validate", "{dir}/domain10.hddl", "{dir}/problem10.hddl",
                                           "{dir}/plan10.plan"], 1, "V111"),
    ("id-superscript", "hddl-id-valueerror", ["validate", "{dir}/chain-domain.hddl", "{dir}/chain-problem.hddl",
                                              "{dir}/sup.plan"], 1, "sup.plan:2:1: error[V101]"),
    ("id-5000-digits", "hddl-id-valueerror", ["validate", "{dir}/chain-domain.hddl", "{dir}/chain-problem.hddl",
                                              "{dir}/bigid.plan"], 1, "bigid.plan:2:1: error[V101]"),
    ("deep-parse", "deep-formula-recursion", ["parse", "{dir}/domain.pddl"], 1, "domain.pddl:4:1016: error[E105]"),
    ("deep-validate", "deep-formula-recursion", ["validate", "{dir}/domain.pddl", "{dir}/problem.pddl",
                                                 "{dir}/tick.plan"], 1, "E105"),
    ("deep-fmt", "deep-formula-recursion", ["fmt", "{dir}/domain1400.pddl"], 1, "E105"),
    ("deep-compile", "deep-formula-recursion", ["compile", "{dir}/domain1400.pddl", "{dir}/problem.pddl",
                                                "--target", "strips", "-o", "{tmp}/outdir"], 1, "E105"),
]


# ---------------------------------------------------------------------------------------------------
# Deep formulas: the deepest of each construct that parses, through every stage


def nested(kind: str, depth: int) -> str:
    """A domain whose action `tick` nests `depth` levels of `kind` in its precondition or effect."""
    pre, eff = "(ready)", "(done)"
    opening = {"and": "(and ", "or": "(or ", "not": "(not ", "imply": "(imply (ready) ",
               "forall": "(forall (?x) ", "exists": "(exists (?x) "}
    if kind in opening:
        pre = opening[kind] * depth + "(ready)" + ")" * depth
    elif kind in ("effect-and", "when", "effect-forall"):
        head = {"effect-and": "(and ", "when": "(when (ready) ", "effect-forall": "(forall (?x) "}[kind]
        eff = head * depth + "(done)" + ")" * depth
    elif kind == "plus":
        pre = "(> " + "(+ " * depth + "(f)" + " 1)" * depth + " 0)"
    elif kind == "minus":
        pre = "(> " + "(- " * depth + "(f)" + ")" * depth + " 0)"
    elif kind == "increase":
        eff = "(and (done) (increase (f) " + "(* " * depth + "(f)" + " 1)" * depth + "))"
    return ("(define (domain deep)\n  (:requirements :adl :numeric-fluents)\n  (:predicates (done) (ready))\n"
            f"  (:functions (f))\n  (:action tick :parameters () :precondition {pre}\n    :effect {eff}))\n")


KINDS = ("and", "or", "not", "imply", "forall", "exists", "effect-and", "when", "effect-forall", "plus", "minus",
         "increase")
DEEP_PROBLEM = "(define (problem t1) (:domain deep) (:objects a)\n  (:init (ready) (= (f) 1))\n  (:goal (done)))\n"


def deepest(kind: str, compiled: bool) -> tuple[int, Any]:
    """The deepest `kind` that parses on one path, and what one level deeper gives."""
    from pddltools.pddl.parser import parse_text
    from pddltools.syntax.errors import ParseError
    from pddltools.syntax.testing import parser_variant

    def parses(depth: int) -> bool:
        with parser_variant(compiled=compiled):
            try:
                parse_text(nested(kind, depth))
            except ParseError:
                return False
        return True

    low, high = 1, 2000
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if parses(middle) else (low, middle - 1)
    from pddltools.syntax.testing import parser_variant as variant
    with variant(compiled=compiled):
        try:
            parse_text(nested(kind, low + 1))
            beyond: Any = None
        except ParseError as exc:
            beyond = exc.diagnostics[0].code
    return low, beyond


# ---------------------------------------------------------------------------------------------------
# The child


def _run(argv: list[str]) -> dict[str, Any]:
    from pddltools.cli import main

    out, err = io.StringIO(), io.StringIO()
    began = time.perf_counter()
    crash = None
    try:
        with alarm(PER_CASE), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code: Any = main(argv)
            except SystemExit as exc:  # argparse's usage errors
                code = exc.code
    except Hang:
        code, crash = None, f"still running after {PER_CASE} s"
    except BaseException:
        code, crash = None, traceback.format_exc()
    text = out.getvalue() + err.getvalue()
    if "Traceback" in text:
        crash = text[-3000:]
    return {"code": code, "output": text[-6000:], "crash": crash, "seconds": time.perf_counter() - began}


def child(mode: str) -> None:
    cap_address_space(ADDRESS_SPACE)
    tmp = Path(tempfile.mkdtemp(prefix="turn3-"))
    if mode == "cases":
        for file, text in GROW.items():
            (tmp / file).write_text(text)
        for name, folder, argv, _, _ in CASES:
            filled = [a.replace("{dir}", str(TURN3 / folder)).replace("{tmp}", str(tmp)) for a in argv]
            emit({"case": name, **_run(filled)})
        return
    (tmp / "problem.pddl").write_text(DEEP_PROBLEM)
    (tmp / "tick.plan").write_text("(tick)\n")
    for kind in KINDS:
        depths = {path: deepest(kind, path == "compiled") for path in ("compiled", "python")}
        depth = depths["compiled"][0]
        domain = tmp / f"{kind}.pddl"
        domain.write_text(nested(kind, depth))
        stages = {}
        for stage, argv in (("check", ["check", str(domain), str(tmp / "problem.pddl")]),
                            ("validate", ["validate", str(domain), str(tmp / "problem.pddl"), str(tmp / "tick.plan")]),
                            ("fmt", ["fmt", str(domain)]),
                            ("compile", ["compile", str(domain), str(tmp / "problem.pddl"), "--target", "strips",
                                         "-o", str(tmp / f"out-{kind}"), "--force"])):
            stages[stage] = _run(argv)
        emit({"kind": kind, "depths": depths, "stages": stages})


# ---------------------------------------------------------------------------------------------------
# The tests

if __name__ != "__main__":
    import pytest

    from tests.lsp_raw import RawServer

    needs_turn3 = pytest.mark.skipif(not TURN3.is_dir(), reason=f"the reproducers are not at {TURN3}")

    def records(mode: str, key: str, count: int) -> dict[str, dict[str, Any]]:
        found, err = run_child([__file__, mode], timeout=60 + PER_CASE * count * 4)
        return {**{record[key]: record for record in found}, "_stderr": {"text": err}}

    @pytest.fixture(scope="module")
    def cases() -> dict[str, dict[str, Any]]:
        return records("cases", "case", len(CASES))

    @pytest.fixture(scope="module")
    def deep() -> dict[str, dict[str, Any]]:
        return records("deep", "kind", len(KINDS) * 4)

    @needs_turn3
    @pytest.mark.parametrize(("name", "code", "expected"), [(c[0], c[3], c[4]) for c in CASES],
                             ids=[c[0] for c in CASES])
    def test_reproducer_ends_as_its_readme_says(cases: dict[str, dict[str, Any]], name: str, code: int,
                                                expected: str) -> None:
        assert name in cases, f"never finished: {cases['_stderr']['text']}"
        record = cases[name]
        assert record["crash"] is None, record["crash"]
        assert record["code"] == code, record["output"]
        assert expected in record["output"], record["output"]

    @needs_turn3
    def test_a_cycle_is_four_v109_and_nothing_else(cases: dict[str, dict[str, Any]]) -> None:
        output = cases["cycle3"]["output"]
        assert output.count("error[V109]") == 4 and "form a cycle" in output, output

    @pytest.mark.parametrize("kind", KINDS)
    def test_the_deepest_formula_that_parses_passes_every_stage(deep: dict[str, dict[str, Any]], kind: str) -> None:
        assert kind in deep, f"never finished: {deep['_stderr']['text']}"
        record = deep[kind]
        (compiled, beyond), (python, python_beyond) = record["depths"]["compiled"], record["depths"]["python"]
        # one limit, the same on both parse paths, and a located E105 one level deeper
        assert compiled == python and beyond == python_beyond == "E105", record["depths"]
        # far deeper than any real file (the IPC's deepest nests 23 parentheses) and bounded
        assert 60 <= compiled <= 250, compiled
        for stage, outcome in record["stages"].items():
            assert outcome["crash"] is None, f"{stage}: {outcome['crash']}"
            assert outcome["code"] in (0, 1), f"{stage}: {outcome['output']}"

    @pytest.fixture(scope="module")
    def server() -> Any:
        running = RawServer()
        running.start()
        yield running
        running.process.kill()
        running.process.wait()

    HOVER = {"textDocument": {"uri": "file:///nowhere/x.pddl"}, "position": {"line": 0, "character": 0}}

    def test_a_huge_content_length_gets_an_error_and_the_server_stays_up(server: RawServer) -> None:
        server.raw(b"Content-Length: 99999999999999999999\r\n\r\n{}")
        answer = server.reply(None)
        assert answer is not None and answer["error"]["code"] == -32600, answer
        assert "Content-Length" in answer["error"]["message"]
        # the frame after the bad one is read (the reader finds its header after the stray body)
        assert server.request("textDocument/hover", HOVER) is not None
        assert server.process.poll() is None

    @pytest.mark.parametrize(("frame", "code"), [
        (b"Content-Length: 5\r\n\r\n{bad}", -32700),
        (b"Content-Length: -3\r\n\r\n", -32600),
        (b"X-Junk: 1\r\n\r\n", -32600),
        (b"Content-Length: 2\r\n\r\n[]", -32600),
        (b"Content-Length: " + b"9" * 20000 + b"\r\n\r\n", -32600),
        (b"Content-Length: 800\r\n\r\n" + b"[" * 800, -32700),
    ], ids=["not-json", "negative-length", "no-length", "not-an-object", "overlong-header", "deep-json"])
    def test_a_malformed_frame_gets_an_error_reply(server: RawServer, frame: bytes, code: int) -> None:
        server.raw(frame)
        answer = server.reply(None)
        assert answer is not None and answer["error"]["code"] == code, answer
        assert server.request("textDocument/hover", HOVER) is not None

    @pytest.mark.parametrize("position", [{"line": -1, "character": 0}, {"line": 0, "character": -5},
                                          {"line": 2**31, "character": 0}])
    def test_a_request_with_a_bad_position_gets_an_error_reply(server: RawServer, position: dict[str, int]) -> None:
        answer = server.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere/x.pddl"},
                                                       "position": position}, timeout=20)
        assert answer is not None and answer["error"]["code"] == -32602, answer
        assert server.request("textDocument/hover", HOVER) is not None

    @needs_turn3
    @pytest.mark.parametrize("name", ["domain.pddl", "random-edit-1749.pddl"])
    def test_the_servers_syntax_diagnostics_are_checks(server: RawServer, name: str) -> None:
        path = TURN3 / "lsp-diagnostics-differ" / name
        uri = f"file:///nowhere/{name}"
        server.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "pddl", "version": 1, "text": path.read_text(encoding="utf-8")}}})
        found = server.diagnostics(uri)
        assert found is not None
        shown = sorted((d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"]) for d in found
                       if str(d["code"]).startswith("E1"))
        assert shown == sorted((code, line - 1, column - 1) for _, code, line, column, _ in check_findings([path]))


if __name__ == "__main__":
    child(sys.argv[1])
