"""The compiled LALR loop (`pddltools.syntax._speedups.Driver`) on RDDL: the same ASTs, spans and errors as the
Python loop of `pddltools.syntax.lalr.FastParser`.

The RDDL parser builds its `FastParser` in `pddltools.rddl.parser._lean_driver` (compiled by default);
the tests build a second one over the same Lark tables, callbacks and fast path with `compiled=False`
and compare, on every file of the shared corpus and of this repository's corpus:
- the loops themselves (what `FastParser.parse` returns or raises: `RDDLParser.parse` would hide a
  failure of the loop by handing the text to Lark's own loop), and
- the public `parse`, with the Python loop put in the compiled one's place.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pddltools.diagnostics import InputError, Source, Span
from pddltools.rddl import parser as rddl_parser
from pddltools.rddl.builder import BuildError
from pddltools.rddl.parser import RDDLLexer, parse, read_rddl_source
from pddltools.syntax import frozen
from pddltools.syntax.errors import ParseError
from pddltools.syntax.lalr import FastParser, Tok, UnexpectedInput
from pddltools.syntax.lexing import UnexpectedCharacter

from .conftest import OWN_CORPUS, REPO, SHARED_CORPUS, shared_corpus_files

pytestmark = pytest.mark.skipif(
    frozen.speedups is None,
    reason="pddltools.syntax._speedups is not built (no C compiler at install time): nothing compiled to compare")


def fingerprint(value: Any, source: Source) -> Any:
    """Everything about a parsed value: spans as (start, end, whether in `source`), nodes by type and
    every field (the span too), floats by repr (so that NaN equals NaN)."""
    if isinstance(value, Span):
        return ("span", value.start, value.end, value.source is source)
    if isinstance(value, Tok):
        return ("tok", value.type, fingerprint(value.value, source), value.start_pos, value.end_pos)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(fingerprint(getattr(value, f.name), source) for f in dataclasses.fields(value)))
    if isinstance(value, tuple | list):
        return (type(value).__name__, *(fingerprint(v, source) for v in value))
    if isinstance(value, float):
        return ("float", repr(value))
    return (type(value).__name__, value)


@dataclasses.dataclass
class Loops:
    parser: Any  # rddl_parser._Parser
    compiled: FastParser
    python: FastParser
    errors: tuple[type[Exception], ...]

    def run(self, driver: FastParser, source: Source) -> tuple[Any, ...]:
        """What the loop returns or raises for the text of `source`."""
        with self.parser.lock:
            self.parser.builder.source = source
            try:
                result = driver.parse(source, "start")
            except UnexpectedInput as exc:
                return ("unexpected token", exc.token.type, fingerprint(exc.token.value, source), exc.token.start_pos,
                        exc.token.end_pos, sorted(exc.expected))
            except UnexpectedCharacter as exc:
                return ("unexpected character", exc.pos, exc.char)
            except BuildError as exc:
                return ("build", exc.code, exc.message, exc.start, exc.end)
        return ("tree", fingerprint(result, source))


@pytest.fixture(scope="module")
def loops() -> Loops:
    parser = rddl_parser._parser("fast")
    assert parser.driver is not None, "the RDDL parser has no lean driver"
    compiled, errors = parser.driver
    assert isinstance(compiled, FastParser)
    assert compiled.compiled is not None, "the RDDL parser's loop is not the compiled one"
    python = FastParser(parser.lark, trigger=RDDLLexer.fast_trigger, fast_paths=compiled.fast_paths, compiled=False)
    # the copy must be configured as the parser's own loop is (see rddl_parser._lean_driver)
    for attribute in ("lowercase", "trigger", "max_stack", "keywords", "ignore", "start_states", "end_states"):
        assert getattr(python, attribute) == getattr(compiled, attribute), attribute
    assert python.pattern.pattern == compiled.pattern.pattern
    assert python.actions == compiled.actions and python.goto == compiled.goto
    assert python.compiled is None
    return Loops(parser, compiled, python, errors)


def corpus_files() -> list[Path]:
    own = sorted(p for p in (REPO / "corpus").rglob("*") if p.is_file() and ".rddl" in p.name)
    return shared_corpus_files() + own


def _id(path: Path) -> str:
    for root in (SHARED_CORPUS, REPO / "corpus"):
        if path.is_relative_to(root):
            return path.relative_to(root).as_posix()
    return str(path)


def sources(paths: list[Path]) -> Iterator[tuple[Path, Source]]:
    for path in paths:
        try:
            yield path, read_rddl_source(path)
        except InputError:  # binary: no parser runs
            continue


def test_the_corpora_are_there() -> None:
    assert len(list((OWN_CORPUS / "errors").glob("*.rddl"))) >= 20
    if not shared_corpus_files():
        pytest.skip(f"the shared corpus is not at {SHARED_CORPUS}")
    assert len(shared_corpus_files()) >= 50


@pytest.mark.corpus
def test_every_file_gives_the_same_result_from_both_loops(loops: Loops) -> None:
    """The shared corpus (IPPC 2011 and 2014, RDDLSim's examples) and corpus/ (constructs, errors, ...):
    the same AST with the same spans, or the same error, compiled and in Python."""
    checked = failed = 0
    for path, source in sources(corpus_files()):
        compiled, python = loops.run(loops.compiled, source), loops.run(loops.python, source)
        assert compiled == python, f"{_id(path)}: {compiled[:3]!s:.300} / {python[:3]!s:.300}"
        checked += 1
        failed += compiled[0] != "tree"
    assert checked >= 50 and failed >= 5, (checked, failed)  # both kinds were compared


@pytest.mark.corpus
def test_public_parse_is_the_same_with_the_python_loop(loops: Loops, monkeypatch: pytest.MonkeyPatch) -> None:
    """`parse` (AST, spans, diagnostics) with the compiled loop and with the Python loop in its place."""
    paths = corpus_files()
    compiled = {path: outcome(source) for path, source in sources(paths)}
    monkeypatch.setattr(loops.parser, "driver", (loops.python, loops.errors))
    for path, source in sources(paths):
        assert outcome(source) == compiled[path], _id(path)


def outcome(source: Source) -> tuple[Any, ...]:
    try:
        tree = parse(source)
    except ParseError as exc:
        return ("error", [d.to_json() for d in exc.diagnostics])
    return ("tree", fingerprint(tree, source))


def test_nan_and_infinities_are_compared_by_fingerprint() -> None:
    """NaN is not equal to itself: the fingerprint compares floats by repr."""
    source = Source("")
    assert fingerprint((math.nan, math.inf), source) == fingerprint((float("nan"), float("inf")), source)


BAD = {
    "unexpected-token": "domain d { types { t : object; }; "
                        "pvariables { p(t) : { state-fluent, bool, default = false }; }; "
                        "cpfs { p'(?x) = p(?x) ) ; }; reward = 0; }",
    "unexpected-character": "domain d { requirements = { reward-deterministic }; ` }",
    "nul": "non-fluents n { domain = d; objects { t : {a, b}; }; non-fluents { p(a) = 1;\x00 }; }",
    "binary-garbage": "instance i { domain = d; init-state { " + random.Random(3).randbytes(3000).decode("latin-1"),
    "unclosed": "instance i { domain = d; init-state { p(a) = 1; q(b); ",
    "extra-closing": "instance i { domain = d; init-state { p(a) = 1; }; max-nondef-actions = 1; horizon = 4; } } }",
    "empty": "",
    "only-comments": "// nothing\n/* here */",
    "deep": "domain d { cpfs { p' = " + "(" * 20_000 + "1" + ")" * 20_000 + "; }; }",
    "deep-unclosed": "domain d { cpfs { p' = " + "(" * 20_000,
    "long-run": "non-fluents n { domain = d; non-fluents { "
                + " ".join(f"p(o{i}, o{i + 1}) = {i}.5;" for i in range(3000)) + " q; ~r(a); s = @e; }; }",
}


@pytest.mark.parametrize("text", list(BAD.values()), ids=list(BAD))
def test_errors_and_edge_cases_are_the_same_from_both_loops(loops: Loops, text: str,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    source = Source(text, "edge.rddl")
    assert loops.run(loops.compiled, source) == loops.run(loops.python, source)
    compiled = outcome(source)
    monkeypatch.setattr(loops.parser, "driver", (loops.python, loops.errors))
    assert outcome(source) == compiled


def test_expected_at_is_the_same_from_both_loops(loops: Loops) -> None:
    text = BAD["unexpected-token"]
    source = Source(text)
    for offset in range(0, len(text) + 1, 2):
        with loops.parser.lock:
            loops.parser.builder.source = source
            assert loops.compiled.expected_at(source, "start", offset) == loops.python.expected_at(source, "start",
                                                                                                     offset), offset
