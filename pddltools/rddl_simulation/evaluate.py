"""Compile RDDL expressions once into Python closures, then evaluate them in a `Frame`.

A compiled expression is `fn(frame, bindings)`: `frame.current` holds every non-fluent, state,
action, interm and observ value of this step by `Key`, `frame.next` the primed values computed so
far, `frame.rng` the generator every draw uses; `bindings` maps `?x` to an object name. Compiling
once per domain (not walking the AST each step) is what makes stepping fast enough for a server.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from pddltools.rddl import ast
from pddltools.rddl_simulation.grounding import Key, Model, Value, fail
from pddltools.rddl_simulation.sampling import DISTRIBUTIONS, bad, categorical, dirichlet, multinomial
from pddltools.rddl_simulation.tuples import Vector

Bindings = dict[str, str]


class Frame:
    """The values one step reads and writes."""

    __slots__ = ("current", "next", "rng")

    def __init__(self, current: dict[Key, Value], rng: np.random.Generator) -> None:
        self.current = current
        self.next: dict[Key, Value] = {}
        self.rng = rng


Fn = Callable[[Frame, Bindings], Any]


def _divide(a: Any, b: Any) -> float:
    if b == 0:
        # pyRDDLGym (numpy) gives inf or nan here rather than stopping the run
        return math.nan if a == 0 else math.copysign(math.inf, a)
    return float(a) / float(b)


_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": _divide,
    "==": operator.eq, "~=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge,
}


def as_number(x: Any) -> Any:
    """An RDDL2 integer enum value (`@3`, of `{@1..@4}`) as the int it stands for; anything else as is."""
    if isinstance(x, str) and x[:1] == "@" and x[1:].isdigit():
        return int(x[1:])
    return x


def numeric_operator(model: Model, op: str) -> Callable[[Any, Any], Any] | None:
    """The function of a binary operator; where the model has integer enums, arithmetic and ordering
    read their values as numbers (`0.02 * ?i` with `?i : int-1-4`)."""
    function = _ARITHMETIC.get(op)
    if function is None or op in ("==", "~=") or not model.int_enums:
        return function
    inner = function
    return lambda a, b: inner(as_number(a), as_number(b))


def _round(x: float) -> int:
    # Java's Math.round: half up, not Python's half to even
    return math.floor(x + 0.5)


def _log(x: float, base: float | None = None) -> float:
    if x <= 0:
        return -math.inf if x == 0 else math.nan
    return math.log(x) if base is None else math.log(x, base)


_FUNCTIONS: dict[str, tuple[tuple[int, ...], Callable[..., Any]]] = {
    "exp": ((1,), lambda x: math.exp(x) if x < 709 else math.inf),
    "ln": ((1,), _log), "log": ((1, 2), _log), "sqrt": ((1,), lambda x: math.sqrt(x) if x >= 0 else math.nan),
    "pow": ((2,), lambda x, y: float(x) ** y), "abs": ((1,), abs),
    "sgn": ((1,), lambda x: (x > 0) - (x < 0)), "floor": ((1,), math.floor), "ceil": ((1,), math.ceil),
    "round": ((1,), _round), "min": ((2,), min), "max": ((2,), max),
    "cos": ((1,), math.cos), "sin": ((1,), math.sin), "tan": ((1,), math.tan),
    "acos": ((1,), math.acos), "asin": ((1,), math.asin), "atan": ((1,), math.atan),
    "cosh": ((1,), math.cosh), "sinh": ((1,), math.sinh), "tanh": ((1,), math.tanh),
    "mod": ((2,), lambda x, y: x % y if y else math.nan), "div": ((2,), lambda x, y: x // y if y else math.nan),
    "fmod": ((2,), math.fmod), "hypot": ((2,), math.hypot),
    "gamma": ((1,), math.gamma), "lngamma": ((1,), math.lgamma),
}


class Compiler:
    """Turns expressions of one grounded model into closures."""

    def __init__(self, model: Model) -> None:
        self.model = model

    def compile(self, expr: ast.Expr) -> Fn:
        method = getattr(self, "_" + type(expr).__name__.lower(), None)
        if method is None:
            raise fail("R310", f"the simulator does not support {type(expr).__name__} expressions ({expr})",
                       expr)
        fn: Fn = method(expr)
        return fn

    # -- RDDL2 tuples ----------------------------------------------------------------------------

    def _tupleexpr(self, expr: ast.TupleExpr) -> Fn:
        labels = tuple(label for label, _ in expr.entries)
        if "?" in labels:
            raise fail("R306", "`?` labels a tuple constant's members only in a default or an instance", expr)
        members = [self.compile(value) for _, value in expr.entries]
        return lambda frame, b: Vector(tuple(zip(labels, [m(frame, b) for m in members], strict=True)))

    def _member(self, expr: ast.Member) -> Fn:
        base = self.compile(expr.base)
        label = expr.label
        if isinstance(label, ast.Variable):
            name = label.name
            return lambda frame, b: base(frame, b)[b[name]]
        fixed = label.name if isinstance(label, (ast.EnumValue, ast.ObjectValue)) else str(label)
        return lambda frame, b: base(frame, b)[fixed]

    def _multinomial(self, expr: ast.Multinomial) -> Fn:
        draw = self._discrete(ast.Discrete("Discrete", expr.type, expr.cases, span=expr.span), probabilities=True)
        count = self.compile(expr.count)
        values = tuple(self.model.of_type(expr.type, expr))

        def sample(frame: Frame, b: Bindings) -> Vector:
            chosen, weights = draw(frame, b)
            counts = multinomial(frame.rng, as_number(count(frame, b)), weights)
            by_value = dict(zip(chosen, counts, strict=True))
            return Vector(tuple((v, by_value.get(v, 0)) for v in values))
        return sample

    def _dirichlet(self, expr: ast.Dirichlet) -> Fn:
        values = tuple(self.model.of_type(expr.type, expr))
        alpha = self.compile(expr.alpha)

        def sample(frame: Frame, b: Bindings) -> Vector:
            drawn = dirichlet(frame.rng, float(alpha(frame, b)), len(values))
            return Vector(tuple(zip(values, drawn, strict=True)))
        return sample

    # -- leaves ----------------------------------------------------------------------------------

    def _constant(self, value: Value) -> Fn:
        return lambda frame, b: value

    def _boolean(self, expr: ast.Boolean) -> Fn:
        return self._constant(expr.value)

    def _integer(self, expr: ast.Integer) -> Fn:
        return self._constant(expr.value)

    def _real(self, expr: ast.Real) -> Fn:
        return self._constant(expr.value)

    def _enumvalue(self, expr: ast.EnumValue) -> Fn:
        return self._constant(expr.name)

    def _objectvalue(self, expr: ast.ObjectValue) -> Fn:
        return self._constant(expr.name)

    def _variable(self, expr: ast.Variable) -> Fn:
        name = expr.name
        return lambda frame, b: b[name]

    def _pvariable(self, expr: ast.PVariable) -> Fn:
        decl = self.model.decls.get(expr.name)
        if decl is None:
            if not expr.args and (expr.name in self.model.object_type):
                return self._constant(expr.name)
            raise fail("R311", f"{expr.name} is neither a pvariable nor an object", expr)
        if len(expr.args) != len(decl.params):
            raise fail("R303", f"{expr.name} takes {len(decl.params)} arguments, not {len(expr.args)}", expr)
        name = expr.name
        primed = expr.primed
        if all(isinstance(a, ast.Variable) for a in expr.args):
            names = tuple(a.name for a in expr.args if isinstance(a, ast.Variable))
            return self._lookup(name, names, primed)
        args = [self._argument(a) for a in expr.args]

        def lookup(frame: Frame, b: Bindings) -> Any:
            store = frame.next if primed else frame.current
            return store[(name, tuple(arg(frame, b) for arg in args))]
        return lookup

    def _argument(self, arg: ast.Expr) -> Fn:
        if isinstance(arg, ast.PVariable) and not arg.args and arg.name not in self.model.decls:
            return self._constant(arg.name)
        return self.compile(arg)

    @staticmethod
    def _lookup(name: str, names: tuple[str, ...], primed: bool) -> Fn:
        # the common shapes get their own closures: this is the innermost loop of every step
        if not names:
            key: Key = (name, ())
            if primed:
                return lambda frame, b: frame.next[key]
            return lambda frame, b: frame.current[key]
        if len(names) == 1:
            (x,) = names
            if primed:
                return lambda frame, b: frame.next[(name, (b[x],))]
            return lambda frame, b: frame.current[(name, (b[x],))]
        if len(names) == 2:
            x, y = names
            if primed:
                return lambda frame, b: frame.next[(name, (b[x], b[y]))]
            return lambda frame, b: frame.current[(name, (b[x], b[y]))]
        if primed:
            return lambda frame, b: frame.next[(name, tuple([b[v] for v in names]))]
        return lambda frame, b: frame.current[(name, tuple([b[v] for v in names]))]

    # -- operators -------------------------------------------------------------------------------

    def _unary(self, expr: ast.Unary) -> Fn:
        operand = self.compile(expr.operand)
        if expr.op == "~":
            return lambda frame, b: not operand(frame, b)
        if expr.op == "-":
            return lambda frame, b: -operand(frame, b)
        return operand

    def _binary(self, expr: ast.Binary) -> Fn:
        left, right = self.compile(expr.left), self.compile(expr.right)
        op = expr.op
        if op == "^":
            return lambda frame, b: bool(left(frame, b)) and bool(right(frame, b))
        if op == "|":
            return lambda frame, b: bool(left(frame, b)) or bool(right(frame, b))
        if op == "=>":
            return lambda frame, b: not left(frame, b) or bool(right(frame, b))
        if op == "<=>":
            return lambda frame, b: bool(left(frame, b)) == bool(right(frame, b))
        function = numeric_operator(self.model, op)
        if function is None:
            raise fail("R310", f"unknown operator {op}", expr)
        return lambda frame, b: function(left(frame, b), right(frame, b))

    def _ifthenelse(self, expr: ast.IfThenElse) -> Fn:
        condition, then, otherwise = (self.compile(e) for e in (expr.condition, expr.then, expr.otherwise))
        return lambda frame, b: then(frame, b) if condition(frame, b) else otherwise(frame, b)

    def _switch(self, expr: ast.Switch) -> Fn:
        subject = self.compile(expr.subject)
        cases: list[tuple[Fn, Fn]] = []
        default: Fn | None = None
        for case in expr.cases:
            if case.value is None:
                default = self.compile(case.result)
            else:
                cases.append((self._argument(case.value), self.compile(case.result)))

        def switch(frame: Frame, b: Bindings) -> Any:
            value = subject(frame, b)
            for match, result in cases:
                if match(frame, b) == value:
                    return result(frame, b)
            if default is None:
                raise fail("R312", f"no case of a switch matches {value}", expr)
            return default(frame, b)
        return switch

    def _function(self, expr: ast.Function) -> Fn:
        entry = _FUNCTIONS.get(expr.name)
        if entry is None:
            raise fail("R310", f"the simulator does not know the function {expr.name}[...]", expr)
        arities, function = entry
        if len(expr.args) not in arities:
            raise fail("R303", f"{expr.name}[...] takes {' or '.join(map(str, arities))} arguments", expr)
        args = [self.compile(a) for a in expr.args]
        if len(args) == 1:
            (only,) = args
            return lambda frame, b: function(only(frame, b))
        return lambda frame, b: function(*(a(frame, b) for a in args))

    # -- aggregations ----------------------------------------------------------------------------

    def _aggregation(self, expr: ast.Aggregation) -> Fn:
        variables = tuple(binding.variable for binding in expr.bindings)
        combos = tuple(itertools.product(*(self.model.of_type(bd.type, bd) for bd in expr.bindings)))
        body = self.compile(expr.body)

        def values(frame: Frame, b: Bindings) -> Iterator[Any]:
            inner = dict(b)  # the body never keeps `inner`, so one dict serves every combination
            for combo in combos:
                inner.update(zip(variables, combo, strict=False))
                yield body(frame, inner)

        op = expr.op
        if op == "sum":
            return lambda frame, b: sum(values(frame, b))
        if op == "prod":
            return lambda frame, b: math.prod(values(frame, b))
        if op == "avg":
            return lambda frame, b: sum(values(frame, b)) / len(combos) if combos else math.nan
        if op == "exists":
            return lambda frame, b: any(values(frame, b))
        if op == "forall":
            return lambda frame, b: all(values(frame, b))
        if op in ("minimum", "min"):
            return lambda frame, b: min(values(frame, b), default=math.inf)
        if op in ("maximum", "max"):
            return lambda frame, b: max(values(frame, b), default=-math.inf)
        if op in ("argmax", "argmin") and len(variables) == 1:
            pick = max if op == "argmax" else min
            objects = [combo[0] for combo in combos]
            # ties go to the first object, as numpy's argmax does in pyRDDLGym
            return lambda frame, b: objects[pick(range(len(objects)), key=list(values(frame, b)).__getitem__)]
        if op in ("Discrete", "UnnormDiscrete") and len(variables) == 1:
            # pyRDDLGym's `Discrete_{?x : t}(p(?x))`: an object of t drawn with the body's probabilities
            objects = [combo[0] for combo in combos]
            normalise = op == "UnnormDiscrete"
            return lambda frame, b: categorical(frame.rng, objects, [float(w) for w in values(frame, b)], op,
                                                normalise)
        raise fail("R310", f"the simulator does not support {op}_{{...}} aggregations", expr)

    # -- draws -----------------------------------------------------------------------------------

    def _distribution(self, expr: ast.Distribution) -> Fn:
        if expr.name in ("KronDelta", "DiracDelta"):
            if len(expr.args) != 1:
                raise fail("R303", f"{expr.name} takes one argument", expr)
            return self.compile(expr.args[0])
        entry = DISTRIBUTIONS.get(expr.name)
        if entry is None:
            raise fail("R310", f"the simulator does not support the distribution {expr.name}", expr)
        arity, sampler = entry
        if len(expr.args) != arity:
            raise fail("R303", f"{expr.name} takes {arity} arguments, not {len(expr.args)}", expr)
        args = [self.compile(a) for a in expr.args]
        if arity == 1:
            (only,) = args
            return lambda frame, b: sampler(frame.rng, only(frame, b))
        first, second = args
        return lambda frame, b: sampler(frame.rng, first(frame, b), second(frame, b))

    def _discrete(self, expr: ast.Discrete, probabilities: bool = False) -> Fn:
        """A draw; with `probabilities`, the values and their probabilities instead (for Multinomial)."""
        values = tuple(case.value for case in expr.cases)
        known = set(self.model.of_type(expr.type, expr))
        for value in values:
            if value not in known:
                raise fail("R304", f"{value} is not a value of {expr.type}", expr)
        weights = [None if case.probability is None else self.compile(case.probability) for case in expr.cases]
        normalise = expr.name == "UnnormDiscrete"
        name = expr.name

        def draw(frame: Frame, b: Bindings) -> str:
            given = [None if w is None else float(w(frame, b)) for w in weights]
            rest = 1.0 - math.fsum(w for w in given if w is not None)
            if rest < -1e-6 and None in given:
                raise bad(name, "the given probabilities exceed 1 before `otherwise`")
            filled = [max(rest, 0.0) if w is None else w for w in given]
            return categorical(frame.rng, values, filled, name, normalise)

        def weighed(frame: Frame, b: Bindings) -> tuple[tuple[str, ...], list[float]]:
            given = [None if w is None else float(w(frame, b)) for w in weights]
            rest = 1.0 - math.fsum(w for w in given if w is not None)
            if rest < -1e-6 and None in given:
                raise bad("Multinomial", "the given probabilities exceed 1 before `otherwise`")
            return values, [max(rest, 0.0) if w is None else w for w in given]
        return weighed if probabilities else draw
