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

import pytest

from pddltools.pddl import ast, printer

ROOT = Path(__file__).resolve().parents[1]
AST = ROOT / "pddltools" / "pddl" / "ast.py"

#: The consumers that match `Formula`, `Effect` or `Expression` exhaustively: how many `assert_never`s each has.
CONSUMERS = {
    "pddltools/compile/formulas.py": 5,  # the Rewriter (formulas, effects), nnf, flattening effects twice
    "pddltools/compile/disjunction.py": 1,  # conditional effects split by the disjuncts of their condition
    "pddltools/compile/type_predicates.py": 1,  # typed quantifiers guarded by type predicates
    "pddltools/compile/costs.py": 1,  # action costs taken out of effects
    "pddltools/pddl/printer.py": 1,  # how a long formula, effect or expression is broken into lines
    "pddltools/check/names.py": 3,  # names, arities and types in conditions, effects and numbers
    "pddltools/check/numeric.py": 1,  # the degree of an expression (the numeric track's fragment)
    "pddltools/check/features.py": 2,  # the requirements conditions and effects use
    "pddltools/check/facts.py": 1,  # what effects read
    "pddltools/check/durative.py": 1,  # a durative action's effects say when they happen
    "pddltools/check/pddlplus.py": 1,  # what a precondition tests
    "pddltools/analysis/grounder.py": 1,  # a condition grounded
    "pddltools/analysis/relax.py": 1,  # a condition's relaxed disjuncts
    "pddltools/analysis/program.py": 1,  # the literals an action's effects add and delete
    "pddltools/analysis/intervals.py": 1,  # the range of a numeric expression
    # these two with `pddltools.static_typing.assert_never` (start-up: no typing imported), which mypy
    # reads as typing's
    "pddltools/semantics/compiled.py": 3,  # what a formula, an expression and an effect mean
    "pddltools/semantics/evaluate.py": 1,  # why a formula is false
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


def test_mypy_names_each_consumer_of_a_node_it_does_not_handle(tmp_path: Path) -> None:
    # ast.py with a formula `(until a b)`, an effect `(cease e)` and an expression `(sqrt e)` more in their
    # unions, checked in its place (--shadow-file)
    text = AST.read_text(encoding="utf-8")
    formula, effect = "Formula: TypeAlias = (\n    Atom\n", "Effect: TypeAlias = Atom | "
    expression = "Expression: TypeAlias = Variable | "
    assert formula in text and effect in text and expression in text
    added = ("@dataclass(frozen=True, slots=True)\nclass Until(Node):\n    left: Formula\n    right: Formula\n\n\n"
             "@dataclass(frozen=True, slots=True)\nclass Cease(Node):\n    body: Effect\n\n\n"
             "@dataclass(frozen=True, slots=True)\nclass Sqrt(Node):\n    arg: Expression\n\n\n")
    shadow = tmp_path / "ast.py"
    shadow.write_text(text.replace(formula, added + "Formula: TypeAlias = (\n    Until\n    | Atom\n")
                      .replace(effect, "Effect: TypeAlias = Cease | Atom | ")
                      .replace(expression, "Expression: TypeAlias = Sqrt | Variable | "), encoding="utf-8")
    cache = tmp_path / "cache"
    if (ROOT / ".mypy_cache").is_dir():  # a copy: the shadowed ast.py must not enter the repository's cache
        shutil.copytree(ROOT / ".mypy_cache", cache)
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(cache),
                           "--shadow-file", str(AST), str(shadow), *CONSUMERS],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    unhandled = [line for line in done.stdout.splitlines() if '"assert_never" has incompatible type' in line
                 and any(added in line for added in ("Until", "Cease", "Sqrt"))]
    found = {path: sum(line.startswith(path + ":") for line in unhandled) for path in CONSUMERS}
    assert found == CONSUMERS, done.stdout


def test_our_assert_never_fails_at_run_time_as_typings_does() -> None:
    """`pddltools.static_typing.assert_never` raises what `typing.assert_never` raises, long values cut
    the same way."""
    import typing

    from pddltools.static_typing import assert_never

    for value in ("cease", "x" * 300, ast.Variable("?x")):
        with pytest.raises(AssertionError) as ours:
            assert_never(value)  # type: ignore[arg-type]
        with pytest.raises(AssertionError) as typings:
            typing.assert_never(value)  # type: ignore[arg-type]
        assert str(ours.value) == str(typings.value)
