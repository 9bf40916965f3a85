"""The real corpora: ../shared/corpus/rddl (IPPC 2011, 2014, RDDLSim's examples) and every file of
the rddlrepository package. Each parses, prints back to the same AST, gives the same AST on the
fast path as on the grammar path, and type-checks clean, except the files with genuine errors
listed here with their diagnostics."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest

from pddltools.rddl import ast
from pddltools.rddl.loading import check_paths
from pddltools.rddl.parser import parse, parse_text, read_rddl_source
from pddltools.rddl.printer import format_file
from pddltools.syntax.testing import parser_variant

from .conftest import SHARED_CORPUS, repository_root

pytestmark = pytest.mark.corpus

#: Genuine errors, by path below the corpus root: (code, line, column) of each error diagnostic.
SHARED_GENUINE_ERRORS = {
    # EXCHANGER and DISRUPTOR are declared int (default false) but used as conditions; ?a is used
    # outside the exists_{?a : person} that binds it; SLIP-PROB(person) is given without its argument.
    "examples/package.rddl": [
        ("R206", 103, 23), ("R212", 152, 108), ("R212", 154, 107), ("R206", 157, 29), ("R206", 171, 49),
        ("R206", 171, 77), ("R206", 172, 13), ("R206", 187, 25), ("R206", 189, 25), ("R203", 232, 3),
    ],
}
REPOSITORY_GENUINE_ERRORS = {
    # `domain Bicycle` but the instance says `domain = bicycle`: RDDL names are case sensitive
    "archive/physics/Bicycle/instance0.rddl": [("R210", 1, 1), ("R210", 6, 1)],
    # the instance names reservoir_control_dis, the domain beside it is reservoir_control_cont
    "archive/standalone/Reservoir/Continuous/instance0.rddl": [("R210", 1, 1), ("R210", 15, 1)],
    "archive/standalone/Reservoir/Continuous/instance1.rddl": [("R210", 1, 1), ("R210", 25, 1)],
}
#: Older IPPC files with Latin-1 accents in comments: read, with a warning.
NOT_UTF8 = {"Tamarisk/MDP", "Tamarisk/POMDP", "TriangleTireworld/MDP", "TriangleTireworld/POMDP"}


def _round_trip(paths: list[Path]) -> None:
    failures = []
    for path in paths:
        source = read_rddl_source(path)
        fast = parse(source)
        with parser_variant(fast=False):
            alone = parse(source)
        if alone != fast:
            failures.append(f"{path}: the fast path and the grammar path disagree")
        if parse_text(format_file(fast), f"{path} (printed)") != fast:
            failures.append(f"{path}: printing and parsing again changes the AST")
    assert failures == []


def _errors_by_folder(root: Path, paths: list[Path]) -> dict[str, list[tuple[str, int, int]]]:
    """Check each folder on its own, as its files belong together, and collect the errors."""
    folders: dict[Path, list[Path]] = defaultdict(list)
    for path in paths:
        folders[path.parent].append(path)
    found: dict[str, list[tuple[str, int, int]]] = {}
    for folder_paths in folders.values():
        for result in check_paths(folder_paths):
            errors = [(d.code, d.span.line if d.span else 0, d.span.column if d.span else 0)
                      for d in result.diagnostics if d.is_error]
            assert result.rddl is not None, f"{result.path} does not parse: {result.diagnostics}"
            if errors:
                found[os.path.relpath(result.path, root)] = errors
    return found


@pytest.fixture(scope="module")
def repository(repo_files: list[Path]) -> tuple[Path, list[Path]]:
    root = repository_root()
    assert root is not None
    return root, repo_files


def test_the_shared_corpus_parses_and_round_trips(shared_files: list[Path]) -> None:
    assert len(shared_files) >= 70
    _round_trip(shared_files)


def test_the_shared_corpus_checks_except_genuine_errors(shared_files: list[Path]) -> None:
    assert _errors_by_folder(SHARED_CORPUS, shared_files) == SHARED_GENUINE_ERRORS


def test_every_rddlrepository_file_parses_and_round_trips(repository: tuple[Path, list[Path]]) -> None:
    _, files = repository
    assert len(files) >= 600
    _round_trip(files)


def test_rddlrepository_checks_except_genuine_errors(repository: tuple[Path, list[Path]]) -> None:
    root, files = repository
    assert _errors_by_folder(root, files) == REPOSITORY_GENUINE_ERRORS


def test_files_that_are_not_utf8_are_read_with_a_warning(repository: tuple[Path, list[Path]]) -> None:
    root, files = repository
    warned = set()
    for path in files:
        warnings: list = []  # type: ignore[type-arg]
        read_rddl_source(path, warnings)
        if warnings:
            assert [w.code for w in warnings] == ["R001"]
            warned.add(os.path.relpath(path.parent, root / "archive" / "competitions" / "IPPC2014"))
    assert warned == NOT_UTF8


def test_the_corpus_uses_every_kind_of_block(shared_files: list[Path]) -> None:
    kinds = {type(b) for path in shared_files for b in parse(read_rddl_source(path)).blocks}
    assert kinds == {ast.Domain, ast.NonFluents, ast.Instance}
