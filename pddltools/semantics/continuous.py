"""PDDL+ processes and events, ground, and the continuous change of the fluents between happenings.

A running process, or a running durative action's continuous effect (PDDL 2.1 level 4), changes
fluents continuously: `(increase (f) (* #t e))` adds `e` to the rate of `f`.
From one state on, with a fixed set of running processes, `Motion` gives every changed fluent as an
exact polynomial in the time since that state, which it is whenever the rates are polynomials in fluents
that are themselves polynomials (a rate may read a fluent that changes, as speed reads acceleration, but
not in a cycle: `dv/dt = -k v` is an exponential). Anything else raises `NotPolynomial`, and the
validator then needs a step (`--delta`) to approximate the change by constant rates over each step
(`euler`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Generic, TypeVar

from pddltools.pddl import ast
from pddltools.semantics.errors import ArithmeticFault, SemanticsError, UndefinedValue, Unsupported
from pddltools.semantics.evaluate import Evaluator
from pddltools.semantics.grounding import Binding, Value
from pddltools.semantics.polynomial import Poly
from pddltools.semantics.state import FluentValue, GroundFluent, Number, State, normal, show_atom
from pddltools.static_typing import assert_never
from pddltools.syntax.frozen import fast_constructor

Happening = ast.Process | ast.Event
S = TypeVar("S")


#: The largest magnitude a double holds (VAL's arithmetic): an approximation past it has diverged.
DOUBLE_MAX = Fraction(2) ** 1024


class Unbounded(SemanticsError):
    """An approximated fluent grows past any double: the change blows up (as dx/dt = x^2 does)."""

    reason = "unbounded"


class NotPolynomial(Unsupported):
    """The change between two happenings is not a polynomial in time: it needs a step to approximate it."""


@dataclass(frozen=True, slots=True, eq=False)
class Ground:
    """A process or an event with objects for its parameters; made once per task (`ground_all`), so
    compared by identity: comparing the schemas' syntax trees would cost more than the whole step."""

    schema: Happening
    args: tuple[str, ...]
    binding: dict[str, Value] = field(compare=False, hash=False)

    @property
    def kind(self) -> str:
        return "process" if isinstance(self.schema, ast.Process) else "event"

    def __str__(self) -> str:
        return "(" + " ".join((self.schema.name, *self.args)) + ")"


def ground_all(ev: Evaluator, schemas: Sequence[Happening]) -> list[Ground]:
    return [Ground(s, tuple(str(b[p.name]) for p in s.parameters), b)
            for s in schemas for b in ev.grounder.bindings(s.parameters)]


@dataclass(frozen=True, slots=True, eq=False)
class Running:
    """A durative action of a plan between its start and its end (`step`, its number in the plan):
    its continuous effects act while it runs. Compared by identity, as `Ground`."""

    action: object  # the ground action (`GroundAction`), shown by its str
    step: int
    effect: ast.Effect
    binding: Binding = field(compare=False, hash=False)

    kind = "durative action"

    def __str__(self) -> str:
        return str(self.action)


@dataclass(frozen=True, slots=True)
class Flow:
    """One continuous effect of a running process or durative action: `fluent` changes at `sign * rate`
    per time unit."""

    fluent: GroundFluent
    sign: int
    rate: ast.Expression
    binding: Binding
    owner: Ground | Running


# Built without the frozen `__init__`: a temporal plan makes one per continuous effect of every step.
new_running = fast_constructor(Running)  # (action, step, effect, binding)
new_flow = fast_constructor(Flow)  # (fluent, sign, rate, binding, owner)


def static_reads(ev: Evaluator, node: ast.Node, b: Binding, state: State) -> frozenset[GroundFluent] | None:
    """The fluents `node` reads whatever the state (quantifiers expanded), or None when which fluents it
    reads depends on the state: a fluent's argument that is itself a fluent (an object fluent)."""
    if any(isinstance(n, ast.FunctionTerm) and any(not isinstance(a, ast.Variable | ast.Constant) for a in n.args)
           for n in node.walk()):
        return None
    return frozenset(ev.reads(node, b, state)[1])


def flows(ev: Evaluator, owner: Ground | Running, state: State) -> list[Flow]:
    """The continuous effects of a process or a running durative action, their fluents ground in `state`."""
    out: list[Flow] = []
    effect = owner.schema.effect if isinstance(owner, Ground) else owner.effect
    _flows(ev, effect, owner.binding, state, owner, out)
    return out


def _flows(ev: Evaluator, effect: ast.Effect | None, b: Binding, s: State, owner: Ground | Running,
           out: list[Flow]) -> None:
    match effect:
        case None:
            return
        case ast.AndEffect(parts=parts):
            for part in parts:
                _flows(ev, part, b, s, owner, out)
        case ast.ForallEffect(variables=variables, body=body):
            for inner in ev.grounder.bindings(variables, b):
                _flows(ev, body, inner, s, owner, out)
        case ast.Assign(op="increase" | "decrease" as op, fluent=fluent, value=value):
            out.append(Flow(ev.fluent(fluent, b, s), 1 if op == "increase" else -1, _rate(value, owner), b, owner))
        case ast.Assign() | ast.Atom() | ast.Not() | ast.When() | ast.Timed():
            raise Unsupported(f"the {owner.kind} {owner} has an effect that is not a continuous increase or "
                              f"decrease ({effect}): processes change fluents only continuously", effect.span)
        case _:
            assert_never(effect)


def _rate(value: ast.Expression, owner: Ground | Running) -> ast.Expression:
    """`e` of `(* #t e)` or `(* e #t)`; 1 for `#t` alone."""
    if isinstance(value, ast.ContinuousTime):
        return ast.Number(1)
    if isinstance(value, ast.Arithmetic) and value.op == "*":
        timeless = [a for a in value.args if not isinstance(a, ast.ContinuousTime)]
        if len(timeless) == len(value.args) - 1 and not any(
                isinstance(n, ast.ContinuousTime) for a in timeless for n in a.walk()):
            return timeless[0] if len(timeless) == 1 else ast.Arithmetic("*", tuple(timeless))
    raise Unsupported(f"the {owner.kind} {owner} changes a fluent by {value}: a continuous effect is written "
                      "(* #t RATE)", value.span)


class ClosedForm(Generic[S]):
    """The fluents a set of flows changes, from `state` on, each solved in closed form (`polys`) as a
    function of the time since: `_solve` solves one fluent once those its rate reads are solved, and
    `_cycle` fluents whose rates read each other (`solve_in_order`)."""

    def __init__(self, ev: Evaluator, state: State, running: Sequence[Flow]) -> None:
        self.ev = ev
        self.state = state
        self.by_fluent = by_fluent(running)
        self.polys: dict[GroundFluent, S] = {}
        solve_in_order(self.by_fluent, self.polys, self._solve, self._cycle)

    def _solve(self, fluent: GroundFluent, pending: set[GroundFluent]) -> S | None:
        raise NotImplementedError

    def _cycle(self, pending: list[GroundFluent]) -> None:
        raise NotImplementedError

    def key(self, expr: ast.Expression, b: Binding) -> GroundFluent | None:
        """The fluent `expr` reads, when it is one (a 0-ary function written without parentheses too)."""
        return fluent_key(self.ev, expr, b, self.state)


def fluent_key(ev: Evaluator, expr: ast.Expression, b: Binding, state: State) -> GroundFluent | None:
    """The fluent `expr` is, ground in `state`; None when it is not a fluent."""
    if isinstance(expr, ast.FunctionTerm):
        # a 0-ary fluent (most PDDL+ fluents are) is its own key: no call to ground its arguments
        return ev.fluent(expr, b, state) if expr.args else (expr.function,)
    if isinstance(expr, ast.Constant) and expr.name in ev.constant_functions:
        return (expr.name,)
    return None


class Motion(ClosedForm[Poly]):
    """The fluents a set of running processes changes, from `state` on, as polynomials in the time since."""

    def _solve(self, fluent: GroundFluent, pending: set[GroundFluent]) -> Poly | None:
        """The fluent's value as a polynomial, or None while its rate reads a fluent not solved yet."""
        try:
            rate: Poly | None = None
            for flow in self.by_fluent[fluent]:
                term = self.poly(flow.rate, flow.binding, pending)
                if flow.sign < 0:
                    term = -term
                rate = term if rate is None else rate + term
        except _Waiting:
            return None
        assert rate is not None  # every fluent here has a flow
        return rate.integral(start_value(self.state, fluent))

    def _cycle(self, pending: list[GroundFluent]) -> None:
        cycle = ", ".join(show_atom(f) for f in pending)
        raise NotPolynomial(f"the change of {cycle} is not polynomial in time: a rate depends on the "
                            "fluent it changes, directly or through others (as in dv/dt = -k v)",
                            self.by_fluent[pending[0]][0].rate.span)

    def poly(self, expr: ast.Expression, b: Binding, pending: set[GroundFluent] | None = None) -> Poly:
        """An expression as a polynomial in the time since `state`."""
        if isinstance(expr, ast.Number):
            return Poly.const(expr.value)
        key = self.key(expr, b)
        if key is not None:
            if pending and key in pending:
                raise _Waiting
            found = self.polys.get(key)
            return found if found is not None else Poly.const(start_value(self.state, key))
        if isinstance(expr, ast.Arithmetic):
            args = [self.poly(a, b, pending) for a in expr.args]
            if expr.op == "+":
                total = Poly(())
                for a in args:
                    total = total + a
                return total
            if expr.op == "-":
                return -args[0] if len(args) == 1 else args[0] - sum(args[1:], Poly(()))
            if expr.op == "*":
                product = Poly.const(1)
                for a in args:
                    product = product * a
                return product
            result = args[0]
            for a in args[1:]:
                if not a.constant:
                    raise NotPolynomial(f"{expr} divides by a quantity that changes continuously", expr.span)
                if not a.c:
                    raise ArithmeticFault(f"division by zero in {expr}")
                result = result.scaled(Fraction(1) / a.c[0])
            return result
        if isinstance(expr, ast.Variable):
            value = b.get(expr.name)
            if isinstance(value, int | Fraction):
                return Poly.const(value)
        raise NotPolynomial(f"{expr} is not a number that changes polynomially", expr.span)

    def at(self, t: Number) -> State:
        """The state `t` after the start: the changed fluents' values then, everything else as it was."""
        if not self.polys:
            return self.state
        values: dict[GroundFluent, FluentValue] = dict(self.state.values)
        values.update((k, p.at(t)) for k, p in self.polys.items())  # `at` gives an int when whole
        return State(self.state.atoms, values)  # the atoms are shared: time changes only fluents

    def difference(self, comparison: ast.Comparison, b: Binding) -> Poly:
        """`left - right`: the comparison's truth can change only where this is 0."""
        return self.poly(comparison.left, b) - self.poly(comparison.right, b)


def comparisons(ev: Evaluator, formula: ast.Formula | None, b: Binding) -> Iterator[tuple[ast.Comparison, Binding]]:
    """Every numeric comparison in `formula`, with its binding (quantifiers expanded): where a condition's
    truth can change in time."""
    match formula:
        case None:
            return
        case ast.Comparison():
            yield formula, b
        case ast.And(parts=parts) | ast.Or(parts=parts):
            for part in parts:
                yield from comparisons(ev, part, b)
        case ast.Not(body=body):
            yield from comparisons(ev, body, b)
        case ast.Imply(condition=condition, consequence=consequence):
            yield from comparisons(ev, condition, b)
            yield from comparisons(ev, consequence, b)
        case ast.Exists(variables=variables, body=body) | ast.Forall(variables=variables, body=body):
            for inner in ev.grounder.bindings(variables, b):
                yield from comparisons(ev, body, inner)
        case (ast.Atom() | ast.Preference() | ast.Timed() | ast.Always() | ast.Sometime() | ast.Within()
              | ast.AtMostOnce() | ast.SometimeAfter() | ast.SometimeBefore() | ast.AlwaysWithin()
              | ast.HoldDuring() | ast.HoldAfter()):
            return  # no comparison whose truth changes in time
        case _:
            assert_never(formula)


def by_fluent(running: Sequence[Flow]) -> dict[GroundFluent, list[Flow]]:
    """The flows grouped by the fluent they change, in the order given."""
    grouped: dict[GroundFluent, list[Flow]] = {}
    for flow in running:
        grouped.setdefault(flow.fluent, []).append(flow)
    return grouped


def solve_in_order(grouped: Mapping[GroundFluent, object], solved: dict[GroundFluent, S],
                   solve: Callable[[GroundFluent, set[GroundFluent]], S | None],
                   cycle: Callable[[list[GroundFluent]], None]) -> None:
    """Solve each changing fluent once the fluents its rate reads are solved (into `solved`, which
    `solve` reads): `solve(fluent, pending)` gives its solution, or None while its rate reads a fluent
    still pending. When none of the pending fluents can be solved their rates read each other, and
    `cycle(pending)` (sorted) solves them together or raises."""
    pending = set(grouped)
    while pending:
        progress = False
        for fluent in sorted(pending):
            found = solve(fluent, pending)
            if found is None:
                continue
            solved[fluent] = found
            pending.discard(fluent)
            progress = True
        if not progress:
            cycle(sorted(pending))
            pending.clear()


def start_value(state: State, fluent: GroundFluent) -> Number:
    """A changing fluent's value at the start of the stretch (it must be a number)."""
    found = state.values.get(fluent)
    if found is None or isinstance(found, str):
        raise UndefinedValue(show_atom(fluent))
    return found


class _Waiting(Exception):
    """A rate reads a fluent whose own change is not known yet."""


def euler(ev: Evaluator, state: State, running: Sequence[Flow], step: Fraction) -> State:
    """The state `step` later, every rate held at its value in `state` for the whole step."""
    change: dict[GroundFluent, Fraction] = {}
    for flow in running:
        change[flow.fluent] = change.get(flow.fluent, Fraction(0)) + flow.sign * ev.number(flow.rate, flow.binding,
                                                                                           state) * step
    values: dict[GroundFluent, FluentValue] = {}
    for fluent, delta in change.items():
        found = state.values.get(fluent)
        if found is None or isinstance(found, str):
            raise UndefinedValue(show_atom(fluent))
        value = found + delta
        if abs(value) >= DOUBLE_MAX:
            raise Unbounded(f"{show_atom(fluent)} grows past 1.8e308 (the largest double): the change it "
                            "approximates grows without bound")
        # Rounded to 15 significant digits (what a double holds): exact products of products grow
        # without bound over many steps, and the result is an approximation anyway.
        values[fluent] = normal(Fraction(f"{float(value):.15g}"))
    return state.with_changes((), (), values)
