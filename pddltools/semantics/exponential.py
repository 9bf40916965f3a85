"""Linear change with constant coefficients in closed form: `dx/dt = a x + f(t)`.

Newton's cooling (`dT/dt = -k (T - 20)`), a charging capacitor, a leaking tank with a constant outflow:
a rate that reads the fluent it changes, linearly, with a constant factor. Its solution is
`x(t) = e^(a t) (x0 + ∫_0^t e^(-a s) f(s) ds)`, and when `f` is itself a sum of terms `p(t) e^(λ t)`
(`p` a polynomial: constants, fluents changing polynomially, other such solutions) so is `x`: the
fluents of a stretch are exponential polynomials (`ExpPoly`), found in order of their dependencies
(a fluent may read its own value and those found before it; a cycle through two fluents is a coupled
system, which this does not solve, and needs `--delta`).

Values: `e^(λ t)` is irrational for rational `λ t ≠ 0`, so a value is computed with `DIGITS`
significant digits (`decimal`) and kept as the nearest `Fraction`: far below any tolerance a plan is
judged with. Roots: the first root of `Σ p_k(t) e^(λ_k t)` in an interval is isolated by Rolle's
theorem (multiplying by `e^(-λ_1 t)` and differentiating `deg p_1 + 1` times removes a term; between
two roots of the derivative the function is monotone) and narrowed by bisection to `PRECISION`, to the
side where the sign has already changed, as `polynomial.first_root` does for irrational roots.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from itertools import pairwise

from pddltools.pddl import ast
from pddltools.semantics.continuous import Flow
from pddltools.semantics.errors import ArithmeticFault, UndefinedValue
from pddltools.semantics.evaluate import Evaluator
from pddltools.semantics.grounding import Binding
from pddltools.semantics.polynomial import PRECISION, Poly, first_root
from pddltools.semantics.state import FluentValue, GroundFluent, Number, State, show_atom

DIGITS = 60  # significant digits of every value computed with an exponential
_CONTEXT = Context(prec=DIGITS, Emax=10**9, Emin=-(10**9))


def _exp(x: Fraction) -> Decimal:
    with localcontext(_CONTEXT):
        return (Decimal(x.numerator) / Decimal(x.denominator)).exp()


class ExpPoly:
    """`Σ p_λ(t) e^(λ t)`: a polynomial per rational exponent `λ` (0 for the plain polynomial part)."""

    __slots__ = ("terms",)

    def __init__(self, terms: dict[Fraction, Poly]) -> None:
        self.terms = {k: p for k, p in terms.items() if p.c}

    @staticmethod
    def poly(p: Poly) -> ExpPoly:
        return ExpPoly({Fraction(0): p})

    @staticmethod
    def const(value: Number) -> ExpPoly:
        return ExpPoly.poly(Poly.const(value))

    @property
    def constant(self) -> bool:
        """Whether it does not change in time."""
        return not self.terms or (set(self.terms) == {0} and self.terms[Fraction(0)].constant)

    @property
    def value0(self) -> Number:
        """The value at 0 (exact: every `e^0` is 1)."""
        return sum((p.at(0) for p in self.terms.values()), Fraction(0))

    def __add__(self, other: ExpPoly) -> ExpPoly:
        out = dict(self.terms)
        for k, p in other.terms.items():
            out[k] = out[k] + p if k in out else p
        return ExpPoly(out)

    def __neg__(self) -> ExpPoly:
        return ExpPoly({k: -p for k, p in self.terms.items()})

    def __sub__(self, other: ExpPoly) -> ExpPoly:
        return self + -other

    def __mul__(self, other: ExpPoly) -> ExpPoly:
        out: dict[Fraction, Poly] = {}
        for k, p in self.terms.items():
            for m, q in other.terms.items():
                out[k + m] = out[k + m] + p * q if k + m in out else p * q
        return ExpPoly(out)

    def scaled(self, factor: Number) -> ExpPoly:
        return ExpPoly({k: p.scaled(factor) for k, p in self.terms.items()})

    def shifted(self, by: Fraction) -> ExpPoly:
        """`self · e^(by t)`."""
        return ExpPoly({k + by: p for k, p in self.terms.items()})

    def derivative(self) -> ExpPoly:
        out: dict[Fraction, Poly] = {}
        for k, p in self.terms.items():
            d = p.derivative() + (p.scaled(k) if k else Poly(()))
            out[k] = d
        return ExpPoly(out)

    def integral(self) -> ExpPoly:
        """The antiderivative that is 0 at 0."""
        out: dict[Fraction, Poly] = {}
        for k, p in self.terms.items():
            if not k:
                out[k] = out.get(k, Poly(())) + p.integral(0)
                continue
            # ∫ p e^(k s) ds = e^(k s) Σ_i (-1)^i p^(i) / k^(i+1), and minus its value at 0
            q, term, sign = Poly(()), p, 1
            power = k
            while term.c:
                q = q + term.scaled(Fraction(sign) / power)
                term, sign, power = term.derivative(), -sign, power * k
            out[k] = out.get(k, Poly(())) + q
            zero = Fraction(0)
            out[zero] = out.get(zero, Poly(())) - Poly.const(q.at(0))
        return ExpPoly(out)

    def decimal(self, t: Fraction) -> Decimal:
        """The value at `t`, to `DIGITS` significant digits."""
        with localcontext(_CONTEXT):
            total = Decimal(0)
            for k, p in self.terms.items():
                v = p.at(t)
                part = Decimal(v.numerator) / Decimal(v.denominator) if isinstance(v, Fraction) else Decimal(v)
                total += part * _exp(k * t) if k else part
            return total

    def at(self, t: Number) -> Number:
        """The value at `t`: exact without an exponential term or at 0, else to `DIGITS` digits."""
        t = Fraction(t)
        if not t or set(self.terms) <= {0}:
            value = self.value0 if not t else self.terms.get(Fraction(0), Poly(())).at(t)
            return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
        found = Fraction(self.decimal(t))
        return found.numerator if found.denominator == 1 else found

    def sign(self, t: Fraction) -> int:
        value = self.decimal(t)
        scale = max((abs(self._scale(t))), Decimal(1))
        with localcontext(_CONTEXT):
            if abs(value) <= scale * Decimal(10) ** (12 - DIGITS):
                return 0  # zero within what the digits can tell
        return 1 if value > 0 else -1

    def _scale(self, t: Fraction) -> Decimal:
        """The size of the terms at `t`, which the sum's rounding error is relative to."""
        with localcontext(_CONTEXT):
            return sum((abs(ExpPoly({k: p}).decimal(t)) for k, p in self.terms.items()), Decimal(0))


def first_exp_root(f: ExpPoly, lo: Number, hi: Number) -> Number | None:
    """The least root of `f` in `(lo, hi]`, or None; `f` not constant."""
    roots = _roots(f, Fraction(lo), Fraction(hi), first=True)
    return roots[0] if roots else None


def _roots(f: ExpPoly, lo: Fraction, hi: Fraction, first: bool) -> list[Fraction]:
    """The roots of `f` in `(lo, hi]` in order (only the least when `first`)."""
    if not f.terms:
        return []
    if len(f.terms) == 1:
        (k, p), = f.terms.items()  # p(t) e^(k t): the roots of p
        found: list[Fraction] = []
        at: Fraction = lo
        while (r := first_root(p, at, hi)) is not None:
            found.append(Fraction(r))
            if first:
                break
            at = Fraction(r)
        return found
    # g = f e^(-k t) has the same roots; its (deg p + 1)th derivative has one term fewer
    k = min(f.terms)
    g = f.shifted(-k)
    derivatives = [g]
    for _ in range(g.terms[Fraction(0)].degree + 1):
        derivatives.append(derivatives[-1].derivative())
    points = _roots(derivatives[-1], lo, hi, first=False)
    for level in reversed(derivatives[:-1]):
        points = _monotone_roots(level, [lo, *points, hi], first=level is g and first)
    return points


def _monotone_roots(f: ExpPoly, cuts: Sequence[Fraction], first: bool) -> list[Fraction]:
    """The roots of `f` in `(cuts[0], cuts[-1]]`, `f` monotone between consecutive cuts."""
    found: list[Fraction] = []
    for a, b in pairwise(cuts):
        if b <= a:
            continue
        sa, sb = f.sign(a), f.sign(b)
        if sb == 0:
            found.append(b)
        elif sa * sb < 0:
            found.append(_bisect(f, a, b, sa))
        if first and found:
            return found[:1]
    return sorted(set(found))


def _bisect(f: ExpPoly, a: Fraction, b: Fraction, sign_a: int) -> Fraction:
    """The root in `(a, b)` (f changes sign once there) to `PRECISION`, on the far side: the shortest
    decimal past the root within the bracket."""
    while b - a > PRECISION:
        mid = (a + b) / 2
        s = f.sign(mid)
        if s == 0:
            return mid
        if s == sign_a:
            a = mid
        else:
            b = mid
    digits = 0
    while True:
        scale = 10**digits
        candidate = Fraction(math.floor(b * scale), scale)  # rises to b as digits are added
        if candidate > a and f.sign(candidate) != sign_a:
            return candidate
        digits += 1


class NotLinear(Exception):
    """The rate is not `a x + f(t)` with a constant `a`."""


#: a rate as `(a, f)`: `a` times the fluent being solved, plus `f(t)`
_Affine = tuple[Fraction, ExpPoly]


class ExpMotion:
    """The fluents a set of flows changes, from `state` on, as exponential polynomials in the time since;
    raises `NotLinear` when a rate is not linear with a constant factor in the fluent it changes (or
    two fluents' rates read each other)."""

    def __init__(self, ev: Evaluator, state: State, running: Sequence[Flow]) -> None:
        self.ev = ev
        self.state = state
        by_fluent: dict[GroundFluent, list[Flow]] = {}
        for flow in running:
            by_fluent.setdefault(flow.fluent, []).append(flow)
        self.polys: dict[GroundFluent, ExpPoly] = {}
        pending = set(by_fluent)
        while pending:
            progress = False
            for fluent in sorted(pending):
                try:
                    a, f = Fraction(0), ExpPoly({})
                    for flow in by_fluent[fluent]:
                        fa, ff = self._affine(flow.rate, flow.binding, fluent, pending)
                        if flow.sign < 0:
                            fa, ff = -fa, -ff
                        a, f = a + fa, f + ff
                except _Later:
                    continue
                x0 = self._start(fluent)
                # x = e^(a t) (x0 + ∫ e^(-a s) f(s) ds)
                self.polys[fluent] = (ExpPoly.const(x0) + f.shifted(-a).integral()).shifted(a)
                pending.discard(fluent)
                progress = True
            if not progress:
                raise NotLinear(", ".join(show_atom(f) for f in sorted(pending)))

    def _start(self, fluent: GroundFluent) -> Number:
        found = self.state.values.get(fluent)
        if found is None or isinstance(found, str):
            raise UndefinedValue(show_atom(fluent))
        return found

    def _affine(self, expr: ast.Expression, b: Binding, own: GroundFluent, pending: set[GroundFluent]) -> _Affine:
        zero = Fraction(0)
        if isinstance(expr, ast.Number):
            return zero, ExpPoly.const(expr.value)
        key: GroundFluent | None = None
        if isinstance(expr, ast.FunctionTerm):
            key = self.ev.fluent(expr, b, self.state) if expr.args else (expr.function,)
        elif isinstance(expr, ast.Constant) and expr.name in self.ev.constant_functions:
            key = (expr.name,)
        if key is not None:
            if key == own:
                return Fraction(1), ExpPoly({})
            if key in pending:
                raise _Later
            found = self.polys.get(key)
            return zero, found if found is not None else ExpPoly.const(self._start(key))
        if isinstance(expr, ast.Variable):
            value = b.get(expr.name)
            if isinstance(value, int | Fraction):
                return zero, ExpPoly.const(value)
            raise NotLinear(str(expr))
        if not isinstance(expr, ast.Arithmetic):
            raise NotLinear(str(expr))
        args = [self._affine(a, b, own, pending) for a in expr.args]
        if expr.op in ("+", "-"):
            if expr.op == "-" and len(args) == 1:
                return -args[0][0], -args[0][1]
            a, f = args[0]
            for other_a, other_f in args[1:]:
                a, f = (a + other_a, f + other_f) if expr.op == "+" else (a - other_a, f - other_f)
            return a, f
        if expr.op == "*":
            a, f = args[0]
            for other_a, other_f in args[1:]:
                if a and other_a:
                    raise NotLinear(str(expr))  # x · x
                if (a and not other_f.constant) or (other_a and not f.constant):
                    raise NotLinear(str(expr))  # x times a changing quantity: not a constant factor
                a = a * other_f.value0 + other_a * f.value0
                f = f * other_f
            return a, f
        a, f = args[0]
        for other_a, other_f in args[1:]:
            if other_a or not other_f.constant:
                raise NotLinear(str(expr))
            divisor = other_f.value0
            if not divisor:
                raise ArithmeticFault(f"division by zero in {expr}")
            a, f = a / divisor, f.scaled(Fraction(1) / divisor)
        return a, f

    def at(self, t: Number) -> State:
        if not self.polys:
            return self.state
        values: dict[GroundFluent, FluentValue] = dict(self.state.values)
        values.update((k, p.at(t)) for k, p in self.polys.items())
        return State(self.state.atoms, values)

    def difference(self, comparison: ast.Comparison, b: Binding) -> ExpPoly:
        return self._value(comparison.left, b) - self._value(comparison.right, b)

    def _value(self, expr: ast.Expression, b: Binding) -> ExpPoly:
        a, f = self._affine(expr, b, ("",), set())
        assert not a  # no fluent is called ""
        return f


class _Later(Exception):
    """A rate reads a fluent whose own change is not known yet."""

