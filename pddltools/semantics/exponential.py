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
from collections.abc import Iterable, Sequence
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from itertools import pairwise

from pddltools.pddl import ast
from pddltools.semantics.continuous import ClosedForm, start_value
from pddltools.semantics.errors import ArithmeticFault
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


#: a rate as `(a, f)`: `a[x]` times each unknown fluent `x`, plus `f(t)`
_Affine = tuple[dict[GroundFluent, Fraction], ExpPoly]


def _combine(parts: Iterable[tuple[_Affine, Fraction]]) -> _Affine:
    """`Σ factor · part`."""
    a: dict[GroundFluent, Fraction] = {}
    f = ExpPoly({})
    for (pa, pf), factor in parts:
        for x, c in pa.items():
            a[x] = a.get(x, Fraction(0)) + c * factor
        f = f + (pf if factor == 1 else pf.scaled(factor))
    return {x: c for x, c in a.items() if c}, f


class ExpMotion(ClosedForm[ExpPoly]):
    """The fluents a set of flows changes, from `state` on, as exponential polynomials in the time since;
    raises `NotLinear` when a rate is not linear with constant coefficients in the changing fluents, or
    when fluents whose rates read each other form a system whose matrix has eigenvalues that are not
    rational or is not diagonalizable (oscillations: `dx/dt = y, dy/dt = -x`)."""

    def _solve(self, fluent: GroundFluent, pending: set[GroundFluent]) -> ExpPoly | None:
        """The fluent's value, or None while its rate reads another fluent not solved yet."""
        a, f = self._rate(fluent, pending)
        if set(a) - {fluent}:
            return None
        own, x0 = a.get(fluent, Fraction(0)), start_value(self.state, fluent)
        # x = e^(a t) (x0 + ∫ e^(-a s) f(s) ds)
        return (ExpPoly.const(x0) + f.shifted(-own).integral()).shifted(own)

    def _rate(self, fluent: GroundFluent, unknown: set[GroundFluent]) -> _Affine:
        return _combine((self._affine(flow.rate, flow.binding, unknown), Fraction(flow.sign))
                        for flow in self.by_fluent[fluent])

    def _cycle(self, fluents: list[GroundFluent]) -> None:
        """`x' = A x + f(t)` for fluents whose rates read each other: with `A = V D V^-1` (rational
        eigenvalues, diagonalizable), `y = V^-1 x` is a set of decoupled equations."""
        unknown = set(fluents)
        rates = [self._rate(x, unknown) for x in fluents]
        n = len(fluents)
        matrix = [[a.get(x, Fraction(0)) for x in fluents] for a, _ in rates]
        vectors: list[list[Fraction]] = []
        values: list[Fraction] = []
        for value, multiplicity in _eigenvalues(matrix, fluents):
            basis = _null_space([[matrix[i][j] - (value if i == j else 0) for j in range(n)] for i in range(n)])
            if len(basis) != multiplicity:
                raise NotLinear(", ".join(show_atom(f) for f in fluents) + " (a defective matrix)")
            vectors.extend(basis)
            values.extend([value] * multiplicity)
        v = [[vectors[k][i] for k in range(n)] for i in range(n)]  # eigenvectors as columns
        inverse = _inverse(v)
        start = [Fraction(start_value(self.state, x)) for x in fluents]
        solved: list[ExpPoly] = []
        for k in range(n):
            g = ExpPoly({})
            for j, (_, f) in enumerate(rates):
                if inverse[k][j]:
                    g = g + f.scaled(inverse[k][j])
            y0 = sum((inverse[k][j] * start[j] for j in range(n)), Fraction(0))
            solved.append((ExpPoly.const(y0) + g.shifted(-values[k]).integral()).shifted(values[k]))
        for i, x in enumerate(fluents):
            total = ExpPoly({})
            for k in range(n):
                if v[i][k]:
                    total = total + solved[k].scaled(v[i][k])
            self.polys[x] = total

    def _affine(self, expr: ast.Expression, b: Binding, unknown: set[GroundFluent]) -> _Affine:
        """`expr` as a linear form in the `unknown` fluents with constant coefficients, plus a function of
        time (the fluents solved already, the constant ones)."""
        if isinstance(expr, ast.Number):
            return {}, ExpPoly.const(expr.value)
        key = self.key(expr, b)
        if key is not None:
            if key in unknown:
                return {key: Fraction(1)}, ExpPoly({})
            found = self.polys.get(key)
            return {}, found if found is not None else ExpPoly.const(start_value(self.state, key))
        if isinstance(expr, ast.Variable):
            value = b.get(expr.name)
            if isinstance(value, int | Fraction):
                return {}, ExpPoly.const(value)
            raise NotLinear(str(expr))
        if not isinstance(expr, ast.Arithmetic):
            raise NotLinear(str(expr))
        args = [self._affine(a, b, unknown) for a in expr.args]
        if expr.op == "+":
            return _combine((arg, Fraction(1)) for arg in args)
        if expr.op == "-":
            if len(args) == 1:
                return _combine([(args[0], Fraction(-1))])
            return _combine([(args[0], Fraction(1)), *((arg, Fraction(-1)) for arg in args[1:])])
        if expr.op == "*":
            a, f = args[0]
            for other_a, other_f in args[1:]:
                if a and other_a:
                    raise NotLinear(str(expr))  # x · y
                if (a and not other_f.constant) or (other_a and not f.constant):
                    raise NotLinear(str(expr))  # x times a changing quantity: not a constant factor
                if a:
                    a, f = _combine([((a, f), Fraction(other_f.value0))])[0], f * other_f
                elif other_a:
                    a, f = _combine([((other_a, ExpPoly({})), Fraction(f.value0))])[0], f * other_f
                else:
                    f = f * other_f
            return a, f
        a, f = args[0]
        for other_a, other_f in args[1:]:
            if other_a or not other_f.constant:
                raise NotLinear(str(expr))
            divisor = other_f.value0
            if not divisor:
                raise ArithmeticFault(f"division by zero in {expr}")
            a, f = _combine([((a, f), Fraction(1) / divisor)])
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
        return self._affine(expr, b, set())[1]


def _eigenvalues(matrix: list[list[Fraction]], fluents: list[GroundFluent]) -> list[tuple[Fraction, int]]:
    """The eigenvalues of `matrix` with their multiplicities, when all are rational; else `NotLinear`."""
    n = len(matrix)
    # det(λI - A) by Faddeev-LeVerrier: exact over fractions
    coefficients = [Fraction(1)]
    m = [[Fraction(0)] * n for _ in range(n)]
    for k in range(1, n + 1):
        m = [[sum((matrix[i][j] * m[j][c] for j in range(n)), Fraction(0)) + (coefficients[-1] if i == c else 0)
              for c in range(n)] for i in range(n)]
        am = [[sum((matrix[i][j] * m[j][c] for j in range(n)), Fraction(0)) for c in range(n)] for i in range(n)]
        coefficients.append(-sum((am[i][i] for i in range(n)), Fraction(0)) / k)
    p = Poly.of(reversed(coefficients))  # λ^n + c1 λ^(n-1) + ... + cn
    bound = 1 + max((abs(c) for c in coefficients[1:]), default=Fraction(0))
    found: list[tuple[Fraction, int]] = []
    at: Fraction = -bound - 1
    while p.degree > 0:
        root = first_root(p, at, bound + 1)
        if root is None or p.at(root) != 0:
            raise NotLinear(", ".join(show_atom(f) for f in fluents) + " (eigenvalues that are not rational)")
        root = Fraction(root)
        multiplicity = 0
        while p.degree > 0 and p.at(root) == 0:
            p, multiplicity = _deflate(p, root), multiplicity + 1
        found.append((root, multiplicity))
        at = root
    return found


def _deflate(p: Poly, root: Fraction) -> Poly:
    """`p / (t - root)` (synthetic division; `root` a root of `p`)."""
    c = list(reversed(p.c))  # highest degree first
    out = [c[0]]
    for x in c[1:-1]:
        out.append(x + out[-1] * root)
    return Poly.of(reversed(out))


def _null_space(rows: list[list[Fraction]]) -> list[list[Fraction]]:
    """A basis of the vectors `v` with `rows · v = 0` (reduced row echelon form, exactly)."""
    n = len(rows[0]) if rows else 0
    m = [list(r) for r in rows]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        pivot = next((i for i in range(r, len(m)) if m[i][col]), None)
        if pivot is None:
            continue
        m[r], m[pivot] = m[pivot], m[r]
        lead = m[r][col]
        m[r] = [x / lead for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][col]:
                factor = m[i][col]
                m[i] = [x - factor * y for x, y in zip(m[i], m[r], strict=True)]
        pivots.append(col)
        r += 1
    basis = []
    for free in (c for c in range(n) if c not in pivots):
        v = [Fraction(0)] * n
        v[free] = Fraction(1)
        for i, col in enumerate(pivots):
            v[col] = -m[i][free]
        basis.append(v)
    return basis


def _inverse(matrix: list[list[Fraction]]) -> list[list[Fraction]]:
    """The inverse of an invertible matrix, by Gauss-Jordan elimination over fractions."""
    n = len(matrix)
    m = [list(row) + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = next(i for i in range(col, n) if m[i][col])
        m[col], m[pivot] = m[pivot], m[col]
        lead = m[col][col]
        m[col] = [x / lead for x in m[col]]
        for i in range(n):
            if i != col and m[i][col]:
                factor = m[i][col]
                m[i] = [x - factor * y for x, y in zip(m[i], m[col], strict=True)]
    return [row[n:] for row in m]
