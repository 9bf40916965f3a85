"""Exact polynomials in the time since a happening, and their roots.

Between two happenings of a PDDL+ plan every fluent changed by linear processes (rates that are
constants, or fluents that themselves change at constant rates, and so on) is a polynomial in the time
`t` since the happening, with rational coefficients. A condition `e1 < e2` then changes its truth only
at a root of `e1 - e2`; finding the first root after 0 is finding when a process starts or stops, or an
event fires.

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


@dataclass(frozen=True, slots=True)
class Poly:
    """`c[0] + c[1] t + c[2] t^2 + ...`, without trailing zero coefficients (the zero polynomial is `()`)."""

    c: tuple[Fraction, ...]

    @staticmethod
    def of(coefficients: Iterable[Fraction | int]) -> Poly:
        c = [x if type(x) is Fraction else Fraction(x) for x in coefficients]
        while c and c[-1] == 0:
            c.pop()
        return Poly(tuple(c))

    @staticmethod
    def const(value: Fraction | int) -> Poly:
        return Poly.of((value,))

    @property
    def degree(self) -> int:
        return len(self.c) - 1  # -1 for the zero polynomial

    @property
    def constant(self) -> bool:
        return self.degree <= 0

    def __add__(self, other: Poly) -> Poly:
        n = max(len(self.c), len(other.c))
        return Poly.of((self.c[i] if i < len(self.c) else 0) + (other.c[i] if i < len(other.c) else 0)
                       for i in range(n))

    def __neg__(self) -> Poly:
        return Poly(tuple(-x for x in self.c))

    def __sub__(self, other: Poly) -> Poly:
        return self + (-other)

    def __mul__(self, other: Poly) -> Poly:
        if not self.c or not other.c:
            return Poly(())
        out = [Fraction(0)] * (len(self.c) + len(other.c) - 1)
        for i, a in enumerate(self.c):
            for j, b in enumerate(other.c):
                out[i + j] += a * b
        return Poly.of(out)

    def scaled(self, factor: Fraction) -> Poly:
        return Poly.of(x * factor for x in self.c)

    def integral(self, start: Fraction) -> Poly:
        """The antiderivative that is `start` at 0."""
        return Poly.of((start, *(x / (i + 1) for i, x in enumerate(self.c))))

    def derivative(self) -> Poly:
        return Poly.of(x * i for i, x in enumerate(self.c) if i)

    def at(self, t: Fraction) -> Fraction:
        total = Fraction(0)
        for x in reversed(self.c):
            total = total * t + x
        return total

    def sign_after(self, t: Fraction) -> int:
        """The sign on `(t, t + e)` for every small enough e: of the first derivative not zero at t."""
        p = self
        while p.c:
            value = p.at(t)
            if value:
                return 1 if value > 0 else -1
            p = p.derivative()
        return 0


def _sign(x: Fraction) -> int:
    return (x > 0) - (x < 0)


def _remainder(a: Poly, b: Poly) -> Poly:
    rest = list(a.c)
    while len(rest) >= len(b.c) and rest:
        factor = rest[-1] / b.c[-1]
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


def _changes(chain: Sequence[Poly], t: Fraction) -> int:
    signs = [s for s in (_sign(p.at(t)) for p in chain) if s]
    return sum(1 for a, b in pairwise(signs) if a != b)


def _square_root(x: Fraction) -> Fraction | None:
    """The rational square root of `x`, if it has one."""
    if x < 0:
        return None
    n, d = math.isqrt(x.numerator), math.isqrt(x.denominator)
    return Fraction(n, d) if n * n == x.numerator and d * d == x.denominator else None


def first_root(p: Poly, lo: Fraction, hi: Fraction) -> Fraction | None:
    """The least root of `p` in `(lo, hi]` (exact when rational and of degree at most 2; otherwise within
    `PRECISION`, on the side where `p` has already changed sign), or None. `p` must not be zero."""
    if p.degree <= 0:
        return None
    if p.degree == 1:
        root = -p.c[0] / p.c[1]
        return root if lo < root <= hi else None
    if p.degree == 2:
        c, b, a = p.c
        exact = _square_root(b * b - 4 * a * c)
        if exact is not None:
            found = sorted(r for r in ((-b - exact) / (2 * a), (-b + exact) / (2 * a)) if lo < r <= hi)
            return found[0] if found else None
        if b * b - 4 * a * c < 0:
            return None
    chain = _sturm(p)

    def count(a: Fraction, b: Fraction) -> int:  # distinct roots in (a, b] (Sturm)
        return _changes(chain, a) - _changes(chain, b)

    if count(lo, hi) <= 0:
        return None
    a, b = lo, hi  # no root in (lo, a], one at least in (a, b]
    while b - a > PRECISION:
        mid = (a + b) / 2
        if count(a, mid) > 0:
            if p.at(mid) == 0 and count(a, mid) == 1:
                return mid
            b = mid
        else:
            a = mid
    simple = b.limit_denominator(10**6)  # a rational root with a small denominator, found exactly
    if a < simple <= b and p.at(simple) == 0:
        return simple
    # The time reported for an irrational root: the decimal with the fewest digits that is still past
    # the root (within the bracket, with the root in (a, decimal]).
    digits = 0
    while True:
        scale = 10**digits
        candidate = Fraction(math.floor(b * scale), scale)  # rises to b as digits are added
        if candidate > a and count(a, candidate) > 0:
            return candidate
        digits += 1
