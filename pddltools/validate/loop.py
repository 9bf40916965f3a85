"""The happening loop: every plan, sequential, temporal, PDDL+ or PDDL3, is validated by `run` below.

A plan is a sequence of happenings, each a set of events (a step, a durative action's start or end, a
timed initial literal) that happen together. At each happening the loop lets time pass up to it, reads
every event's conditions in the state before it, collects their effects in that same state, applies
them together, and checks what must hold after. What differs from plan to plan is the kind of time
the happenings are in, which is a model the loop is given (`Time`):

- discrete steps (`Steps`, here): one happening per step, at its index, with nothing changing between
  two steps;
- a timeline (`pddltools.validate.temporal.Timeline`): events at exact times, grouped into happenings
  as VAL's `-t` groups them, which must not interfere, with durative actions' invariants, and, where
  anything changes between happenings (processes, events, continuous effects), a world that runs each
  stretch (`pddltools.validate.pddlplus._World`);
- PDDL+ instants (`pddltools.validate.pddlplus.Instants`): timed instantaneous actions beside processes
  and events, as VAL reads PDDL+ plans.

Where the events of a happening may interfere (a timeline), their effects and what they read are
collected before their conditions are read, as VAL does; elsewhere conditions come first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from pddltools.pddl import ast
from pddltools.semantics import Effects, GroundAction, GroundedTask, SemanticsError, State, state_violations
from pddltools.semantics.apply import apply, no_effects, resolve
from pddltools.semantics.state import Number
from pddltools.syntax.frozen import fast_constructor
from pddltools.validate.advice import advise
from pddltools.validate.planfile import Plan, PlanFileStep
from pddltools.validate.report import PlanReport, exact
from pddltools.validate.resolve import resolve as resolve_steps
from pddltools.validate.verdict import finish, invalid_step

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.semantics import Footprint, Split
    from pddltools.semantics.compiled import Collect, Holds
    from pddltools.validate.trace import Trace


@dataclass(slots=True)
class Event:
    """One thing that happens: a step (`action`), a durative step's `start` or `end`, or a timed initial
    literal (`til`), at `time` (a step's index, for discrete steps)."""

    time: Fraction
    kind: str  # "start", "end", "action" (instantaneous) or "til"
    step: PlanFileStep | None = None
    action: GroundAction | None = None
    parts: Split | None = None
    til: ast.InitElement | None = None
    # set at its happening: what it changes (and, on a timeline, what it reads, for interference)
    effects: Effects | None = None
    footprint: Footprint | None = None
    # its conditions with their tests, and its compiled effect (`Time.checks`), once looked up
    compiled: tuple[list[tuple[ast.Formula, Holds]], Collect | None] | None = None

    @property
    def label(self) -> str:
        if self.step is None:
            return f"the timed initial literal {self.til} at {exact(self.time)}"
        where = "" if self.kind == "action" else f" ({self.kind})"
        return f"step {self.step.index} {self.action}{where}"

    def conditions(self) -> list[ast.Formula]:
        """What must hold in the state before the event: a step's precondition, a start's or end's
        `at start` / `at end` conditions."""
        if self.kind == "action":
            assert self.action is not None and isinstance(self.action.schema, ast.Action)
            pre = self.action.schema.precondition
            return [pre] if pre is not None else []
        if self.parts is None:
            return []
        found = self.parts.conditions.get(self.kind)
        return [found] if found is not None else []

    def effect(self) -> ast.Effect | None:
        if self.kind == "action":
            assert self.action is not None
            return self.action.schema.effect
        if self.parts is None:
            return None
        return self.parts.effects.get(self.kind)


# Built without the dataclass's `__init__` and its defaults: a plan makes one or two per step.
new_event = fast_constructor(Event)  # (time, kind, step, action, parts, til, effects, footprint, compiled)


class Time:
    """The kind of time a plan's happenings are in: what the loop asks at each of them. This base is
    the part every kind shares; `Steps` is discrete time."""

    #: whether the events of a happening, and of happenings close together, must not interfere
    concurrent = False
    #: whether an event may fail for more than its conditions (`admit`: a durative step's duration)
    admits = False
    #: whether anything must hold after a happening (`after`: running actions' invariants)
    lasting = False

    def __init__(self, task: GroundedTask, plan: Plan, name: str, recorder: Trace | None) -> None:
        self.task = task
        self.plan = plan
        self.name = name
        self.recorder = recorder
        self.ev = task.evaluator
        self.actions = resolve_steps(task, plan)
        self.soft: frozenset[str] = frozenset()
        #: whether `begin` has anything to do (told to the recorder, in every kind of time)
        self.begins = recorder is not None
        self._checks: dict[tuple[int, str], tuple[GroundAction | None, list[tuple[ast.Formula, Holds]],
                                                  Collect | None]] = {}

    def proven(self) -> State | None:
        """The final state (closed, `close`) of a plan this kind of time shows valid up to its goal at
        once, without a happening at a time (a long plan of a kind it can judge so); None when it does
        not, before anything is changed or told to the recorder: the happenings are then read in turn."""
        return None

    def start(self) -> State:
        """The initial state, told to the recorder."""
        raise NotImplementedError

    def happenings(self) -> Iterator[tuple[Number, list[Event]]]:
        """The happenings in order, each with its time."""
        raise NotImplementedError

    def elapse(self, state: State, now: Number, happening: list[Event]) -> State:
        """The state once time has passed up to `now` (nothing changes between discrete steps)."""
        return state

    def begin(self, now: Number, happening: list[Event], state: State) -> None:
        """The happening starts (in `state`, the state before it)."""

    def checks(self, event: Event) -> tuple[list[tuple[ast.Formula, Holds]], Collect | None]:
        """The event's conditions, each with its test (`test`), and its compiled effect: looked up once
        per distinct ground action (by identity: `resolve` shares one per distinct step) and kind."""
        compiled = event.compiled
        if compiled is not None:
            return compiled
        action = event.action
        key = (id(action), event.kind)
        found = self._checks.get(key)
        if found is None or found[0] is not action:  # not the action of another step, gone since
            effect = event.effect() if action is not None else None
            found = self._checks[key] = (action, [(c, self.test(c)) for c in event.conditions()],
                                         self.ev.effect(effect) if effect is not None else None)
        compiled = event.compiled = (found[1], found[2])
        return compiled

    def test(self, formula: ast.Formula) -> Holds:
        """How a condition is read: exactly, by its compiled meaning."""
        return self.ev.compiled(formula)

    def collect(self, event: Event, state: State) -> Effects:
        """The event's effects, read in the state before its happening."""
        out = Effects()
        if event.til is not None:
            self.task.apply_init_element(event.til, out)
        else:
            assert event.action is not None
            effect = self.checks(event)[1]
            if effect is not None:
                effect(event.action.binding, state, out)
        return out

    def interfere(self, now: Number, happening: list[Event], state: State) -> PlanReport | None:
        """Why the happening's events may not happen together or so soon after the ones before (only
        where they may interfere: `concurrent`)."""
        return None

    def admit(self, event: Event, now: Number, state: State) -> PlanReport | None:
        """A fault of the event other than its conditions (a durative step's duration)."""
        return None

    def unmet(self, event: Event, formula: ast.Formula, now: Number, state: State) -> PlanReport:
        """The report of an event whose condition is false."""
        raise NotImplementedError

    def apply(self, now: Number, happening: list[Event], merged: Effects, state: State) -> State:
        """The state after the happening's effects (and what follows at once from them)."""
        raise NotImplementedError

    def after(self, now: Number, happening: list[Event], state: State) -> PlanReport | None:
        """What must hold after the happening (running actions' invariants)."""
        return None

    def close(self, state: State) -> State:
        """The state at the plan's end, after its last happening."""
        return state

    def fault(self, exc: SemanticsError, now: Number, happening: list[Event]) -> PlanReport:
        """The report of a failure the semantics raised at the happening."""
        raise NotImplementedError

    def finish(self, state: State, violations: Counter[str]) -> PlanReport:
        """The goal, the constraints and the value, in the final state."""
        raise NotImplementedError


def run(time: Time) -> PlanReport:
    """Validate a plan in the kind of time `time` gives: the one loop over its happenings."""
    ev, soft, admits, concurrent, checks = time.ev, time.soft, time.admits, time.concurrent, time.checks
    elapse, enact = time.elapse, time.apply
    begin = time.begin if time.begins else None
    after = time.after if time.lasting else None
    violations: Counter[str] = Counter()
    now: Number = 0
    happening: list[Event] = []
    proven = time.proven()
    if proven is not None:
        return time.finish(proven, violations)
    try:
        state = time.start()
        for now, happening in time.happenings():
            state = elapse(state, now, happening)
            if begin is not None:
                begin(now, happening, state)
            if concurrent:  # what each event writes and reads, before any condition (VAL's order)
                for event in happening:
                    event.effects = time.collect(event, state)
                failed = time.interfere(now, happening, state)
                if failed is not None:
                    return failed
            for event in happening:
                action = event.action
                if action is None or event.step is None:
                    continue  # a timed initial literal has no conditions
                if admits:
                    failed = time.admit(event, now, state)
                    if failed is not None:
                        return failed
                binding = action.binding
                for condition, test in (event.compiled or checks(event))[0]:
                    if not test(binding, state):
                        return time.unmet(event, condition, now, state)
                    if soft and action.schema.name in soft:
                        violations.update(state_violations(ev, condition, binding, state))
            if len(happening) == 1:  # the usual happening: its one event's effects, not a merged copy
                only = happening[0]
                merged = only.effects if only.effects is not None else _collect(time, only, state)
                only.effects = merged
            else:
                merged = Effects()
                for event in happening:
                    if event.effects is None:
                        event.effects = _collect(time, event, state)
                    merged.merge(event.effects)
            state = enact(now, happening, merged, state)
            if after is not None:
                failed = after(now, happening, state)
                if failed is not None:
                    return failed
        state = time.close(state)
    except SemanticsError as exc:
        return time.fault(exc, now, happening)
    return time.finish(state, violations)


def _collect(time: Time, event: Event, state: State) -> Effects:
    """An event's effects where nothing interferes (`Time.collect` without a footprint)."""
    effect = (event.compiled or time.checks(event))[1]
    out = no_effects()
    if effect is not None:
        assert event.action is not None
        effect(event.action.binding, state, out)
    elif event.til is not None:
        time.task.apply_init_element(event.til, out)
    return out


class Steps(Time):
    """Discrete time: a sequential plan's steps, one happening each, at its index; nothing changes
    between two steps. Without trajectory constraints or a trace nothing looks back at earlier states:
    one private state is changed in place (see pddltools.semantics.state for the measurement)."""

    def __init__(self, task: GroundedTask, plan: Plan, name: str, recorder: Trace | None) -> None:
        super().__init__(task, plan, name, recorder)
        self.begins = True  # a PDDL 1.2 action's `:vars` are bound at its step
        self.soft = frozenset(task.soft_preconditions)
        self.constrained = any(True for _ in task.constraints())
        self.keep = self.constrained or recorder is not None
        self.trajectory: list[tuple[Number, State]] = []

    def start(self) -> State:
        state = self.task.initial_state()
        if not self.keep:
            state = state.thaw()
        if self.recorder is not None:
            self.recorder.start(self.plan, state)
        self.trajectory.append((0, state))
        return state

    def happenings(self) -> Iterator[tuple[Number, list[Event]]]:
        for step, action in zip(self.plan.steps, self.actions, strict=True):
            yield step.index, [new_event(Fraction(step.index), "action", step, action, None, None, None, None, None)]

    def begin(self, now: Number, happening: list[Event], state: State) -> None:
        event = happening[0]
        assert event.action is not None
        event.action = self.task.bind_vars(event.action, state)  # a PDDL 1.2 action's `:vars`
        if self.recorder is not None:
            self.recorder.begin(None, int(now), [str(event.action)])

    def unmet(self, event: Event, formula: ast.Formula, now: Number, state: State) -> PlanReport:
        assert event.action is not None
        unsatisfied = self.ev.explain(formula, event.action.binding, state)
        return invalid_step(self.name, self.plan, event.step, "precondition",
                            f"step {now} {event.action}: the precondition is not satisfied",
                            unsatisfied, advise(unsatisfied, f"before step {now}"))

    def apply(self, now: Number, happening: list[Event], merged: Effects, state: State) -> State:
        after = apply(state, merged) if self.keep else state.advance(merged.deletes, merged.adds,
                                                                      resolve(state, merged))
        # the derived atoms of `after` are updated from those of `state` (`Evaluator.succeeded`)
        self.ev.succeeded(state, after, merged.adds, merged.deletes, bool(merged.updates))
        if self.keep:
            self.trajectory.append((now, after))
            if self.recorder is not None:
                self.recorder.end(after)
        return after

    def fault(self, exc: SemanticsError, now: Number, happening: list[Event]) -> PlanReport:
        event = happening[0] if happening else None
        step = event.step if event is not None else None
        if event is None or step is None:
            return invalid_step(self.name, self.plan, None, exc.reason, str(exc), cause=exc)
        return invalid_step(self.name, self.plan, step, exc.reason, f"step {step.index} {event.action}: {exc}",
                            cause=exc)

    def finish(self, state: State, violations: Counter[str]) -> PlanReport:
        return finish(self.task, self.plan, self.name, state, self.trajectory, violations, len(self.plan.steps))
