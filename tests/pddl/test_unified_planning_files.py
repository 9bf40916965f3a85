"""Unified Planning's own numeric and PDDL+ test files parse, and print back to equal trees (issue 18:
`car_nl` has processes and events, `sailing` negative literals). Skipped where UP is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.pddl import ast
from pddltools.pddl.parser import parse_file, parse_text

up = pytest.importorskip("unified_planning")
FOLDER = Path(up.__file__).parent / "test" / "pddl"


def _numeric_files() -> list[Path]:
    """The files of UP's PDDL tests that declare or set numeric functions, or have processes or events."""
    if not FOLDER.is_dir():
        return []
    return [p for p in sorted(FOLDER.rglob("*.pddl"))
            if any(word in p.read_text(encoding="utf-8").lower() for word in (":functions", "(= (", ":process"))]


@pytest.mark.parametrize("path", _numeric_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_parses_and_round_trips(path: Path) -> None:
    tree = parse_file(path)
    assert parse_text(str(tree), kind="domain" if isinstance(tree, ast.Domain) else "problem") == tree


def test_the_files_issue_18_names_are_among_them() -> None:
    names = {p.parent.name for p in _numeric_files()}
    assert {"car_nl", "sailing", "counters"} <= names
    car = parse_file(FOLDER / "car_nl" / "d.pddl", "domain")
    assert [p.name for p in car.processes] == ["displacement", "moving_acceleration", "drag_ahead"]
    assert [e.name for e in car.events] == ["velocity_check"]
    sailing = parse_file(FOLDER / "sailing" / "problem.pddl", "problem")
    assert any(isinstance(n, ast.Number) and n.value < 0 for n in sailing.walk())
