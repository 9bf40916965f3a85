"""Ground compilation: one closure per grounding of a CPF, with the non-fluents folded in.

The lifted closures of `evaluate` look every parameter up in a bindings dict and every non-fluent up
in the state, on every step. IPPC domains filter their aggregations by non-fluents (`sum_{?c2}
[CONNECTED(?c, ?c2) ^ running(?c2)]`), so once the parameters are known most of an aggregation is a
constant: this module substitutes them, folds what is constant and keeps only what a step must
compute. A grounding whose unrolling would exceed `budget` body instances keeps the lifted closure,
so an instance with huge aggregations still compiles in bounded time. Nodes it has no rule for are
evaluated by the lifted closure with the bindings captured: the two compilers agree by construction.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from pddltools.rddl import ast
from pddltools.rddl_simulation.evaluate import _FUNCTIONS, Bindings, Compiler, Frame, numeric_operator
from pddltools.rddl_simulation.grounding import Key, Model, Value
from pddltools.rddl_simulation.sampling import DISTRIBUTIONS

Ground = Callable[[Frame], Any]
#: (True, value) for a constant, (False, closure) otherwise
Folded = tuple[bool, Any]


class TooBig(Exception):
    """Unrolling this expression would take more than the budget allows."""


def _as_fn(folded: Folded) -> Ground:
    constant, value = folded
    if constant:
        return lambda frame: value
    fn: Ground = value
    return fn


class Specialiser:
    def __init__(self, model: Model, lifted: Compiler, non_fluents: dict[Key, Value], budget: int = 200_000) -> None:
        self.model = model
        self.lifted = lifted
        self.non_fluents = non_fluents
        self.budget = budget
        self.spent = 0

    def ground(self, expr: ast.Expr, bindings: Bindings) -> Ground:
        """A closure of the frame alone for `expr` under `bindings`; lifted when unrolling costs too much."""
        self.spent = 0
        try:
            return _as_fn(self.fold(expr, bindings))
        except TooBig:
            lifted = self.lifted.compile(expr)
            captured = dict(bindings)
            return lambda frame: lifted(frame, captured)

    def fold(self, expr: ast.Expr, b: Bindings) -> Folded:
        self.spent += 1
        if self.spent > self.budget:
            raise TooBig
        if isinstance(expr, (ast.Boolean, ast.Integer, ast.Real)):
            return True, expr.value
        if isinstance(expr, (ast.EnumValue, ast.ObjectValue)):
            return True, expr.name
        if isinstance(expr, ast.Variable) and expr.name in b:
            return True, b[expr.name]
        if isinstance(expr, ast.PVariable):
            return self._pvariable(expr, b)
        if isinstance(expr, ast.Unary):
            return self._unary(expr, b)
        if isinstance(expr, ast.Binary):
            return self._binary(expr, b)
        if isinstance(expr, ast.IfThenElse):
            constant, condition = self.fold(expr.condition, b)
            if constant:
                return self.fold(expr.then if condition else expr.otherwise, b)
            then, otherwise = _as_fn(self.fold(expr.then, b)), _as_fn(self.fold(expr.otherwise, b))
            return False, lambda f: then(f) if condition(f) else otherwise(f)
        if isinstance(expr, ast.Aggregation):
            return self._aggregation(expr, b)
        if isinstance(expr, ast.Function):
            return self._function(expr, b)
        if isinstance(expr, ast.Distribution):
            return self._distribution(expr, b)
        return self._lifted(expr, b)

    def _distribution(self, expr: ast.Distribution, b: Bindings) -> Folded:
        if expr.name in ("KronDelta", "DiracDelta") and len(expr.args) == 1:
            return self.fold(expr.args[0], b)
        entry = DISTRIBUTIONS.get(expr.name)
        if entry is None or len(expr.args) != entry[0]:
            return self._lifted(expr, b)  # the lifted compiler reports the problem
        sampler = entry[1]
        args = [_as_fn(self.fold(a, b)) for a in expr.args]
        if len(args) == 1:
            (only,) = args
            return False, lambda f: sampler(f.rng, only(f))
        first, second = args
        return False, lambda f: sampler(f.rng, first(f), second(f))

    def _lifted(self, expr: ast.Expr, b: Bindings) -> Folded:
        lifted = self.lifted.compile(expr)
        captured = dict(b)
        return False, lambda frame: lifted(frame, captured)

    def _pvariable(self, expr: ast.PVariable, b: Bindings) -> Folded:
        decl = self.model.decls.get(expr.name)
        if decl is None:
            return self._lifted(expr, b)  # an object named bare, or an error the lifted compiler reports
        args = []
        for arg in expr.args:
            if isinstance(arg, ast.PVariable) and not arg.args and arg.name not in self.model.decls:
                args.append(arg.name)
                continue
            constant, value = self.fold(arg, b)
            if not constant:
                return self._lifted(expr, b)
            args.append(value)
        key: Key = (expr.name, tuple(args))
        if decl.kind == "non-fluent":
            if key not in self.non_fluents:
                return self._lifted(expr, b)  # an argument outside its type: let the lookup fail as it would
            return True, self.non_fluents[key]
        if expr.primed:
            return False, lambda f: f.next[key]
        return False, lambda f: f.current[key]

    def _unary(self, expr: ast.Unary, b: Bindings) -> Folded:
        constant, operand = self.fold(expr.operand, b)
        if expr.op == "~":
            return (True, not operand) if constant else (False, lambda f: not operand(f))
        if expr.op == "-":
            return (True, -operand) if constant else (False, lambda f: -operand(f))
        return constant, operand

    def _binary(self, expr: ast.Binary, b: Bindings) -> Folded:
        op = expr.op
        left_constant, left = self.fold(expr.left, b)
        if op in ("^", "|", "=>"):
            # a constant left side decides or disappears; so may a constant right side
            if left_constant:
                truth = bool(left) if op != "=>" else not left
                if (op == "^" and not truth) or (op != "^" and truth):
                    return True, op != "^"
                constant, right = self.fold(expr.right, b)
                return (True, bool(right)) if constant else (False, lambda f: bool(right(f)))
            right_constant, right = self.fold(expr.right, b)
            if right_constant:
                if op == "^":
                    return (False, lambda f: bool(left(f))) if right else (True, False)
                if right:
                    return True, True
                return (False, lambda f: bool(left(f))) if op == "|" else (False, lambda f: not left(f))
            if op == "^":
                return False, lambda f: bool(left(f)) and bool(right(f))
            if op == "|":
                return False, lambda f: bool(left(f)) or bool(right(f))
            return False, lambda f: not left(f) or bool(right(f))
        right_constant, right = self.fold(expr.right, b)
        if op == "<=>":
            if left_constant and right_constant:
                return True, bool(left) == bool(right)
            lf, rf = _as_fn((left_constant, left)), _as_fn((right_constant, right))
            return False, lambda f: bool(lf(f)) == bool(rf(f))
        function = numeric_operator(self.model, op)
        if function is None:
            return self._lifted(expr, b)
        if left_constant and right_constant:
            return True, function(left, right)
        if right_constant:
            return False, lambda f: function(left(f), right)
        if left_constant:
            return False, lambda f: function(left, right(f))
        return False, lambda f: function(left(f), right(f))

    def _aggregation(self, expr: ast.Aggregation, b: Bindings) -> Folded:
        op = expr.op
        if op not in ("sum", "prod", "avg", "exists", "forall", "minimum", "min", "maximum", "max"):
            return self._lifted(expr, b)
        variables = [binding.variable for binding in expr.bindings]
        domains = [self.model.of_type(binding.type, binding) for binding in expr.bindings]
        constants: list[Any] = []
        parts: list[Ground] = []
        inner = dict(b)
        count = 0
        for combo in itertools.product(*domains):
            inner.update(zip(variables, combo, strict=True))
            constant, value = self.fold(expr.body, inner)
            count += 1
            if not constant:
                parts.append(value)
            elif op == "exists" and value:
                return True, True
            elif op == "forall" and not value:
                return True, False
            else:
                constants.append(value)
        if op == "exists":
            return (True, False) if not parts else (False, lambda f: any(p(f) for p in parts))
        if op == "forall":
            return (True, True) if not parts else (False, lambda f: all(p(f) for p in parts))
        if op in ("sum", "avg"):
            offset = sum(constants)
            scale = 1.0 / count if op == "avg" and count else 1.0
            if op == "avg" and not count:
                return True, math.nan
            if not parts:
                return True, offset * scale if op == "avg" else offset
            if op == "avg":
                return False, lambda f: (offset + sum(p(f) for p in parts)) * scale
            if offset == 0:
                return False, lambda f: sum(p(f) for p in parts)
            return False, lambda f: offset + sum(p(f) for p in parts)
        if op == "prod":
            factor = math.prod(constants)
            if not parts:
                return True, factor
            return False, lambda f: factor * math.prod(p(f) for p in parts)
        pick = min if op in ("minimum", "min") else max
        empty = math.inf if pick is min else -math.inf
        if not parts:
            return True, pick(constants, default=empty)
        known = [pick(constants)] if constants else []
        return False, lambda f: pick(itertools.chain(known, (p(f) for p in parts)))

    def _function(self, expr: ast.Function, b: Bindings) -> Folded:
        entry = _FUNCTIONS.get(expr.name)
        if entry is None or len(expr.args) not in entry[0]:
            return self._lifted(expr, b)
        function = entry[1]
        folded = [self.fold(a, b) for a in expr.args]
        if all(constant for constant, _ in folded):
            try:
                return True, function(*(value for _, value in folded))
            except (ValueError, OverflowError, ZeroDivisionError):
                pass  # leave the error to the step that reaches it, as the lifted closure would
        fns = [_as_fn(f) for f in folded]
        if len(fns) == 1:
            (only,) = fns
            return False, lambda f: function(only(f))
        return False, lambda f: function(*(fn(f) for fn in fns))
