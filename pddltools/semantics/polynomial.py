"""Exact polynomials in the time since a happening, and their roots.

Between two happenings of a PDDL+ plan every fluent changed by linear processes (rates that are
constants, or fluents that themselves change at constant rates, and so on) is a polynomial in the time
`t` since the happening, with rational coefficients. A condition `e1 < e2` then changes its truth only
at a root of `e1 - e2`; finding the first root after 0 is finding when a process starts or stops, or an
event fires.

Coefficients are `int` while they are whole (the usual case: integer rates, integer start values),
and `Fraction` otherwise: `Fraction` arithmetic costs microseconds per operation, and a long plan does
millions of them; every division goes through `_quotient`, so no `int / int` ever makes a float.

Roots are found exactly when they are rational and the degree is at most 2 (linear change, and the
quadratic position of a body under constant acceleration, when its discriminant is a square); any other
root is isolated by Sturm's theorem and narrowed by bisection over exact fractions to `PRECISION`, so
which side of the root a time lies on is still decided exactly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

PRECISION = Fraction(1, 10**15)  # the width to which an irrational root is narrowed

Number = int | Fraction


def _quotient(a: Number, b: Number) -> Number:
    """`a / b` exactly: a `Fraction` (or an `int` when whole), never a float."""
    if type(a) is int and type(b) is int:
        return a // b if a % b == 0 else Fraction(a, b)
    q = Fraction(a) / b
    return q.numerator if q.denominator == 1 else q


def _parts(x: Number) -> tuple[int, int]:
    """Numerator and positive denominator: comparing and combining these as `int`s costs a tenth of
    the `Fraction` operations they replace."""
    return (x, 1) if type(x) is int else (x.numerator, x.denominator)


def _ratio(numerator: int, denominator: int) -> Number:
    """`numerator / denominator` (denominator > 0), an `int` when whole."""
    if denominator == 1:
        return numerator
    return numerator // denominator if numerator % denominator == 0 else Fraction(numerator, denominator)


parts, ratio = _parts, _ratio  # for `linear`, which computes over the same integer pairs


def _whole(x: Number) -> Number:
    """`x` as an `int` when it is whole: the int fast path stays taken after exact arithmetic."""
    return x.numerator if type(x) is Fraction and x.denominator == 1 else x


def line_at(c0: Number, c1: Number, t: Number, per: int = 1) -> Number:
    """`c0 + c1 t / per` exactly, an `int` when whole: one `Fraction` made, not several operations. `per`
    is the number of units of `t` in one unit of `c1`'s time (a plan's times counted in 1/per)."""
    (n0, d0), (n1, d1), (tn, td) = _parts(c0), _parts(c1), _parts(t)
    td *= per
    return _ratio(n0 * d1 * td + n1 * tn * d0, d0 * d1 * td)


def line_root(c0: Number, c1: Number, lo: Number, hi: Number, per: int = 1) -> Number | None:
    """The root `-c0 per / c1` of `c0 + c1 t / per` (c1 not 0) when it lies in `(lo, hi]`, else None."""
    (n0, d0), (n1, d1) = _parts(c0), _parts(c1)
    return line_root_parts(n0, d0, n1, d1, lo, hi, per)


def line_root_parts(n0: int, d0: int, n1: int, d1: int, lo: Number, hi: Number, per: int = 1) -> Number | None:
    """`line_root` of `c0 = n0 / d0` and `c1 = n1 / d1` (d0, d1 > 0, n1 not 0) given as integers, which
    a caller that summed them as integers need not make into a `Fraction` first. The root is compared
    with `lo` and `hi` over integers, and made only when inside."""
    num, den = -n0 * d1 * per, d0 * n1
    if den < 0:
        num, den = -num, -den
    (ln, ld), (hn, hd) = _parts(lo), _parts(hi)
    return _ratio(num, den) if ln * den < num * ld and num * hd <= hn * den else None


def line_is_zero(n0: int, d0: int, n1: int, d1: int, t: Number, per: int = 1) -> bool:
    """Whether `c0 + c1 t / per` is 0, c0 = n0 / d0 and c1 = n1 / d1 given as integers (d0, d1 > 0)."""
    if not t:
        return n0 == 0
    tn, td = _parts(t)
    return n0 * d1 * td * per + n1 * tn * d0 == 0


@dataclass(frozen=True, slots=True)
class Poly:
    """`c[0] + c[1] t + c[2] t^2 + ...`, without trailing zero coefficients (the zero polynomial is `()`);
    each coefficient an `int` when whole, else a `Fraction`."""

    c: tuple[Number, ...]

    @staticmethod
    def of(coefficients: Iterable[Number]) -> Poly:
        c = [x.numerator if type(x) is Fraction and x.denominator == 1 else x for x in coefficients]  # _whole
        while c and not c[-1]:
            c.pop()
        return Poly(tuple(c))

    @staticmethod
    def const(value: Number) -> Poly:
        return Poly((_whole(value),)) if value else _ZERO

    @property
    def degree(self) -> int:
        return len(self.c) - 1  # -1 for the zero polynomial

    @property
    def constant(self) -> bool:
        return self.degree <= 0

    def __add__(self, other: Poly) -> Poly:
        if not other.c:
            return self
        if not self.c:
            return other
        n = max(len(self.c), len(other.c))
        return Poly.of((self.c[i] if i < len(self.c) else 0) + (other.c[i] if i < len(other.c) else 0)
                       for i in range(n))

    def __neg__(self) -> Poly:
        return Poly(tuple(-x for x in self.c))

    def __sub__(self, other: Poly) -> Poly:
        if not other.c:
            return self
        a, b = self.c, other.c
        n = max(len(a), len(b))
        return Poly.of((a[i] if i < len(a) else 0) - (b[i] if i < len(b) else 0) for i in range(n))

    def __mul__(self, other: Poly) -> Poly:
        if not self.c or not other.c:
            return Poly(())
        out: list[Number] = [0] * (len(self.c) + len(other.c) - 1)
        for i, a in enumerate(self.c):
            for j, b in enumerate(other.c):
                out[i + j] += a * b
        return Poly.of(out)

    def scaled(self, factor: Number) -> Poly:
        return Poly.of(x * factor for x in self.c)

    def integral(self, start: Number) -> Poly:
        """The antiderivative that is `start` at 0."""
        return Poly.of((start, *(_quotient(x, i + 1) for i, x in enumerate(self.c))))

    def derivative(self) -> Poly:
        return Poly.of(x * i for i, x in enumerate(self.c) if i)

    def at(self, t: Number) -> Number:
        """The value at `t`: an `int` when whole."""
        c = self.c
        if len(c) <= 1 or not t:
            return c[0] if c else 0  # constant, or at the start: no arithmetic
        if len(c) == 2:  # linear change, the common case
            return line_at(c[0], c[1], t)
        total: Number = 0
        for x in reversed(c):
            total = total * t + x
        return _whole(total)

    def sign_after(self, t: Number) -> int:
        """The sign on `(t, t + e)` for every small enough e: of the first derivative not zero at t."""
        p = self
        while p.c:
            value = p.at(t)
            if value:
                return 1 if value > 0 else -1
            p = p.derivative()
        return 0


_ZERO = Poly(())


def _sign(x: Number) -> int:
    return (x > 0) - (x < 0)


def _remainder(a: Poly, b: Poly) -> Poly:
    rest = list(a.c)
    while len(rest) >= len(b.c) and rest:
        factor = _quotient(rest[-1], b.c[-1])
        shift = len(rest) - len(b.c)
        for i, x in enumerate(b.c):
            rest[shift + i] -= factor * x
        rest.pop()
        while rest and rest[-1] == 0:
            rest.pop()
    return Poly(tuple(rest))


def _sturm(p: Poly) -> list[Poly]:
    chain = [p, p.derivative()]
    while chain[-1].c:
        chain.append(-_remainder(chain[-2], chain[-1]))
    return chain[:-1]


def _changes(chain: Sequence[Poly], t: Number) -> int:
    signs = [s for s in (_sign(p.at(t)) for p in chain) if s]
    return sum(1 for a, b in pairwise(signs) if a != b)


def _count(chain: Sequence[Poly], a: Number, b: Number) -> int:
    """The distinct roots in (a, b] of the polynomial whose Sturm chain is `chain`."""
    return _changes(chain, a) - _changes(chain, b)


def _square_root(x: Number) -> Number | None:
    """The rational square root of `x`, if it has one."""
    if x < 0:
        return None
    n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return _quotient(n, d) if n * n == x.numerator and d * d == x.denominator else None


def bisection_bracket(p: Poly, chain: Sequence[Poly], lo: Number, hi: Number
                      ) -> tuple[Fraction, Fraction] | Fraction | None:
    """Halving (lo, hi] down to `PRECISION`, always keeping the lower half when it holds a root: the
    bracket (a, b] of the least root in (lo, hi], the root itself where a midpoint is one, or None."""
    if _count(chain, lo, hi) <= 0:
        return None
    a, b = Fraction(lo), Fraction(hi)  # no root in (lo, a], one at least in (a, b]
    while b - a > PRECISION:
        mid = (a + b) / 2
        if _count(chain, a, mid) > 0:
            if p.at(mid) == 0 and _count(chain, a, mid) == 1:
                return mid
            b = mid
        else:
            a = mid
    return a, b


def quadratic_bracket(p: Poly, lo: Number, hi: Number) -> tuple[Fraction, Fraction] | None:
    """`bisection_bracket` for a quadratic whose roots are irrational, without the bisection: the
    bracket is the cell of the grid lo + k·w (w the width the halving ends at) that holds the least
    root in (lo, hi], and the cell of a root (-b ± √D) / 2a is found with one integer square root.
    No root is ever a grid point, so the cell is the one the halving reaches."""
    c, b, a = (Fraction(x) for x in p.c)
    lo, hi = Fraction(lo), Fraction(hi)
    width, halvings = hi - lo, 0
    while width > PRECISION:
        width /= 2
        halvings += 1
    cells = 1 << halvings
    # the least root first: -√D when a > 0
    for sign in ((-1, 1) if a > 0 else (1, -1)):
        cell = _root_cell(a, b, b * b - 4 * a * c, sign, lo, width)
        if 0 <= cell < cells:
            return lo + cell * width, lo + (cell + 1) * width
    return None


def _root_cell(a: Fraction, b: Fraction, discriminant: Fraction, sign: int, lo: Fraction, width: Fraction) -> int:
    """floor((r - lo) / width) for r = (-b + sign·√D) / 2a, √D irrational: (r - lo) / width is P + Q√D
    with P, Q rational; over a common denominator L it is (A ± √B) / L with A, B integers."""
    rational = (-b / (2 * a) - lo) / width
    factor = sign / (2 * a * width)  # Q; Q√D = ±√(Q²D)
    radicand = factor * factor * discriminant
    common = math.lcm(rational.denominator, radicand.denominator)
    whole = rational.numerator * (common // rational.denominator)
    inside = radicand.numerator * (common // radicand.denominator) * common  # (common·√radicand)²
    root = math.isqrt(inside)  # floor of an irrational square root
    scaled = whole + root if factor > 0 else whole - root - 1  # floor(common · x)
    return scaled // common


def first_root(p: Poly, lo: Number, hi: Number) -> Number | None:
    """The least root of `p` in `(lo, hi]` (exact when rational and of degree at most 2; otherwise within
    `PRECISION`, on the side where `p` has already changed sign), or None. `p` must not be zero."""
    size = len(p.c)
    if size <= 1:
        return None
    if size == 2:
        return line_root(p.c[0], p.c[1], lo, hi)
    if size == 3:
        c, b, a = p.c
        exact = _square_root(b * b - 4 * a * c)
        if exact is not None:
            found = sorted(r for r in (_quotient(-b - exact, 2 * a), _quotient(-b + exact, 2 * a)) if lo < r <= hi)
            return found[0] if found else None
        if b * b - 4 * a * c < 0:
            return None
    chain = _sturm(p)
    if size == 3:  # two irrational roots: the bisection's bracket in closed form
        bracket = quadratic_bracket(p, lo, hi)
    else:
        halved = bisection_bracket(p, chain, lo, hi)
        if halved is None or isinstance(halved, Fraction):
            return halved
        bracket = halved
    if bracket is None:
        return None
    low, high = bracket  # the root is in (low, high]
    simple = high.limit_denominator(10**6)  # a rational root with a small denominator, found exactly
    if low < simple <= high and p.at(simple) == 0:
        return simple
    # The time reported for an irrational root: the decimal with the fewest digits that is still past
    # the root (within the bracket, with the root in (low, decimal]).
    digits = 0
    while True:
        scale = 10**digits
        candidate = Fraction(math.floor(high * scale), scale)  # rises to high as digits are added
        if candidate > low and _count(chain, low, candidate) > 0:
            return candidate
        digits += 1
