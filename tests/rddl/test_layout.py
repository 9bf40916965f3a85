"""RDDL's syntax and its simulation are separate packages, and imports run one way: the RDDLSim protocol
(`rddlsim`) uses the simulation (`rddl_simulation`), which uses the syntax (`rddl`), never back."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pddltools"


def _imports(package: str) -> set[str]:
    found: set[str] = set()
    for path in (PACKAGE / package).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
    return found


def _reaches(package: str, other: str) -> list[str]:
    return sorted(m for m in _imports(package) if m == f"pddltools.{other}" or m.startswith(f"pddltools.{other}."))


def test_the_syntax_imports_neither_the_simulation_nor_the_protocol() -> None:
    assert _reaches("rddl", "rddl_simulation") == [] and _reaches("rddl", "rddlsim") == []


def test_the_simulation_does_not_import_the_protocol() -> None:
    assert _reaches("rddl_simulation", "rddlsim") == []
    assert _reaches("rddl_simulation", "rddl")  # it reads the syntax package's AST
