"""The box each int- and real-valued action fluent lies in, read from the action preconditions and
state-action constraints: what a random policy draws from.

A constraint gives a bound when it is (under `forall` and `^`) a comparison of one action fluent with
an expression of non-fluents and constants: `forall_{?r : rover} [power-x(?r) <= MAX-POWER(?r)]`. The
expression is evaluated once, with the instance's non-fluents. A strict comparison moves the bound
inward by 1e-5 for reals (pyRDDLGym's tolerance) and by 1 for ints. Anything else (a sum over several
actions, a bound that reads the state) bounds nothing here; the simulator still checks it each step.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from pddltools.diagnostics import Error
from pddltools.rddl import ast
from pddltools.rddl.expressions import pvariable_uses
from pddltools.rddl_simulation.evaluate import Bindings, Compiler, Frame
from pddltools.rddl_simulation.grounding import Key, Model, Value

STRICT_TOLERANCE = 1e-5
_FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<"}

Box = tuple[float, float]


def action_bounds(model: Model, initial: Mapping[Key, Value] | None = None) -> dict[Key, Box]:
    """(low, high) for every grounded int or real action fluent; ±inf where nothing bounds it."""
    values = dict(initial if initial is not None else model.initial_values())
    boxes: dict[Key, list[float]] = {
        key: [-math.inf, math.inf] for key in model.keys(["action-fluent"])
        if model.decls[key[0]].range in ("int", "real")}
    if not boxes:
        return {}
    compiler = Compiler(model)
    frame = Frame(values, np.random.default_rng(0))
    for constraint in (*model.domain.action_preconditions, *model.domain.state_action_constraints):
        for key, op, limit in _comparisons(model, compiler, frame, constraint, {}):
            box = boxes.get(key)
            if box is None:
                continue
            integer = model.decls[key[0]].range == "int"
            step = 1.0 if integer else STRICT_TOLERANCE
            if op in ("<=", "<"):
                bound = limit - (step if op == "<" else 0.0)
                box[1] = min(box[1], math.floor(bound) if integer else bound)
            else:
                bound = limit + (step if op == ">" else 0.0)
                box[0] = max(box[0], math.ceil(bound) if integer else bound)
    return {key: (low, high) for key, (low, high) in boxes.items()}


def _comparisons(model: Model, compiler: Compiler, frame: Frame, expr: ast.Expr, bindings: Bindings
                 ) -> Iterator[tuple[Key, str, float]]:
    """(action key, operator with the action on the left, limit) for each bound `expr` states."""
    if isinstance(expr, ast.Aggregation) and expr.op == "forall":
        names = [b.variable for b in expr.bindings]
        for objects in itertools.product(*(model.of_type(b.type) for b in expr.bindings)):
            yield from _comparisons(model, compiler, frame, expr.body, {**bindings, **dict(zip(names, objects,
                                                                                               strict=True))})
        return
    if not isinstance(expr, ast.Binary):
        return
    if expr.op == "^":
        yield from _comparisons(model, compiler, frame, expr.left, bindings)
        yield from _comparisons(model, compiler, frame, expr.right, bindings)
        return
    if expr.op not in _FLIP:
        return
    for action, other, op in ((expr.left, expr.right, expr.op), (expr.right, expr.left, _FLIP[expr.op])):
        key = _action_key(model, action, bindings)
        if key is None or not _constant(model, other):
            continue
        limit = _evaluate(compiler, frame, other, bindings)
        if limit is not None:
            yield key, op, limit
        return


def _action_key(model: Model, expr: ast.Expr, bindings: Bindings) -> Key | None:
    if not isinstance(expr, ast.PVariable) or expr.primed:
        return None
    decl = model.decls.get(expr.name)
    if decl is None or decl.kind != "action-fluent":
        return None
    args = []
    for arg in expr.args:
        if isinstance(arg, ast.Variable) and arg.name in bindings:
            args.append(bindings[arg.name])
        elif isinstance(arg, ast.PVariable) and not arg.args and arg.name not in model.decls:
            args.append(arg.name)  # an object named in place
        else:
            return None
    return expr.name, tuple(args)


def _constant(model: Model, expr: ast.Expr) -> bool:
    """Whether `expr` reads only non-fluents (and objects, constants, parameters)."""
    for use in pvariable_uses(expr):
        decl = model.decls.get(use.name)
        if decl is not None and decl.kind != "non-fluent":
            return False
    return True


def _evaluate(compiler: Compiler, frame: Frame, expr: ast.Expr, bindings: Bindings) -> float | None:
    try:
        value: Any = compiler.compile(expr)(frame, bindings)
        number = float(value)
    except (Error, ValueError, TypeError, OverflowError, ZeroDivisionError, KeyError):
        return None
    return None if math.isnan(number) else number


__all__ = ["STRICT_TOLERANCE", "action_bounds"]
