"""Interval analysis of numeric fluents: the range of values each function can ever take.

A function's range starts as the hull of its initial values (over all its ground instances, which keeps
the analysis lifted and cheap) and grows with every effect that may change it: an `increase` by an
amount that may be positive opens it upwards, a `decrease` downwards, an `assign` adds the range of the
value assigned, a `scale-up`/`scale-down` opens it both ways. Repeated until nothing grows (at most a
few rounds: a bound only ever moves to infinity or takes in a finite assigned range). A comparison whose
two sides' ranges cannot meet this way can never hold, in any state a plan reaches.

Every effect of every action counts, whether or not the action is reachable, so the ranges are wide
enough for any plan: a comparison reported impossible is impossible.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from pddltools.analysis.program import Schema, schemas_of
from pddltools.pddl import ast
from pddltools.static_typing import assert_never

INF = float("inf")
Bound = Fraction | float  # a float only for the infinities


@dataclass(frozen=True, slots=True)
class Interval:
    lo: Bound
    hi: Bound

    def __str__(self) -> str:
        def show(b: Bound) -> str:
            if b in (INF, -INF):
                return "inf" if b > 0 else "-inf"
            value = Fraction(b)
            return str(value.numerator) if value.denominator == 1 else str(float(value))
        return f"[{show(self.lo)}, {show(self.hi)}]"

    def hull(self, other: Interval) -> Interval:
        return Interval(min(self.lo, other.lo), max(self.hi, other.hi))


ANY = Interval(-INF, INF)


class Ranges:
    """The range of every numeric function of a task, and whether comparisons can hold."""

    def __init__(self, domain: ast.Domain, problem: ast.Problem) -> None:
        self.ranges: dict[str, Interval] = {}
        self.changed: dict[str, list[str]] = {}  # function: how it changes ("increased by X", ...)
        for element in problem.init:
            if isinstance(element, ast.InitAssignment) and isinstance(element.value, ast.Number):
                value = Fraction(element.value.value)
                name = element.fluent.function
                seen = self.ranges.get(name)
                self.ranges[name] = Interval(value, value) if seen is None else seen.hull(Interval(value, value))
        self.declared = {f.name for f in domain.functions}
        updates = [u for s in schemas_of(domain) for u in _updates(s)]
        for _ in range(len(updates) + 2):
            if not any(self._apply(u) for u in updates):
                break
        else:  # cannot happen (each round moves a bound to infinity or stops), but be safe
            for u in updates:
                self.ranges[u.fluent.function] = ANY

    def _apply(self, update: ast.Assign) -> bool:
        name = update.fluent.function
        old = self.ranges.get(name)
        amount = self.value(update.value)
        if old is None and update.op != "assign":
            return False  # changing an undefined value leaves it undefined
        if update.op == "assign":
            new = amount if old is None else old.hull(amount)
        elif update.op in ("increase", "decrease"):
            assert old is not None
            up = amount.hi > 0 if update.op == "increase" else amount.lo < 0
            down = amount.lo < 0 if update.op == "increase" else amount.hi > 0
            new = Interval(-INF if down else old.lo, INF if up else old.hi)
        else:
            new = ANY
        if new == old:
            return False
        self.ranges[name] = new
        return True

    def value(self, e: ast.Expression) -> Interval:
        match e:
            case ast.Number():
                return Interval(Fraction(e.value), Fraction(e.value))
            case ast.FunctionTerm():
                found = self.ranges.get(e.function)
                return found if found is not None else ANY
            case ast.Arithmetic():
                parts = [self.value(a) for a in e.args]
                result = parts[0]
                if e.op == "-" and len(parts) == 1:
                    return Interval(-result.hi, -result.lo)
                for p in parts[1:]:
                    result = _combine(e.op, result, p)
                return result
            case ast.Variable() | ast.Constant() | ast.ContinuousTime() | ast.IsViolated():
                return ANY  # ?duration, an object, #t, is-violated: anything
            case _:
                assert_never(e)

    def possible(self, c: ast.Comparison) -> bool:
        """Whether `c` can hold in some reachable state (False only when the ranges prove it cannot)."""
        left, right = self.value(c.left), self.value(c.right)
        if c.op == ">":
            return left.hi > right.lo
        if c.op == ">=":
            return left.hi >= right.lo
        if c.op == "<":
            return left.lo < right.hi
        if c.op == "<=":
            return left.lo <= right.hi
        return left.lo <= right.hi and right.lo <= left.hi

    def reason(self, c: ast.Comparison) -> str:
        """Why `c` cannot hold: the ranges of the functions it reads."""
        parts: dict[str, str] = {}
        for term in _functions(c):
            interval = self.ranges.get(term.function)
            if interval is not None:
                parts.setdefault(term.function, f"{term.function} stays within {interval}")
        return "; ".join(parts.values()) if parts else "its two sides cannot meet"


def _functions(node: ast.Node) -> Iterator[ast.FunctionTerm]:
    for sub in node.walk():
        if isinstance(sub, ast.FunctionTerm):
            yield sub


def _updates(schema: Schema) -> Iterator[ast.Assign]:
    if schema.effect is None:
        return
    for node in ast.effect_parts(schema.effect):
        if isinstance(node, ast.Assign):
            yield node


def _combine(op: str, a: Interval, b: Interval) -> Interval:
    if op == "+":
        return Interval(a.lo + b.lo, a.hi + b.hi)
    if op == "-":
        return Interval(a.lo - b.hi, a.hi - b.lo)
    if op == "*":
        products = [_mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
        return Interval(min(products), max(products))
    if b.lo <= 0 <= b.hi:
        return ANY  # division by a range that holds zero
    inverse = Interval(_inv(b.hi), _inv(b.lo))
    return _combine("*", a, inverse)


def _mul(x: Bound, y: Bound) -> Bound:
    if x == 0 or y == 0:
        return Fraction(0)
    return x * y


def _inv(x: Bound) -> Bound:
    if x in (INF, -INF):
        return Fraction(0)
    return 1 / Fraction(x)
