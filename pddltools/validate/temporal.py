"""Temporal plans (PDDL 2.1 level 3): happenings in time order, invariants, mutex and epsilon.

Every durative step becomes a start event at its time and an end event at time + duration; timed
initial literals are events too. Events at most a tenth of the tolerance after the first of a
happening belong to it, as VAL's `-t` groups them (`pddltools.validate.happenings`): their conditions
are read in the state before it and their effects applied together, so they must not interfere
(`pddltools.semantics.temporal.interference`). Interfering events in different happenings must be at
least epsilon apart (by default that same tenth, which separate happenings always are). The `over all`
conditions of an action must hold in every state strictly inside its interval: after each happening,
for every action that has started and not yet ended.

A plan's durations are compared with what the duration constraints compute within a tolerance (VAL's
`-t`, default 0.01; `duration_meets`): planners print rounded durations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from pddltools.diagnostics import error
from pddltools.pddl import ast
from pddltools.semantics import (
    Effects,
    Footprint,
    GroundAction,
    GroundedTask,
    SemanticsError,
    Split,
    State,
    Unsatisfied,
    apply,
    collect,
    ground,
    interference,
    split,
    state_violations,
)
from pddltools.semantics.grounding import Binding
from pddltools.semantics.state import Number, normal
from pddltools.semantics.temporal import DEFAULT_TOLERANCE, duration_meets, loosened
from pddltools.validate.advice import advise
from pddltools.validate.happenings import clock, one_happening
from pddltools.validate.planfile import Plan, PlanError, PlanFileStep
from pddltools.validate.report import PlanReport, exact, happening_window
from pddltools.validate.resolve import resolve
from pddltools.validate.verdict import finish, invalid_step, merged_too_close

if TYPE_CHECKING:
    from pddltools.validate.trace import Trace


@dataclass(slots=True)
class Event:
    time: Fraction
    kind: str  # "start", "end", "action" (instantaneous) or "til"
    step: PlanFileStep | None = None
    action: GroundAction | None = None
    parts: Split | None = None
    til: ast.InitElement | None = None
    footprint: Footprint = field(default_factory=lambda: Footprint(""))

    @property
    def label(self) -> str:
        if self.step is None:
            return f"the timed initial literal {self.til} at {exact(self.time)}"
        where = "" if self.kind == "action" else f" ({self.kind})"
        return f"step {self.step.index} {self.action}{where}"


def _events(task: GroundedTask, plan: Plan, actions: list[GroundAction]) -> list[Event]:
    events: list[Event] = []
    for step, action in zip(plan.steps, actions, strict=True):
        if step.time is None:
            raise PlanError("timing", error("V006", f"step {step.index}: a temporal plan gives each step a start "
                                            "time, 'time: (action ...)'", step.span), step.index)
        if isinstance(action.schema, ast.DurativeAction):
            parts = split(action.schema)
            assert step.duration is not None
            if step.duration <= 0:
                # PDDL 2.1 durations are positive: a start and its end are distinct happenings
                raise _NonPositive(step)
            events.append(Event(step.time, "start", step, action, parts))
            events.append(Event(step.time + step.duration, "end", step, action, parts))
        else:
            events.append(Event(step.time, "action", step, action))
    for til in task.timed_literals:
        events.append(Event(Fraction(til.time), "til", til=til.element))
    # at one time: ends before starts only for readability of reports; they are applied together
    order = {"end": 0, "til": 1, "action": 2, "start": 3}
    events.sort(key=lambda e: (e.time, order[e.kind], e.step.index if e.step else 0))
    return events


class _NonPositive(Exception):
    def __init__(self, step: PlanFileStep) -> None:
        self.step = step


def _conditions(event: Event) -> list[ast.Formula]:
    if event.kind == "action":
        assert event.action is not None and isinstance(event.action.schema, ast.Action)
        pre = event.action.schema.precondition
        return [pre] if pre is not None else []
    if event.parts is None:
        return []
    found = [event.parts.conditions.get(event.kind)]
    return [f for f in found if f is not None]


def _effect(event: Event) -> ast.Effect | None:
    if event.kind == "action":
        assert event.action is not None
        return event.action.schema.effect
    if event.parts is None:
        return None
    return event.parts.effects.get(event.kind)


def _effect_reads(task: GroundedTask, effect: ast.Node, b: Binding, s: State, fp: Footprint) -> None:
    ev = task.evaluator
    if isinstance(effect, ast.AndEffect):
        for part in effect.parts:
            _effect_reads(task, part, b, s, fp)
    elif isinstance(effect, ast.ForallEffect):
        for inner in ev.grounder.bindings(effect.variables, b):
            _effect_reads(task, effect.body, inner, s, fp)
    elif isinstance(effect, ast.When):
        atoms, fluents = ev.reads(effect.condition, b, s)
        fp.read_atoms |= atoms
        fp.read_fluents |= fluents
        _effect_reads(task, effect.body, b, s, fp)
    elif isinstance(effect, ast.Assign):
        atoms, fluents = ev.reads(effect.value, b, s)
        fp.read_atoms |= atoms
        fp.read_fluents |= fluents
    elif isinstance(effect, ast.Timed):
        _effect_reads(task, effect.body, b, s, fp)


def _duration_fault(task: GroundedTask, constraint: ast.Formula, event: Event, state: State,
                    tolerance: Fraction) -> list[Unsatisfied]:
    """The parts of a duration constraint the step's duration does not meet within the tolerance, each
    with the duration as written and the value required, exactly."""
    assert event.action is not None and event.step is not None and event.step.duration is not None
    ev, b, given = task.evaluator, event.action.binding, event.step.duration
    faults: list[Unsatisfied] = []
    parts = constraint.parts if isinstance(constraint, ast.And) else (constraint,)
    for part in parts:
        if isinstance(part, ast.Comparison) and _is_duration(part.left) != _is_duration(part.right):
            op, other = (part.op, part.right) if _is_duration(part.left) else (_MIRROR[part.op], part.left)
            required = ev.number(other, b, state)
            if not duration_meets(op, given, required, tolerance):
                faults.append(Unsatisfied(str(ground(part, {k: v for k, v in b.items() if k != "?duration"})),
                                          note=f"?duration is {exact(given)}, required {op} {exact(required)}, "
                                               f"difference {exact(abs(given - required))}"))
        elif not ev.holds(part, b, state):
            faults.extend(ev.explain(part, b, state))
    return faults


_MIRROR = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _is_duration(node: ast.Expression) -> bool:
    return isinstance(node, ast.Variable) and node.name == "?duration"


def _numeric(task: GroundedTask) -> Callable[[ast.Expression], bool]:
    """Whether an expression stands for a number (not an object) in this task."""
    constants = task.evaluator.constant_functions

    def numeric(node: ast.Expression) -> bool:
        if isinstance(node, ast.FunctionTerm):
            declared = task.functions.get(node.function)
            kind = declared.type if declared is not None else None
            return kind is None or (isinstance(kind, ast.TypeName) and kind.name == "number")
        if isinstance(node, ast.Variable):
            return node.name == "?duration"
        if isinstance(node, ast.Constant):
            return node.name in constants
        return True  # numbers and arithmetic
    return numeric


def _holds(task: GroundedTask, numeric: Callable[[ast.Expression], bool], formula: ast.Formula, binding: Binding,
           state: State) -> bool:
    """A condition as VAL reads it: exactly, or else with every numeric comparison within VAL's fixed
    slack (`COMPARISON_SLACK`), which a rounded duration's effects can need. Loosened only when the
    exact reading fails: the exact one is the common case and costs no rewriting."""
    ev = task.evaluator
    return ev.holds(formula, binding, state) or ev.holds(loosened(formula, numeric), binding, state)


def validate_temporal(task: GroundedTask, plan: Plan, name: str, epsilon: Fraction | None = None,
                      tolerance: Fraction = DEFAULT_TOLERANCE, recorder: Trace | None = None) -> PlanReport:
    """Validate a temporal plan; `recorder`, when given, is told every happening as it is applied.
    `epsilon` None: a tenth of the tolerance, the window of VAL's happenings."""
    report = _validate(task, plan, name, happening_window(tolerance) if epsilon is None else epsilon, tolerance,
                       recorder)
    return replace(report, tolerance=tolerance)


def _validate(task: GroundedTask, plan: Plan, name: str, epsilon: Fraction, tolerance: Fraction,
              recorder: Trace | None) -> PlanReport:
    actions = resolve(task, plan)
    try:
        events = _events(task, plan, actions)
    except _NonPositive as exc:
        given = exact(exc.step.duration or 0)
        return invalid_step(name, plan, exc.step, "duration",
                            f"step {exc.step.index} {exc.step}: the duration {given} is not positive")
    ev = task.evaluator
    numeric = _numeric(task)
    state = task.initial_state()
    if recorder is not None:
        recorder.start(plan, state)
    trajectory: list[tuple[Number, State]] = [(0, state)]
    violations: Counter[str] = Counter()
    active: dict[int, Event] = {}  # step index -> its start event, while the action runs
    recent: list[tuple[Fraction, list[Event]]] = []  # happenings less than epsilon ago
    makespan: Number = 0
    i = 0
    while i < len(events):
        now = events[i].time
        happening: list[Event] = []
        opened = clock(events[i])
        while i < len(events) and one_happening(opened, clock(events[i]), tolerance):  # VAL's grouping
            happening.append(events[i])
            i += 1
        if recorder is not None:
            recorder.begin(normal(now), next((e.step.index for e in happening if e.step), None),
                           [e.label for e in happening])
        try:
            # 1. footprints and effects, read in the state before the happening
            merged = Effects()
            for event in happening:
                fp = Footprint(event.label)
                if event.til is not None:
                    task.apply_init_element(event.til, fp.effects)
                else:
                    assert event.action is not None
                    b = event.action.binding
                    for condition in _conditions(event):
                        atoms, fluents = ev.reads(condition, b, state)
                        fp.read_atoms |= atoms
                        fp.read_fluents |= fluents
                    effect = _effect(event)
                    if effect is not None:
                        collect(ev, effect, b, state, fp.effects)
                        _effect_reads(task, effect, b, state, fp)
                event.footprint = fp
                merged.merge(fp.effects)
            # 2. mutex inside the happening, then epsilon separation from the happenings just before
            for k, a in enumerate(happening):
                for other in happening[k + 1:]:
                    why = interference(a.footprint, other.footprint)
                    if why and other.time != a.time:
                        return merged_too_close(name, plan, other.step or a.step, why, other.time - a.time, tolerance)
                    if why:
                        culprit = a if a.step is not None else other
                        return invalid_step(name, plan, culprit.step, "mutex",
                                            f"at time {exact(now)}: {why}, so they cannot happen "
                                            "at the same time")
            recent = [(t, es) for t, es in recent if now - t < epsilon]
            for t, earlier in recent:
                for a in earlier:
                    for other in happening:
                        why = interference(a.footprint, other.footprint)
                        if why:
                            culprit = other if other.step is not None else a
                            return invalid_step(name, plan, culprit.step, "epsilon",
                                                f"{why}, and they are only {exact(now - t)} apart "
                                                f"(interfering events must be at least {exact(epsilon)} "
                                                "apart)")
            recent.append((now, happening))
            # 3. conditions and duration constraints, in the state before the happening
            for event in happening:
                if event.step is None or event.action is None:
                    continue
                b = event.action.binding
                if event.parts is not None and event.kind in event.parts.duration:
                    unmet = _duration_fault(task, event.parts.duration[event.kind], event, state, tolerance)
                    if unmet:
                        return invalid_step(name, plan, event.step, "duration",
                                            f"{event.label}: the duration {exact(event.step.duration or 0)} "
                                            "does not meet the action's duration constraint within the "
                                            f"tolerance {exact(tolerance)}", unmet)
                for condition in _conditions(event):
                    if not _holds(task, numeric, condition, b, state):
                        unsatisfied = ev.explain(condition, b, state)
                        return invalid_step(name, plan, event.step, "precondition",
                                            f"{event.label}: the condition is not satisfied", unsatisfied,
                                            advise(unsatisfied, f"before time {exact(now)}"))
                    violations.update(state_violations(ev, condition, b, state))
            # 4. apply the happening
            state = apply(state, merged)
            trajectory.append((normal(now), state))
            for event in happening:
                if event.kind == "start" and event.step is not None:
                    active[event.step.index] = event
                elif event.kind == "end" and event.step is not None:
                    active.pop(event.step.index, None)
                if event.step is not None:
                    makespan = max(makespan, normal(now))
            # 5. invariants of the running actions, in the state after the happening
            for started in active.values():
                assert started.parts is not None and started.action is not None and started.step is not None
                invariant = started.parts.conditions.get("all")
                if invariant is not None and not _holds(task, numeric, invariant, started.action.binding, state):
                    broken: list[Unsatisfied] = ev.explain(invariant, started.action.binding, state)
                    return invalid_step(name, plan, started.step, "invariant",
                                        f"{started.label}: its over-all condition is broken at time "
                                        f"{exact(now)}", broken,
                                        advise(broken, f"while step {started.step.index} runs"))
            if recorder is not None:  # after the invariants: a happening that breaks one is where it failed
                recorder.end(state)
        except SemanticsError as exc:
            first = next((e for e in happening if e.step is not None), None)
            return invalid_step(name, plan, first.step if first else None, exc.reason,
                                f"at time {exact(now)}: {exc}", cause=exc)
    return finish(task, plan, name, state, trajectory, violations, makespan, temporal=True,
                  loosen=lambda goal: loosened(goal, numeric))
