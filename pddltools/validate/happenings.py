"""Which events of a temporal plan are one happening, exactly as VAL's `-t T` decides it.

VAL sorts the events (each step's start at its time, its end at time + duration, computed in doubles),
and makes one happening of the first event not yet placed and every later one whose time is not greater
than the first's plus T/10 (Plan.h, `after`: `p.first > time + tolerance / 10`). Everything else in
pddltools is exact; this decision alone is made in VAL's doubles, because at exactly T/10 apart (OPTIC
and LPG print one action 0.001 after the one before ends, which is T/10 at VAL's default -t 0.01) the
rounding of the sum decides, and a validator that would judge such plans as VAL does must round alike:
8.094 + 0.001 is 8.094999999999999 in doubles, so an event at 8.095 starts a happening of its own,
while 5.171 + 0.001 is 5.172000000000001, so an event at 5.172 joins the one at 5.171.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Protocol

from pddltools.validate.planfile import PlanFileStep
from pddltools.validate.report import double


class TimedEvent(Protocol):
    """A start, an end, an instantaneous step or a timed initial literal (`kind`), at its exact time."""

    @property
    def kind(self) -> str: ...
    @property
    def step(self) -> PlanFileStep | None: ...
    @property
    def time(self) -> Fraction: ...


def clock(event: TimedEvent) -> float:
    """An event's time as VAL computes it: the step's time, plus its duration for an end, in doubles
    (a timed initial literal's time as written); an infinity past a double's range, as VAL's `atof`."""
    step = event.step
    if step is None or step.time is None:
        return double(event.time)
    if event.kind == "end" and step.duration is not None:
        return _double(step.time) + _double(step.duration)
    return _double(step.time)


def _double(value: Fraction) -> float:
    """`double` of a plan's time or duration: its numerator over its denominator, the division
    `float(Fraction)` makes (correctly rounded) without its abstract-number dispatch."""
    try:
        return value.numerator / value.denominator
    except OverflowError:
        return double(value)


def window(tolerance: Fraction) -> float:
    """How far after the first event of a happening (VAL's clock) a later one may be to belong to it."""
    return double(tolerance) / 10


def one_happening(first: float, later: float, tolerance: Fraction) -> bool:
    """Whether an event at `later` (VAL's clock) belongs to the happening that starts at `first`."""
    return not later > first + window(tolerance)
