"""The state changes of one plan, step by step (sequential) or happening by happening (temporal).

A `Trace` is the validator's own record of its run: the sequential and temporal loops call its hooks
(`start`, then `begin` and `end` around every step or happening) with the states they computed, so
what `validate --trace` prints and `pddltools view` draws cannot disagree with the verdict. The only
semantics run here are the derived predicates of those states (to show which derived atoms changed).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pddltools.semantics import GroundedTask, State, show_atom
from pddltools.semantics.state import FluentValue, GroundAtom, Number
from pddltools.validate.planfile import Plan
from pddltools.validate.report import exact, json_number


@dataclass(frozen=True, slots=True)
class PlanStep:
    """A step as the plan wrote it: for the step table and the Gantt chart."""

    index: int
    text: str
    line: int
    time: Fraction | None
    duration: Fraction | None


@dataclass(frozen=True, slots=True)
class FluentChange:
    fluent: str
    before: FluentValue | None
    after: FluentValue

    def show(self, arrow: str = "->") -> str:
        before = "undefined" if self.before is None else show_value(self.before)
        return f"{self.fluent}: {before} {arrow} {show_value(self.after)}"


@dataclass(frozen=True, slots=True)
class Change:
    """What one step (`step` set) or one happening (`time` set) changed in the state."""

    time: Number | None
    step: int | None
    events: tuple[str, ...]
    added: tuple[str, ...]
    deleted: tuple[str, ...]
    fluents: tuple[FluentChange, ...]
    derived_added: tuple[str, ...]
    derived_deleted: tuple[str, ...]

    @property
    def where(self) -> str:
        return _where(self.time, self.step)


@dataclass(frozen=True, slots=True)
class Pending:
    """A step or happening the validator began and never finished: where the plan failed."""

    time: Number | None
    step: int | None
    events: tuple[str, ...]

    @property
    def where(self) -> str:
        return _where(self.time, self.step)


def _where(time: Number | None, step: int | None) -> str:
    return f"time {exact(time)}" if time is not None else f"step {step}"


class Trace:
    """Filled by the validator as it runs; read afterwards (`changes`, `failed_at`, `to_json`, `lines`)."""

    def __init__(self, task: GroundedTask) -> None:
        self._ev = task.evaluator
        self._has_rules = bool(task.domain.derived_predicates)
        self.steps: tuple[PlanStep, ...] = ()
        self.initial_values: dict[str, FluentValue] = {}
        self.changes: list[Change] = []
        self._before: State | None = None
        self._derived_before: frozenset[GroundAtom] = frozenset()
        self._pending: Pending | None = None

    # hooks the validator calls -------------------------------------------------------------------

    def start(self, plan: Plan, state: State) -> None:
        """The plan and its initial state (an immutable one: it is compared with later states)."""
        self.steps = tuple(PlanStep(s.index, str(s), s.line, s.time, s.duration) for s in plan.steps)
        self.initial_values = {show_atom(k): v for k, v in sorted(state.values.items())}
        self._before = state
        self._derived_before = self._derived(state)

    def begin(self, time: Number | None, step: int | None, events: Sequence[str]) -> None:
        self._pending = Pending(time, step, tuple(events))

    def end(self, state: State) -> None:
        """The state after the step or happening last begun."""
        before, pending = self._before, self._pending
        assert before is not None and pending is not None, "begin() comes before end()"
        derived = self._derived(state)
        fluents = tuple(FluentChange(show_atom(k), before.values.get(k), v) for k, v in sorted(state.values.items())
                        if before.values.get(k) != v)
        self.changes.append(Change(
            pending.time, pending.step, pending.events, _shown(state.atoms - before.atoms),
            _shown(before.atoms - state.atoms), fluents, _shown(derived - self._derived_before),
            _shown(self._derived_before - derived)))
        self._before, self._derived_before, self._pending = state, derived, None

    # reading it ----------------------------------------------------------------------------------

    @property
    def failed_at(self) -> Pending | None:
        """The step or happening at which validation stopped, or None when every one was applied."""
        return self._pending

    def _derived(self, state: State) -> frozenset[GroundAtom]:
        return frozenset(self._ev.derived(state)) if self._has_rules else frozenset()

    def to_json(self) -> dict[str, Any]:
        failed = self._pending
        return {
            "initial_values": {k: _json_value(v) for k, v in self.initial_values.items()},
            "changes": [{
                "time": _json_value(c.time), "step": c.step, "events": list(c.events), "added": list(c.added),
                "deleted": list(c.deleted),
                "fluents": [{"fluent": f.fluent, "before": _json_value(f.before), "after": _json_value(f.after)}
                            for f in c.fluents],
                "derived_added": list(c.derived_added), "derived_deleted": list(c.derived_deleted),
            } for c in self.changes],
            "failed_at": None if failed is None else {"time": _json_value(failed.time), "step": failed.step,
                                                      "events": list(failed.events)},
        }

    def lines(self) -> Iterator[str]:
        """The trace as plain text, one block per step or happening."""
        for c in self.changes:
            yield f"{c.where}: {'; '.join(c.events)}"
            yield from (f"  + {atom}" for atom in c.added)
            yield from (f"  - {atom}" for atom in c.deleted)
            yield from (f"  {f.show()}" for f in c.fluents)
            yield from (f"  + {atom} (derived)" for atom in c.derived_added)
            yield from (f"  - {atom} (derived)" for atom in c.derived_deleted)
        failed = self._pending
        if failed is not None:
            yield f"{failed.where}: {'; '.join(failed.events)}: the plan fails here"


def _shown(atoms: frozenset[GroundAtom] | set[GroundAtom] | Any) -> tuple[str, ...]:
    return tuple(show_atom(a) for a in sorted(atoms))


def show_value(value: FluentValue) -> str:
    """A fluent's value exactly (an object fluent's object as it is)."""
    return value if isinstance(value, str) else exact(value)


def _json_value(value: FluentValue | None) -> int | float | str | None:
    return json_number(value) if isinstance(value, Fraction) else value
