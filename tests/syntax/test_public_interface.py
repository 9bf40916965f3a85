"""The language server uses the parsers only through their public interface (`pddltools.syntax.Language`
and the public names of the language packages): no `_private` name of a parser module, no parser
internals of `pddltools.syntax` (the driver, the lexer), walked in the source with `ast`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PARSER_PACKAGES = ("pddltools.pddl", "pddltools.rddl", "pddltools.syntax")
#: what of `pddltools.syntax` a tool may import: the interface, not the machinery behind it
PUBLIC_SYNTAX = {"pddltools.syntax", "pddltools.syntax.language"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _of_parser(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PARSER_PACKAGES)


def violations(code: str, where: str) -> list[str]:
    """Each use of a parser's private name in `code`: imports, and attributes of what was imported."""
    tree = ast.parse(code)
    found: list[str] = []
    imported: set[str] = set()  # local names bound to parser modules or objects
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and _of_parser(node.module):
            if any(_private(part) for part in node.module.split(".")):
                found.append(f"{where}:{node.lineno}: imports the private module {node.module}")
            if node.module.startswith("pddltools.syntax") and node.module not in PUBLIC_SYNTAX:
                found.append(f"{where}:{node.lineno}: imports parser machinery {node.module}")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{where}:{node.lineno}: imports {node.module}.{alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _of_parser(alias.name):
                    if any(_private(part) for part in alias.name.split(".")):
                        found.append(f"{where}:{node.lineno}: imports the private module {alias.name}")
                    imported.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in imported:
                found.append(f"{where}:{node.lineno}: reads {base.id}...{node.attr}")
    return found


def test_the_walk_finds_private_names() -> None:
    code = ("from pddltools.pddl.parser import _parser, parse\n"
            "from pddltools.syntax.lalr import FastParser\n"
            "from pddltools.rddl import parser as rddl_parser\n"
            "x = rddl_parser._parser('fast')\n"
            "import pddltools.syntax._speedups\n")
    found = violations(code, "example.py")
    assert len(found) == 4, found
    assert violations("from pddltools.pddl.language import LANGUAGE\nLANGUAGE.parse\n", "ok.py") == []


def test_the_language_server_uses_only_public_parser_names() -> None:
    found = [v for path in sorted((ROOT / "pddltools" / "lsp").rglob("*.py"))
             for v in violations(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert found == []
