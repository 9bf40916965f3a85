"""The numeric fragment of a task, as the IPC-2023 numeric track defines its two: simple numeric planning
(SNP) and linear numeric planning (LNP).

- simple: numeric fluents are only increased or decreased by constants, and every numeric condition is
  linear;
- linear: also `assign` (and `scale-up`/`scale-down` by constants), right-hand sides that are linear in the
  fluents, and linear conditions;
- nonlinear: anything else (a product of two fluents, a division by one);
- None: the task has no numeric fluents.

A numeric fluent is a numeric function some effect changes; a function no effect changes (a static one)
is a constant here, as the organisers count it. `total-cost` is the metric's accumulator, read by no
condition, so its increases do not make a task numeric. In a continuous effect `(* #t rate)`, `#t`
counts as a constant: the rate decides. The metric does not count (the track's metrics are linear).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum, StrEnum

from pddltools.check.features import DURATION, TOTAL_COST, object_functions
from pddltools.pddl import ast
from pddltools.static_typing import assert_never


class Fragment(StrEnum):
    SIMPLE = "simple"
    LINEAR = "linear"
    NONLINEAR = "nonlinear"


class _Degree(IntEnum):
    """How an expression depends on the fluents, in increasing order."""

    CONSTANT = 0
    LINEAR = 1
    NONLINEAR = 2


def numeric_fragment(domain: ast.Domain, problems: Iterable[ast.Problem], changed: Iterable[str]) -> Fragment | None:
    """The fragment of `domain` with `problems` (their goals); `changed`: the functions some effect updates."""
    objects = object_functions(domain)
    fluents = frozenset(changed) - objects - {TOTAL_COST}
    if not fluents:
        return None
    fragment = Fragment.SIMPLE
    for comparison in _comparisons(domain, problems):
        if _is_object_side(comparison.left, objects) or _is_object_side(comparison.right, objects):
            continue  # (= ?x ?y): equality of objects
        if max(_degree(comparison.left, fluents), _degree(comparison.right, fluents)) is _Degree.NONLINEAR:
            return Fragment.NONLINEAR
    for assign in _assignments(domain):
        function = assign.fluent.function
        if function in objects or function == TOTAL_COST:
            continue
        degree = _degree(assign.value, fluents)
        if degree is _Degree.NONLINEAR:
            return Fragment.NONLINEAR
        if assign.op.startswith("scale") and degree is not _Degree.CONSTANT:
            return Fragment.NONLINEAR  # f := f * e, a product of fluents
        if assign.op not in ("increase", "decrease") or degree is _Degree.LINEAR:
            fragment = Fragment.LINEAR
    return fragment


def _degree(expression: ast.Expression, fluents: frozenset[str]) -> _Degree:
    match expression:
        case ast.FunctionTerm():
            return _Degree.LINEAR if expression.function in fluents else _Degree.CONSTANT
        case ast.Number() | ast.ContinuousTime() | ast.Variable() | ast.Constant() | ast.IsViolated():
            return _Degree.CONSTANT  # numbers, #t, ?duration
        case ast.Arithmetic():
            pass
        case _:
            assert_never(expression)
    degrees = [_degree(arg, fluents) for arg in expression.args]
    if expression.op in ("+", "-"):
        return max(degrees)
    if expression.op == "/":
        return max(degrees[0], _Degree.CONSTANT if degrees[1] is _Degree.CONSTANT else _Degree.NONLINEAR)
    varying = [d for d in degrees if d is not _Degree.CONSTANT]
    if not varying:
        return _Degree.CONSTANT
    return _Degree.LINEAR if varying == [_Degree.LINEAR] else _Degree.NONLINEAR


def _is_object_side(side: ast.Expression, objects: frozenset[str]) -> bool:
    if isinstance(side, ast.Variable):
        return side.name != DURATION
    return isinstance(side, ast.Constant) or (isinstance(side, ast.FunctionTerm) and side.function in objects)


def _comparisons(domain: ast.Domain, problems: Iterable[ast.Problem]) -> Iterator[ast.Comparison]:
    """Every comparison in a condition: preconditions, conditions of conditional effects, derived
    predicates, durative-action conditions (not durations), goals."""
    roots: list[ast.Node | None] = []
    for structure in (*domain.structures, *domain.processes_and_events):
        if isinstance(structure, ast.DerivedPredicate):
            roots.append(structure.body)
        elif isinstance(structure, ast.DurativeAction):
            roots += [structure.condition, structure.effect]
        else:
            roots += [structure.precondition, structure.effect]
    roots += [problem.goal for problem in problems]
    for root in roots:
        if root is not None:
            yield from (node for node in root.walk() if isinstance(node, ast.Comparison))


def _assignments(domain: ast.Domain) -> Iterator[ast.Assign]:
    for structure in (*domain.structures, *domain.processes_and_events):
        effect = None if isinstance(structure, ast.DerivedPredicate) else structure.effect
        if effect is not None:
            yield from (node for node in ast.effect_parts(effect) if isinstance(node, ast.Assign))
