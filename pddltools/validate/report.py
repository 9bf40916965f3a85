"""The verdict on one plan, as data: what the CLI prints and the scorer reads."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from pddltools.diagnostics import Diagnostic
from pddltools.pddl.exact_numbers import format_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal

    Verdict = Literal["valid", "invalid", "error"]

#: Reasons a plan is not valid. `invalid` ones: the plan is read but does not work; `error` ones: the
#: file is not a plan for this task (VAL's "bad plan description"), or (`unsupported`) the plan uses a
#: construct the validator does not support, so that it cannot be judged at all.
INVALID_REASONS = ("precondition", "goal", "constraint", "invariant", "duration", "mutex", "epsilon",
                   "conflict", "undefined", "arithmetic", "unbound-variable", "event-loop", "unsettled", "zeno",
                   "unbounded")
ERROR_REASONS = ("syntax", "bad-action", "arity", "unknown-object", "type", "timing", "unreadable", "batch-line",
                 "task", "unsupported")


def happening_window(tolerance: Fraction) -> Fraction:
    """VAL's `-t T` makes one happening of the events within T/10 of its first (Plan.h, `after`)."""
    return tolerance / 10


def exact(value: int | Fraction) -> str:
    """A number exactly: `3.424` as the plan wrote it (a decimal fraction is printed in full, never
    rounded), `113/33 (3.4242424242…)` for one that has no finite decimal form."""
    shown = format_number(value)
    if shown.startswith("(/"):
        assert isinstance(value, Fraction)
        return f"{value.numerator}/{value.denominator} ({_digits(value, '.10f')}\u2026)"
    return shown


def decimal(value: int | Fraction) -> str:
    """A computed value for reading: exact when it has a finite decimal form, else ten significant
    digits (VAL prints about as many), never the six of `%g` (27.2569697 is not 27.257)."""
    shown = exact(value)
    return shown if "/" not in shown else _digits(Fraction(value), ".10g")


def _digits(value: Fraction, spec: str) -> str:
    """`format(value, spec)`, as a float prints it; past a double's range (1.8e308), where `float`
    overflows, from a Decimal quotient with all the digits the integer part needs and more."""
    try:
        return format(float(value), spec)
    except OverflowError:
        pass
    from decimal import Decimal, localcontext  # here: `decimal` costs a fresh process more than a millisecond

    with localcontext() as context:
        context.prec = len(str(abs(value.numerator) // value.denominator)) + 30
        quotient = Decimal(value.numerator) / Decimal(value.denominator)
    shown = format(quotient, spec).replace("E", "e")
    if spec.endswith("g"):  # as a float's `g`: no trailing zeros after the point
        mantissa, mark, exponent = shown.partition("e")
        if "." in mantissa:
            mantissa = mantissa.rstrip("0").rstrip(".")
        shown = mantissa + mark + exponent
    return shown


def double(value: int | Fraction) -> float:
    """The nearest double to `value`, and an infinity past a double's range (as C's `strtod`, and VAL
    with it, reads such a number): never an `OverflowError`."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def json_number(value: int | Fraction | None) -> int | float | str | None:
    """A number for JSON: an integer exactly, a fraction as its nearest double; past a double's range
    (1.8e308) a string, which JSON's numbers cannot hold otherwise here: the exact decimal, or 17
    significant digits of one that has no finite decimal form."""
    if value is None or isinstance(value, int):
        return value
    if value.denominator == 1:
        return value.numerator
    found = double(value)
    if not math.isinf(found):
        return found
    shown = format_number(value)
    return shown if not shown.startswith("(/") else _digits(value, ".17g")


@dataclass(frozen=True)
class PlanReport:
    """The validation of one plan against one task.

    `value` is the metric's value (the number of steps when the problem has no metric, as VAL gives it;
    the makespan for a temporal plan without one); `cost` the final `total-cost` (the number of steps
    when the domain has no costs). For a rejected plan, `failed_step` is the 1-based step at fault and
    `line` its line in the plan file; `unsatisfied` lists the false precondition or goal literals,
    ground; `advice` says what would have to change.
    """

    plan: str
    valid: bool
    verdict: Verdict
    reason: str | None = None
    message: str = ""
    value: int | Fraction | None = None
    length: int | None = None
    cost: int | Fraction | None = None
    makespan: int | Fraction | None = None
    failed_step: int | None = None
    line: int | None = None
    action: str | None = None
    unsatisfied: tuple[str, ...] = ()
    advice: tuple[str, ...] = ()
    violations: tuple[tuple[str, int], ...] = ()
    #: how far a temporal plan's durations may be from what their constraints compute (VAL's `-t`)
    tolerance: Fraction | None = None
    #: PDDL+: the time of the happening at which the plan failed (the end time for an unmet goal)
    failed_time: int | Fraction | None = None
    #: PDDL+: the step that approximated change that is not polynomial in time (None: computed exactly)
    delta: Fraction | None = None
    diagnostics: tuple[Diagnostic, ...] = field(default=(), compare=False)

    @property
    def happening_window(self) -> Fraction | None:
        """How close events must be to the first of a happening to be part of it: a tenth of the
        tolerance, as VAL groups them (`-t T` merges events within T/10)."""
        return happening_window(self.tolerance) if self.tolerance is not None else None

    def to_json(self) -> dict[str, Any]:
        """The JSON fields documented in the README (numbers as JSON numbers)."""
        return {
            "plan": self.plan,
            "valid": self.valid,
            "verdict": self.verdict,
            "reason": self.reason,
            "message": self.message,
            "value": json_number(self.value),
            "length": self.length,
            "cost": json_number(self.cost),
            "makespan": json_number(self.makespan),
            "failed_step": self.failed_step,
            "line": self.line,
            "action": self.action,
            "unsatisfied": list(self.unsatisfied),
            "advice": list(self.advice),
            "violations": dict(self.violations),
            "tolerance": json_number(self.tolerance),
            "happening_window": json_number(self.happening_window),
            "failed_time": json_number(self.failed_time),
            "delta": json_number(self.delta),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
