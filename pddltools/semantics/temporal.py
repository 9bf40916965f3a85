"""Temporal semantics (PDDL 2.1 level 3): durative actions split into their start and end, duration
constraints, and the mutual exclusion of events that happen together.

A durative action `a` over [t, t + d] is two instantaneous events: `a-start` at t (conditions
`at start`, effects `at start`) and `a-end` at t + d (`at end`), with the `over all` conditions an
invariant on every state strictly between them, and its continuous effects (PDDL 2.1 level 4,
`(increase (f) (* #t e))` outside any `at`) acting on the fluents from its start to its end. Two
events at the same time (or closer than epsilon) must not interfere (Fox and Long's no-moving-targets
rule): neither may change an atom or fluent the other reads or changes, except that two additive
updates (`increase`/`decrease`) of one fluent commute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from pddltools.pddl import ast
from pddltools.semantics.apply import Effects
from pddltools.semantics.errors import Unsupported
from pddltools.semantics.state import GroundAtom, GroundFluent, Number, show_atom

TIMES = ("start", "all", "end")

def duration_meets(op: str, given: Number, required: Number, tolerance: Number) -> bool:
    """Whether a plan's duration `given` meets `(op ?duration required)` within `tolerance`, as VAL's
    duration check reads it: `=` when they differ by less than the tolerance, `<=` and `>=` when the
    excess is at most the tolerance; `<` and `>` stay strict (a bound that is itself excluded). Planners
    print durations rounded (3.424 for 678/198), which exact comparison would reject."""
    excess = Fraction(given) - Fraction(required)
    if op == "=":
        return abs(excess) < tolerance
    if op == "<=":
        return excess <= tolerance
    if op == ">=":
        return -excess <= tolerance
    return excess < 0 if op == "<" else excess > 0


@dataclass(frozen=True, slots=True)
class Split:
    """A durative action's conditions and effects by time: `start`, `all` (invariant) and `end`; its
    continuous effects apart, as they act over the whole interval."""

    conditions: Mapping[str, ast.Formula]
    effects: Mapping[str, ast.Effect]
    duration: Mapping[str, ast.Formula]
    continuous: ast.Effect | None = None


def split(action: ast.DurativeAction) -> Split:
    """Split conditions, effects and duration constraints by their time specifier."""
    conditions = {t: ast.And(tuple(parts)) for t, parts in _split_formula(action.condition).items() if parts}
    split_effects = _split_effect(action.effect)
    continuous = split_effects.pop(CONTINUOUS)
    effects = {t: ast.AndEffect(tuple(parts)) for t, parts in split_effects.items() if parts}
    duration = {t: ast.And(tuple(parts)) for t, parts in _split_formula(action.duration).items() if parts}
    return Split(conditions, effects, duration, ast.AndEffect(tuple(continuous)) if continuous else None)


#: How far VAL lets every numeric comparison of a condition or goal miss, whatever its `-t` says
#: (Proposition.cpp, `Comparison::evaluateAtPointError`: `tooSmall = 0.0001`). Rounded durations feed
#: fluents (`(increase (energy ?r) (* ?duration (recharge-rate ?r)))`) that later conditions compare.
COMPARISON_SLACK = Fraction(1, 10000)


def loosened(formula: ast.Formula, numeric: Callable[[ast.Expression], bool],
             slack: Fraction = COMPARISON_SLACK) -> ast.Formula:
    """`formula` with each comparison of two numeric expressions widened by `slack` as VAL reads it:
    `(>= a b)` as `(>= (+ a slack) b)`, `(< a b)` as `(< a (+ b slack))`, `(= a b)` as both strict."""
    if isinstance(formula, ast.Comparison):
        if not (numeric(formula.left) and numeric(formula.right)):
            return formula  # objects compare exactly
        by = ast.Number(slack)
        up_left = ast.Arithmetic("+", (formula.left, by))
        up_right = ast.Arithmetic("+", (formula.right, by))
        if formula.op in (">=", ">"):
            return ast.Comparison(formula.op, up_left, formula.right)
        if formula.op in ("<=", "<"):
            return ast.Comparison(formula.op, formula.left, up_right)
        return ast.And((ast.Comparison("<", formula.left, up_right), ast.Comparison(">", up_left, formula.right)))
    # anything else: the same node over loosened parts (leaves such as atoms come back unchanged)
    return formula.map_children(
        lambda part: loosened(part, numeric, slack) if isinstance(part, ast.Formula) else part)


def _split_formula(node: ast.Formula | None, default: str = "start") -> dict[str, list[ast.Formula]]:
    out: dict[str, list[ast.Formula]] = {t: [] for t in TIMES}
    if node is None:
        return out
    if isinstance(node, ast.And):
        for part in node.parts:
            for t, parts in _split_formula(part, default).items():
                out[t].extend(parts)
    elif isinstance(node, ast.Timed):
        out[node.time].append(node.body)  # type: ignore[arg-type]
    elif isinstance(node, ast.Forall):
        for t, parts in _split_formula(node.body, default).items():
            if parts:
                out[t].append(ast.Forall(node.variables, ast.And(tuple(parts))))
    elif isinstance(node, ast.Preference):
        for t, parts in _split_formula(node.body, default).items():
            if parts:
                out[t].append(ast.Preference(node.name, ast.And(tuple(parts))))
    else:
        out[default].append(node)
    return out


#: The key of `_split_effect`'s continuous effects (the `#t` ones, over the whole interval).
CONTINUOUS = "continuous"


def _is_continuous(node: ast.Node) -> bool:
    return any(isinstance(n, ast.ContinuousTime) for n in node.walk())


def _split_effect(node: ast.Effect | None) -> dict[str, list[ast.Effect]]:
    out: dict[str, list[ast.Effect]] = {t: [] for t in (*TIMES, CONTINUOUS)}
    if node is None:
        return out
    if isinstance(node, ast.AndEffect):
        for part in node.parts:
            for t, parts in _split_effect(part).items():
                out[t].extend(parts)
    elif isinstance(node, ast.Timed):
        if node.time == "all":
            raise Unsupported("an `over all` effect is not PDDL 2.1", node.span)
        if _is_continuous(node):
            raise Unsupported(f"{node} uses #t in an effect at a time point: a continuous effect acts over the "
                              "whole interval and is written outside `at start`/`at end`", node.span)
        out[node.time].append(node.body)  # type: ignore[arg-type]
    elif isinstance(node, ast.ForallEffect):
        for t, parts in _split_effect(node.body).items():
            if parts:
                out[t].append(ast.ForallEffect(node.variables, ast.AndEffect(tuple(parts))))
    elif isinstance(node, ast.When):
        conditions = {t: parts for t, parts in _split_formula(node.condition).items() if parts}
        bodies = {t: parts for t, parts in _split_effect(node.body).items() if parts}
        if len(bodies) != 1 or any(t not in ("start", "end") for t in conditions):
            raise Unsupported("a conditional effect whose condition or effect spans several times", node.span)
        (when, parts), = bodies.items()
        if any(t != when for t in conditions):
            # `(when (at start c) (at end e))`: the condition is read at the end here, which VAL does too
            # only when c is not changed in between; say so rather than guess.
            raise Unsupported("a conditional effect whose condition and effect are at different times", node.span)
        condition = ast.And(tuple(f for fs in conditions.values() for f in fs))
        out[when].append(ast.When(condition, ast.AndEffect(tuple(parts))))
    elif isinstance(node, ast.Assign) and _is_continuous(node):
        out[CONTINUOUS].append(node)
    else:
        out["start"].append(node)
    return out


@dataclass(slots=True)
class Footprint:
    """What one event reads (its conditions) and writes (its effects), ground."""

    label: str
    read_atoms: set[GroundAtom] = field(default_factory=set)
    read_fluents: set[GroundFluent] = field(default_factory=set)
    effects: Effects = field(default_factory=Effects)


def interference(a: Footprint, b: Footprint) -> str | None:
    """Why two events may not happen at the same time, or None when they commute."""
    for x, y in ((a, b), (b, a)):
        touched = x.read_atoms & y.effects.written_atoms
        if touched:
            return f"{y.label} changes {show_atom(min(touched))}, which {x.label} reads"
        read = x.read_fluents & y.effects.written_fluents()
        if read:
            return f"{y.label} changes {show_atom(min(read))}, which {x.label} reads"
    for x, y in ((a, b), (b, a)):
        clash = x.effects.adds & y.effects.deletes
        if clash:
            return f"{x.label} adds {show_atom(min(clash))} and {y.label} deletes it"
    both = a.effects.written_fluents() & b.effects.written_fluents()
    commuting = a.effects.written_fluents(additive_only=True) & b.effects.written_fluents(additive_only=True)
    if both - commuting:
        return f"{a.label} and {b.label} both change {show_atom(min(both - commuting))}"
    return None
