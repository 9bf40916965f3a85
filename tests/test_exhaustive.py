"""PDDL's node unions are closed, and their consumers match them exhaustively: a node class added to
`Formula` (or `Effect`, `Expression`, `InitElement`) makes `mypy --strict` name every consumer that must
learn it, each at its `assert_never`. The printer's one-line forms, a table by class, are checked here at
run time instead."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args

from pddltools.pddl import ast, printer

ROOT = Path(__file__).resolve().parents[1]
AST = ROOT / "pddltools" / "pddl" / "ast.py"

#: The consumers that match `Formula` exhaustively (one `assert_never` each, or two where two functions do).
FORMULA_CONSUMERS = {
    "pddltools/compile/formulas.py": 2,  # the compiler's Rewriter, negation normal form
    "pddltools/pddl/printer.py": 1,  # how a long formula is broken into lines
    "pddltools/check/names.py": 1,  # names, arities and types in conditions
    "pddltools/check/features.py": 1,  # the requirements a condition uses
    "pddltools/analysis/grounder.py": 1,  # a condition grounded
    "pddltools/analysis/relax.py": 1,  # a condition's relaxed disjuncts
}

UNIONS = {"Formula": ast.Formula, "Effect": ast.Effect, "Expression": ast.Expression, "Term": ast.Term,
          "InitElement": ast.InitElement, "Structure": ast.Structure, "TypeRef": ast.TypeRef}


def test_the_unions_are_closed_sets_of_node_classes() -> None:
    for name, union in UNIONS.items():
        members = get_args(union)
        assert members and all(isinstance(m, type) and issubclass(m, ast.Node) for m in members), name
    assert set(get_args(ast.Term)) <= set(get_args(ast.Expression))


def test_every_formula_effect_and_expression_prints_on_one_line() -> None:
    for union in (ast.Formula, ast.Effect, ast.Expression, ast.InitElement):
        missing = [m.__name__ for m in get_args(union) if m not in printer._FLAT]
        assert missing == []


def test_mypy_names_each_consumer_of_a_formula_node_it_does_not_handle(tmp_path: Path) -> None:
    # ast.py with one more formula, `(until a b)`, in the union: checked in its place (--shadow-file)
    text = AST.read_text(encoding="utf-8")
    union = "Formula: TypeAlias = (\n    Atom\n"
    assert union in text
    shadow = tmp_path / "ast.py"
    shadow.write_text(text.replace(union, "@dataclass(frozen=True, slots=True)\nclass Until(Node):\n"
                                          "    left: Formula\n    right: Formula\n\n\n"
                                          "Formula: TypeAlias = (\n    Until\n    | Atom\n"), encoding="utf-8")
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():  # a copy: the shadowed ast.py must not enter the repository's cache
        shutil.copytree(ROOT / ".mypy_cache", cache)
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(cache),
                           "--shadow-file", str(AST), str(shadow), *FORMULA_CONSUMERS],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    unhandled = [line for line in done.stdout.splitlines() if '"assert_never" has incompatible type "Until"' in line]
    found = {path: sum(line.startswith(path + ":") for line in unhandled) for path in FORMULA_CONSUMERS}
    assert found == FORMULA_CONSUMERS, done.stdout
    assert done.returncode == 1
