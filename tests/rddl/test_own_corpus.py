"""corpus/rddl: one file per construct (valid, round trip) and one per error (its exact diagnostics)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.diagnostics import Diagnostic, Error
from pddltools.rddl import ast
from pddltools.rddl.parser import parse_file, parse_text
from pddltools.rddl.printer import format_file
from pddltools.rddl.typecheck import check

from .conftest import OWN_CORPUS

CONSTRUCTS = [*sorted((OWN_CORPUS / "constructs").glob("*.rddl")),
              *sorted((OWN_CORPUS / "split").glob("*.rddl"))]
ERRORS = OWN_CORPUS / "errors"


def _expected() -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for line in (ERRORS / "expected.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, rest = line.split(" ", 1)
            table.setdefault(name, []).append(rest)
    return table


EXPECTED = _expected()


def _diagnostics(path: Path) -> list[Diagnostic]:
    warnings: list[Diagnostic] = []
    try:
        rddl = parse_file(path, warnings=warnings)
    except Error as exc:
        return [*warnings, *exc.diagnostics]
    return [*warnings, *check([rddl])]


@pytest.mark.parametrize("path", CONSTRUCTS, ids=lambda p: p.name)
def test_each_construct_parses_checks_and_prints_back(path: Path) -> None:
    rddl = parse_file(path)
    assert rddl.blocks
    assert parse_text(format_file(rddl)) == rddl


def test_the_construct_files_check_clean_together() -> None:
    assert [str(d) for d in check([parse_file(p) for p in CONSTRUCTS])] == []


def test_every_error_file_has_its_expectation() -> None:
    assert sorted(EXPECTED) == sorted(p.name for p in ERRORS.glob("*.rddl"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_error_file_gives_exactly_its_diagnostics(name: str) -> None:
    found = [f"{d.code} {d.span.line}:{d.span.column} {d.message}" if d.span else f"{d.code} {d.message}"
             for d in _diagnostics(ERRORS / name)]
    assert found == EXPECTED[name]


def test_split_files_check_together() -> None:
    domain, instance = (parse_file(OWN_CORPUS / "split" / n) for n in ("domain.rddl", "instance.rddl"))
    assert check([domain, instance]) == []
    # alone, neither the non-fluents block nor the instance finds its domain
    assert [(d.code, d.span.line if d.span else 0) for d in check([instance])] == [("R210", 2), ("R210", 11)]
    assert isinstance(instance.blocks[1], ast.Instance)
