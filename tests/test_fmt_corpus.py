"""fmt keeps every comment of the shared corpus: over a sample of its PDDL, HDDL and RDDL files (every
file was walked by hand; the CHANGELOG gives the numbers), the comment tokens the parser's lexer finds
are as many after formatting as before, the output parses to an equal tree, and formatting it again
changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.diagnostics import Diagnostic, Source
from pddltools.dialects import parse as parse_either
from pddltools.formatting import format_pddl, format_rddl_source
from pddltools.hddl.language import LANGUAGE as HDDL
from pddltools.pddl.language import LANGUAGE as PDDL
from pddltools.rddl.language import LANGUAGE as RDDL
from pddltools.rddl.parser import parse as parse_rddl
from pddltools.syntax.errors import ParseError

from .conftest import SHARED_PDDL

SHARED = SHARED_PDDL.parent
SAMPLE = 12  # files per language: a stride through the sorted list, so every folder is visited over time
LARGEST = 150_000  # characters; the large generated problems have no comments worth the time

pytestmark = pytest.mark.corpus


def _sample(suffix: str) -> list[Path]:
    files = sorted(p for p in SHARED.rglob(f"*.{suffix}") if p.stat().st_size <= LARGEST)
    step = max(1, len(files) // SAMPLE)
    return files[::step][:SAMPLE]


def _formatted(source: Source) -> tuple[object, str, list[Diagnostic]]:
    warnings: list[Diagnostic] = []
    if source.name.endswith(".rddl"):
        node: object = parse_rddl(source)
        return node, format_rddl_source(source, node, warnings), warnings
    return parse_either(source), format_pddl(source, warnings), warnings


def _comments(source: Source) -> int:
    language = RDDL if source.name.endswith(".rddl") else HDDL if source.name.endswith(".hddl") else PDDL
    return len(language.trivia(source).comments)


@pytest.mark.parametrize("suffix", ["pddl", "hddl", "rddl"])
def test_fmt_keeps_every_comment_and_the_tree(suffix: str) -> None:
    if not SHARED.is_dir():
        pytest.skip(f"the shared corpus is not at {SHARED}")
    files = _sample(suffix)
    assert files
    kept = 0
    for path in files:
        source = Source(path.read_text(encoding="utf-8", errors="replace"), str(path))
        try:
            tree, text, _ = _formatted(source)
        except ParseError:
            continue  # the corpus's deliberately broken files
        printed = Source(text, str(path))
        before = _comments(source)
        assert _comments(printed) == before, path
        again_tree, again, _ = _formatted(printed)
        assert again_tree == tree, path
        assert again == text, path
        kept += before
    assert kept > 0
