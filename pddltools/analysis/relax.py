"""A formula as the alternatives a relaxed reading sees: each a conjunction of literals.

Relaxed reachability (delete relaxation) only needs what must be true: the positive atoms of each
disjunct. This module rewrites a condition into negation normal form and then into its disjuncts
(`Branch`es), keeping everything else a later reader may want (negative literals for contradictions,
object (in)equalities for the join, numeric comparisons for interval analysis). What it cannot read
exactly it reads generously, never strictly: a universal quantifier, a preference, an atom over an
object fluent, or a disjunction too wide to split all count as true. So a branch may hold where the
formula does not, never the other way round, and "unreachable" stays a proof.

Needs: a parsed formula. Guarantees: every branch's atoms use the formula's own variables, the
existential ones renamed apart (`?x#2`), with their types in `variables`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import count, product
from typing import cast

from pddltools.pddl import ast
from pddltools.static_typing import assert_never

#: Beyond this many alternatives a disjunction is read as true rather than split (FD splits all of
#: them; a wider split costs more than it tells).
MAX_BRANCHES = 64


@dataclass(frozen=True, slots=True)
class Pattern:
    """An atom of a rule: a predicate and arguments, each a variable (`?x`) or an object name."""

    predicate: str
    args: tuple[str, ...]
    node: ast.Atom | None = field(default=None, compare=False, hash=False)  # where it was written

    def __str__(self) -> str:
        return "(" + " ".join((self.predicate, *self.args)) + ")"


@dataclass(frozen=True, slots=True)
class Branch:
    """One alternative of a condition: it holds when all of its parts do."""

    atoms: tuple[Pattern, ...] = ()
    negative: tuple[Pattern, ...] = ()
    equal: tuple[tuple[str, str, ast.Node], ...] = ()
    distinct: tuple[tuple[str, str, ast.Node], ...] = ()
    numeric: tuple[ast.Comparison, ...] = ()
    variables: tuple[ast.TypedName, ...] = ()  # existential, renamed apart

    def __add__(self, other: Branch) -> Branch:
        return Branch(self.atoms + other.atoms, self.negative + other.negative, self.equal + other.equal,
                      self.distinct + other.distinct, self.numeric + other.numeric,
                      self.variables + other.variables)


TRUE: tuple[Branch, ...] = (Branch(),)
FALSE: tuple[Branch, ...] = ()

_fresh = count(1)


def branches(formula: ast.Formula | None) -> tuple[Branch, ...]:
    """The disjuncts of `formula` (none: it can never hold; one empty branch: it always may)."""
    if formula is None:
        return TRUE
    return _dnf(formula, True, {})


def _term(term: ast.Node, renamed: dict[str, str]) -> str | None:
    if isinstance(term, ast.Variable):
        return renamed.get(term.name, term.name)
    if isinstance(term, ast.Constant):
        return term.name
    return None  # an object fluent: its value depends on the state


def _dnf(f: ast.Formula, positive: bool, renamed: dict[str, str]) -> tuple[Branch, ...]:
    match f:
        case ast.Atom():
            args = tuple(_term(a, renamed) for a in f.args)
            if any(a is None for a in args):
                return TRUE
            pattern = Pattern(f.predicate, args, f)  # type: ignore[arg-type]
            return (Branch(atoms=(pattern,)),) if positive else (Branch(negative=(pattern,)),)
        case ast.Not():
            return _dnf(f.body, not positive, renamed)
        case ast.And() | ast.Or():
            conjunction = isinstance(f, ast.And) == positive
            parts = [_dnf(p, positive, renamed) for p in f.parts]
            return _conjoin(parts) if conjunction else _disjoin(parts)
        case ast.Imply():  # (imply a b) is (or (not a) b)
            parts = [_dnf(f.condition, not positive, renamed), _dnf(f.consequence, positive, renamed)]
            return _disjoin(parts) if positive else _conjoin(parts)
        case ast.Exists() | ast.Forall():
            if isinstance(f, ast.Exists) != positive:  # a universal reading: generously true
                return TRUE
            inner = dict(renamed)
            variables = []
            for v in f.variables:
                fresh = f"{v.name}#{next(_fresh)}"
                inner[v.name] = fresh
                variables.append(ast.TypedName(fresh, v.type, span=v.span))
            body = _dnf(f.body, positive, inner)
            return tuple(Branch(variables=tuple(variables)) + b for b in body)
        case ast.Comparison():
            left, right = _object_term(f.left, renamed), _object_term(f.right, renamed)
            if f.op == "=" and left is not None and right is not None:
                pair = (left, right, f)
                return (Branch(equal=(pair,)),) if positive else (Branch(distinct=(pair,)),)
            if positive:
                return (Branch(numeric=(f,)),)
            return TRUE  # a negated comparison: not worth reading
        case ast.Timed():
            return _dnf(cast(ast.Formula, f.body), positive, renamed)
        case (ast.Preference() | ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter()
              | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
            return TRUE  # preferences, trajectory constraints: not conditions on a state
        case _:
            assert_never(f)


def _object_term(e: ast.Node, renamed: dict[str, str]) -> str | None:
    return _term(e, renamed) if isinstance(e, ast.Variable | ast.Constant) else None


def _conjoin(parts: list[tuple[Branch, ...]]) -> tuple[Branch, ...]:
    if any(not p for p in parts):
        return FALSE
    wide = [p for p in parts if len(p) > 1]
    total = 1
    for p in wide:
        total *= len(p)
    if total > MAX_BRANCHES:
        # keep what every alternative of a wide part needs: nothing; read the part as true
        parts = [p if len(p) == 1 else TRUE for p in parts]
    result: list[Branch] = []
    for combo in product(*parts):
        merged = Branch()
        for b in combo:
            merged = merged + b
        result.append(merged)
    return tuple(result)


def _disjoin(parts: list[tuple[Branch, ...]]) -> tuple[Branch, ...]:
    joined = tuple(b for p in parts for b in p)
    if len(joined) > MAX_BRANCHES or any(not (b.atoms or b.negative or b.equal or b.distinct or b.numeric)
                                         for b in joined):
        return TRUE  # some alternative needs nothing (or too many to split): the whole may always hold
    return joined
