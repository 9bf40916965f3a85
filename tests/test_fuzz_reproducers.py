"""The hostile inputs of ../shared/fuzz (one file per finding of issue 21), on both parse paths.

Each reproducer must end in a located diagnostic or a correct result, in bounded time and memory, and
what `fmt` prints of it must parse back to the same thing. The files run in a child process per path
(the compiled loop and scanners, and the Python ones), each file under an alarm, the child itself
under a timeout: a regression to a hang or to quadratic work fails these tests instead of stalling CI.
The parent compares what the two paths said, and what the grammar alone says, file by file.

Run as a script (`python tests/test_fuzz_reproducers.py compiled FILE...`), this module is the child.
"""

from __future__ import annotations

import sys
import time
import traceback
from pathlib import Path
from typing import Any

if __name__ == "__main__":  # the child: this worktree's tests.* importable as when pytest runs
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pddltools.syntax.testing import parser_variant
from tests.fuzzing import FUZZ, PATHS, Hang, alarm, emit, peak_mb, run_child

#: Seconds a file may take in the child (parsing every way, printing, parsing the print): generous, as
#: CI machines are slow and shared; before the fixes these files took from 12 s to hours.
PER_FILE = 8
#: Peak memory growth a file may cause in the child, in MB (the enum range took 237 MB).
MEMORY_MB = 100


# ---------------------------------------------------------------------------------------------------
# The child


def _diagnostics(exc: Any) -> list[dict[str, Any]]:
    return [d.to_json() for d in exc.diagnostics]


def _located(diagnostics: list[dict[str, Any]]) -> bool:
    return bool(diagnostics) and all(d.get("line") and d.get("column") for d in diagnostics)


def _pddl(path: Path, compiled: bool) -> dict[str, Any]:
    from pddltools.diagnostics import Source
    from pddltools.pddl.parser import parse
    from pddltools.pddl.printer import to_pddl
    from pddltools.reading import read_source
    from pddltools.syntax.errors import ParseError

    source = read_source(path)
    outcomes: dict[str, Any] = {}
    for label, fast in (("fast", True), ("grammar", False)):
        try:
            with parser_variant(fast=fast, compiled=compiled):
                tree = parse(source)
        except ParseError as exc:
            outcomes[label] = ("error", _diagnostics(exc))
            continue
        printed = to_pddl(tree)
        with parser_variant(fast=fast, compiled=compiled):
            again = parse(Source(printed, "printed.pddl"))
        outcomes[label] = ("tree", printed, again == tree and to_pddl(again) == printed)
    return outcomes


def _rddl_python_loop() -> None:
    """Put a Python loop over the same tables in the place of the parser's compiled one."""
    from pddltools.rddl import parser as rddl_parser
    from pddltools.syntax.lalr import FastParser

    parser = rddl_parser._parser("fast")
    assert parser.driver is not None
    compiled, errors = parser.driver
    python = FastParser(parser.lark, trigger=rddl_parser.RDDLLexer.fast_trigger, fast_paths=compiled.fast_paths,
                        compiled=False)
    parser.driver = (python, errors)


def _rddl(path: Path) -> dict[str, Any]:
    from pddltools.rddl.parser import parse_file, parse_text
    from pddltools.rddl.printer import format_file
    from pddltools.rddl.typecheck import check
    from pddltools.syntax.errors import ParseError

    outcomes: dict[str, Any] = {}
    for label, lexer in (("fast", "fast"), ("grammar", "grammar")):
        try:
            with parser_variant(fast=lexer == "fast"):
                tree = parse_file(path)
        except ParseError as exc:
            outcomes[label] = ("error", _diagnostics(exc))
            continue
        findings = [d.to_json() for d in check([tree])]
        printed = format_file(tree)
        # printing what was parsed back again gives the same text (the trees themselves may be too
        # deep to compare with ==, which recurses)
        again = format_file(parse_text(printed, "printed.rddl"))
        outcomes[label] = ("tree", printed, again == printed, findings)
    return outcomes


def _plan(path: Path) -> dict[str, Any]:
    from pddltools.reading import read_source
    from pddltools.validate.planfile import PlanError, read_plan

    try:
        plan = read_plan(read_source(path))
    except PlanError as exc:
        return {"plan": ("error", _diagnostics(exc))}
    return {"plan": ("tree", [str(step) for step in plan.steps], True)}


def child(path_kind: str, files: list[str]) -> None:
    compiled = path_kind == "compiled"
    from pddltools.pddl.parser import parse_text as pddl_text
    from pddltools.rddl.parser import parse_text as rddl_text

    if not compiled:
        _rddl_python_loop()
    # build the parsers before measuring memory: their tables are not the files' doing
    pddl_text("(define (domain d) (:predicates (p)))")
    rddl_text("domain d { pvariables { p : { state-fluent, bool, default = false }; }; cpfs { p' = p; }; reward = 0; }")
    for name in files:
        path = Path(name)
        emit({"file": path.name, "started": True})
        before = peak_mb()
        began = time.perf_counter()
        try:
            with alarm(PER_FILE):
                if path.suffix == ".pddl":
                    outcomes = _pddl(path, compiled)
                elif path.suffix == ".rddl":
                    outcomes = _rddl(path)
                else:
                    outcomes = _plan(path)
            crash = None
        except Hang:
            outcomes, crash = {}, f"still running after {PER_FILE} s"
        except BaseException:  # anything but a diagnostic is the finding itself
            outcomes, crash = {}, traceback.format_exc()
        emit({"file": path.name, "outcomes": outcomes, "crash": crash, "seconds": time.perf_counter() - began,
              "memory_mb": peak_mb() - before})


# ---------------------------------------------------------------------------------------------------
# The tests

if __name__ != "__main__":
    import pytest

    def reproducers() -> list[Path]:
        if not FUZZ.is_dir():
            return []
        found = [p for p in sorted(FUZZ.iterdir()) if p.suffix in (".pddl", ".rddl")]
        return found + sorted((FUZZ / "validate-huge-time").glob("*.plan"))

    FILES = reproducers()
    needs_fuzz = pytest.mark.skipif(not FILES, reason=f"the fuzz reproducers are not at {FUZZ}")

    def outcomes(path_kind: str) -> dict[str, dict[str, Any]]:
        found, err = run_child([__file__, path_kind, *map(str, FILES)], timeout=60 + PER_FILE * len(FILES))
        results: dict[str, dict[str, Any]] = {}
        for record in found:
            if record.get("started"):
                results[record["file"]] = {"crash": f"never finished: {err[-2000:]}", "outcomes": {}}
            else:
                results[record["file"]] = record
        for path in FILES:
            results.setdefault(path.name, {"crash": f"never started: {err[-2000:]}", "outcomes": {}})
        return results

    @pytest.fixture(scope="module")
    def results() -> dict[str, dict[str, dict[str, Any]]]:
        return {kind: outcomes(kind) for kind in PATHS}

    @needs_fuzz
    @pytest.mark.parametrize("path_kind", PATHS)
    @pytest.mark.parametrize("name", [p.name for p in FILES] or ["none"])
    def test_reproducer_ends_in_a_located_diagnostic_or_a_round_trip(
            results: dict[str, dict[str, dict[str, Any]]], path_kind: str, name: str) -> None:
        record = results[path_kind][name]
        assert record["crash"] is None, record["crash"]
        assert record["memory_mb"] < MEMORY_MB, f"{name} grew the process by {record['memory_mb']:.0f} MB"
        for label, found in record["outcomes"].items():
            if found[0] == "error":
                assert _located(found[1]), f"{label}: a diagnostic without a place: {found[1]}"
            else:
                assert found[2], f"{label}: what fmt prints does not parse back to the same"

    @needs_fuzz
    @pytest.mark.parametrize("name", [p.name for p in FILES] or ["none"])
    def test_both_paths_and_the_grammar_agree(results: dict[str, dict[str, dict[str, Any]]], name: str) -> None:
        compiled, python = (results[kind][name]["outcomes"] for kind in PATHS)
        assert compiled == python, f"{name}: the compiled and the Python paths differ"
        if "grammar" in compiled:
            assert compiled["fast"] == compiled["grammar"], f"{name}: the fast path and the grammar differ"

    #: What each finding must now give: file, code, line:column of the first diagnostic.
    EXPECTED_TEXT = """
        bigint-5000-digits.pddl               E104 1:62
        huge-exponent-hang.pddl               E104 1:62
        fmt-big-number-valueerror.pddl        E104 4:51
        fmt-tiny-decimal-hang.pddl            E104 4:51
        fastpath-params-nbsp-accepted.pddl    E101 5:20
        fastpath-params-vt-accepted.pddl      E101 5:20
        fmt-dotted-capital-I.pddl             E101 1:19
        rddl-bigint-valueerror.rddl           R110 1:48
        rddl-enum-range-memory.rddl           R109 2:16
        rddl-unterminated-comment-redos.rddl  R108 2:1
        rddl-eof-diag-at-offset0.rddl         R102 4:8
        huge-time.plan                        V001 1:1
        huge-duration.plan                    V001 1:20
    """
    EXPECTED = {name: (code, *map(int, place.split(":"))) for name, code, place in map(str.split,
                                                                                       EXPECTED_TEXT.strip().splitlines())}

    @needs_fuzz
    @pytest.mark.parametrize("name", sorted(EXPECTED))
    def test_each_finding_gives_its_diagnostic(results: dict[str, dict[str, dict[str, Any]]], name: str) -> None:
        if name not in results["compiled"]:
            pytest.skip(f"{name} is not among the reproducers here")
        found = next(iter(results["compiled"][name]["outcomes"].values()))
        assert found[0] == "error"
        first = found[1][0]
        assert (first["code"], first["line"], first["column"]) == EXPECTED[name], first

    @needs_fuzz
    @pytest.mark.parametrize("name", ["many-bad-sections.pddl", "swapped-paren-init-500.pddl",
                                      "swapped-paren-init-1000.pddl", "swapped-paren-init-2000.pddl"])
    def test_recovery_still_reports_every_broken_section(results: dict[str, dict[str, dict[str, Any]]],
                                                         name: str) -> None:
        """One diagnostic per broken section or misplaced parenthesis, as before recovery was linear."""
        if name not in results["compiled"]:
            pytest.skip(f"{name} is not among the reproducers here")
        found = results["compiled"][name]["outcomes"]["fast"]
        # each `(x)` section; for the swapped files, each line after the first misplaced parenthesis
        # but the last (which stumbles on the :goal)
        expected = 1000 if name == "many-bad-sections.pddl" else int(name.split("-")[-1].split(".")[0]) - 2
        assert found[0] == "error" and len(found[1]) == expected

    @needs_fuzz
    @pytest.mark.parametrize("name", ["rddl-fmt-inf-in-expr.rddl", "rddl-long-sum-fmt-recursion.rddl"])
    def test_rddl_files_that_parse_are_checked_and_printed(results: dict[str, dict[str, dict[str, Any]]],
                                                           name: str) -> None:
        if name not in results["compiled"]:
            pytest.skip(f"{name} is not among the reproducers here")
        found = results["compiled"][name]["outcomes"]["fast"]
        assert found[0] == "tree" and found[2] and found[3] == [], found[3]


if __name__ == "__main__":
    child(sys.argv[1], sys.argv[2:])
