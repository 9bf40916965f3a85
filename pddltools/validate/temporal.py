"""Temporal plans (PDDL 2.1 level 3): happenings in time order, invariants, mutex and epsilon — the
happening loop (`pddltools.validate.loop`) with time as a line (`Timeline`).

Every durative step becomes a start event at its time and an end event at time + duration; timed
initial literals are events too. Events at most a tenth of the tolerance after the first of a
happening belong to it, as VAL's `-t` groups them (`pddltools.validate.happenings`): their conditions
are read in the state before it and their effects applied together, so they must not interfere
(`pddltools.semantics.temporal.interference`). Interfering events in different happenings must be at
least epsilon apart (by default that same tenth, which separate happenings always are). The `over all`
conditions of an action must hold in every state strictly inside its interval: after each happening,
for every action that has started and not yet ended.

Where anything changes between happenings (continuous effects of durative actions, PDDL 2.1 level 4;
processes and events, PDDL+ with durative actions or timed literals), the PDDL+ world
(`pddltools.validate.pddlplus._World`) runs each stretch between two happenings: the running actions'
continuous effects beside the processes, the events as they fire, and the running actions' `over all`
conditions watched at every instant of the stretch (open at the action's end, as in VAL).

A plan's durations are compared with what the duration constraints compute within a tolerance (VAL's
`-t`, default 0.01; `duration_meets`): planners print rounded durations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction
from math import lcm
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
    interference,
    split,
)
from pddltools.semantics.apply import no_effects
from pddltools.semantics.apply import resolve as resolve_values
from pddltools.semantics.compiled import Collect, Holds
from pddltools.semantics.continuous import Flow, NotPolynomial, Running, flows, new_flow, new_running

# not through the package: importing the submodule `semantics.ground` rebinds the package's `ground`
from pddltools.semantics.evaluate import ground
from pddltools.semantics.grounding import Binding
from pddltools.semantics.linear import difference, drifted
from pddltools.semantics.state import GroundAtom, GroundFluent, Number, normal
from pddltools.semantics.temporal import duration_meets, loosened
from pddltools.static_typing import assert_never
from pddltools.validate.advice import advise
from pddltools.validate.happenings import clock, window
from pddltools.validate.kinds import DEFAULT_TOLERANCE, is_pddlplus
from pddltools.validate.loop import Event, Time, new_event, run
from pddltools.validate.pddlplus import Broken, Failure, Watch, _blame, _Cause, _World, new_watch
from pddltools.validate.planfile import Plan, PlanError, PlanFileStep
from pddltools.validate.report import PlanReport, exact, happening_window
from pddltools.validate.verdict import finish, invalid_step, merged_too_close

if TYPE_CHECKING:
    from pddltools.validate.trace import Trace


def _events(task: GroundedTask, plan: Plan, actions: list[GroundAction], epsilon: Fraction
            ) -> tuple[list[Event], list[int], int, set[int]]:
    """The plan's events in time order, each one's time in ticks of 1/unit (`unit` the least common
    denominator of the times and `epsilon`), the unit, and the times' denominators."""
    events: list[Event] = []
    splits: dict[int, Split] = {}  # by the schema's identity: one split per schema, not per step
    for step, action in zip(plan.steps, actions, strict=True):
        if step.time is None:
            raise PlanError("timing", error("V006", f"step {step.index}: a temporal plan gives each step a start "
                                            "time, 'time: (action ...)'", step.span), step.index)
        if isinstance(action.schema, ast.DurativeAction):
            parts = splits.get(id(action.schema)) or splits.setdefault(id(action.schema), split(action.schema))
            assert step.duration is not None
            if step.duration.numerator <= 0:  # the sign, without `Fraction`'s comparison
                # PDDL 2.1 durations are positive: a start and its end are distinct happenings
                raise _NonPositive(step)
            events.append(new_event(step.time, "start", step, action, parts, None, None, None, None))
            events.append(new_event(step.time + step.duration, "end", step, action, parts, None, None, None, None))
        else:
            events.append(new_event(step.time, "action", step, action, None, None, None, None, None))
    for til in task.timed_literals:
        events.append(Event(Fraction(til.time), "til", til=til.element))
    # at one time: ends before starts only for readability of reports; they are applied together.
    # Sorted on whole ticks of the times' common denominator: comparing `Fraction`s costs microseconds;
    # as tuples that end with the event's place, compared without a call per event (and stable).
    order = {"end": 0, "til": 1, "action": 2, "start": 3}
    times = [(e.time.numerator, e.time.denominator) for e in events]
    denominators = {d for _, d in times}
    unit = lcm(epsilon.denominator, *denominators)
    keyed = [(n * (unit // d), order[e.kind], e.step.index if e.step else 0, i)
             for i, ((n, d), e) in enumerate(zip(times, events, strict=True))]
    keyed.sort()
    return [events[k[3]] for k in keyed], [k[0] for k in keyed], unit, denominators


def _named(event: Event) -> Footprint:
    """The event's footprint with its label, which the messages of `interference` show."""
    fp = event.footprint
    assert fp is not None  # set when its effects were collected
    if not fp.label:
        fp.label = event.label
    return fp


class _NonPositive(Exception):
    def __init__(self, step: PlanFileStep) -> None:
        self.step = step


def _effect_reads(task: GroundedTask, effect: ast.Effect, b: Binding, s: State, fp: Footprint) -> None:
    """Add what `effect` reads (its conditions and the values it assigns) in `s` to `fp`."""
    ev = task.evaluator
    match effect:
        case ast.AndEffect(parts=parts):
            for part in parts:
                _effect_reads(task, part, b, s, fp)
        case ast.ForallEffect(variables=variables, body=body):
            for inner in ev.grounder.bindings(variables, b):
                _effect_reads(task, body, inner, s, fp)
        case ast.When(condition=condition, body=body):
            atoms, fluents = ev.reads(condition, b, s)
            fp.read_atoms |= atoms
            fp.read_fluents |= fluents
            _effect_reads(task, body, b, s, fp)
        case ast.Assign(value=value):
            atoms, fluents = ev.reads(value, b, s)
            fp.read_atoms |= atoms
            fp.read_fluents |= fluents
        case ast.Timed(body=body):
            _effect_reads(task, body, b, s, fp)  # type: ignore[arg-type]  # an effect's body is an effect
        case ast.Atom() | ast.Not():
            pass  # an add or a delete reads nothing
        case _:
            assert_never(effect)


def _state_free(task: GroundedTask, node: ast.Node) -> bool:
    """Whether which atoms and fluents `node` reads is the same in every state: no atom or fluent has an
    argument that is itself a fluent (an object fluent, or a 0-ary function written as a constant)."""
    constants = task.evaluator.constant_functions
    return not any(isinstance(n, ast.Atom | ast.FunctionTerm) and any(
        not isinstance(a, ast.Variable) and not (isinstance(a, ast.Constant) and a.name not in constants)
        for a in n.args) for n in node.walk())


class _Static:
    """What a plan's loop would otherwise work out again at every happening though it is the same in
    every state: per distinct ground action (by identity: `resolve` shares one per distinct step) and
    kind of event, the atoms and fluents its conditions and effect read, its continuous effects, and its
    duration bounds when they are numbers. Each is kept only where `_state_free` shows it is."""

    def __init__(self, task: GroundedTask) -> None:
        self.task = task
        self._free: dict[int, tuple[ast.Node, bool]] = {}
        self._reads: dict[tuple[int, str], tuple[GroundAction, frozenset[GroundAtom], frozenset[GroundFluent]]] = {}
        self._flows: dict[int, tuple[GroundAction, list[tuple[GroundFluent, int, ast.Expression]]]] = {}
        self._bounds: dict[tuple[int, int], tuple[GroundAction, list[tuple[int, int, int, int]] | None]] = {}

    def free(self, node: ast.Node) -> bool:
        found = self._free.get(id(node))
        if found is None or found[0] is not node:
            found = self._free[id(node)] = (node, _state_free(self.task, node))
        return found[1]

    def reads(self, event: Event, state: State, fp: Footprint) -> None:
        """Add what `event`'s conditions and effect read in `state` to `fp`."""
        action = event.action
        assert action is not None
        key = (id(action), event.kind)
        found = self._reads.get(key)
        if found is not None and found[0] is action:
            fp.read_atoms |= found[1]
            fp.read_fluents |= found[2]
            return
        ev, b, free = self.task.evaluator, action.binding, True
        for condition in event.conditions():
            atoms, fluents = ev.reads(condition, b, state)
            fp.read_atoms |= atoms
            fp.read_fluents |= fluents
            free = free and self.free(condition)
        effect = event.effect()
        if effect is not None:
            _effect_reads(self.task, effect, b, state, fp)
            free = free and self.free(effect)
        if free:
            self._reads[key] = (action, frozenset(fp.read_atoms), frozenset(fp.read_fluents))

    def flows(self, owner: Running, state: State) -> list[Flow]:
        """A running durative action's continuous effects (`continuous.flows`), each its own `owner`'s."""
        action = owner.action
        assert isinstance(action, GroundAction)
        found = self._flows.get(id(action))
        if found is not None and found[0] is action:
            made = []  # a loop, not a comprehension: most actions have one continuous effect, if any
            for fluent, sign, rate in found[1]:
                made.append(new_flow(fluent, sign, rate, owner.binding, owner))
            return made
        moving = flows(self.task.evaluator, owner, state)
        if self.free(owner.effect):
            self._flows[id(action)] = (action, [(f.fluent, f.sign, f.rate) for f in moving])
        return moving

    def meets(self, constraint: ast.Formula, event: Event, state: State, tolerance: Fraction) -> bool:
        """Whether the step's duration meets a duration constraint whose every part bounds ?duration by a
        number (no fluent): True when it does; False when it does not or the bounds read the state
        (`_duration_fault` then reads them, and says what is unmet)."""
        action = event.action
        assert action is not None and event.step is not None and event.step.duration is not None
        key = (id(constraint), id(action))
        found = self._bounds.get(key)
        if found is None or found[0] is not action:
            bounds: list[tuple[int, int, int, int]] = []
            for part in constraint.parts if isinstance(constraint, ast.And) else (constraint,):
                bound = _duration_bound(part)
                if bound is None or any(isinstance(n, ast.FunctionTerm | ast.Constant | ast.Variable)
                                        for n in bound[1].walk()):
                    found = self._bounds[key] = (action, None)
                    break
                op, other = bound
                bounds.extend(_limits(op, self.task.evaluator.number(other, action.binding, state), tolerance))
            else:
                found = self._bounds[key] = (action, bounds)
        if found[1] is None:
            return False
        given = event.step.duration
        gn, gd = given.numerator, given.denominator
        # sign of given - limit, over integers: `duration_meets` without a `Fraction` made per step
        for side, ln, ld, strict in found[1]:  # noqa: SIM110 (no generator to create per step)
            if not (gn * ld - ln * gd) * side > strict:
                return False
        return True


def _limits(op: str, required: Number, tolerance: Fraction) -> list[tuple[int, int, int, int]]:
    """`duration_meets(op, given, required, tolerance)` as bounds on `given`: each `(side, n, d, strict)`
    says `side * (given - n/d) > strict - 1` (strict 0: the bound excluded, -1: included)."""
    def bound(side: int, limit: Fraction, excluded: bool) -> tuple[int, int, int, int]:
        return side, limit.numerator, limit.denominator, 0 if excluded else -1
    r = Fraction(required)
    if op == "=":
        return [bound(1, r - tolerance, True), bound(-1, r + tolerance, True)]
    if op == "<=":
        return [bound(-1, r + tolerance, False)]
    if op == ">=":
        return [bound(1, r - tolerance, False)]
    return [bound(-1, r, True)] if op == "<" else [bound(1, r, True)]


def _duration_fault(task: GroundedTask, constraint: ast.Formula, event: Event, state: State,
                    tolerance: Fraction) -> list[Unsatisfied]:
    """The parts of a duration constraint the step's duration does not meet within the tolerance, each
    with the duration as written and the value required, exactly."""
    assert event.action is not None and event.step is not None and event.step.duration is not None
    ev, b, given = task.evaluator, event.action.binding, event.step.duration
    faults: list[Unsatisfied] = []
    parts = constraint.parts if isinstance(constraint, ast.And) else (constraint,)
    for part in parts:
        bound = _duration_bound(part)
        if bound is not None:
            op, other = bound
            required = ev.number(other, b, state)
            if not duration_meets(op, given, required, tolerance):
                faults.append(Unsatisfied(str(ground(part, {k: v for k, v in b.items() if k != "?duration"})),
                                          note=f"?duration is {exact(given)}, required {op} {exact(required)}, "
                                               f"difference {exact(abs(given - required))}"))
        elif not ev.holds(part, b, state):
            faults.extend(ev.explain(part, b, state))
    return faults


_MIRROR = {"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _duration_bound(part: ast.Formula) -> tuple[str, ast.Expression] | None:
    """`(op ?duration other)` (either way round) as `(op, other)`; None for another kind of part."""
    if isinstance(part, ast.Comparison) and _is_duration(part.left) != _is_duration(part.right):
        return (part.op, part.right) if _is_duration(part.left) else (_MIRROR[part.op], part.left)
    return None


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
                      tolerance: Fraction = DEFAULT_TOLERANCE, recorder: Trace | None = None,
                      delta: Fraction | None = None) -> PlanReport:
    """Validate a temporal plan; `recorder`, when given, is told every happening as it is applied;
    `delta` is the step for continuous change that has no closed form. `epsilon` None: a tenth of the
    tolerance, the window of VAL's happenings."""
    world = _World(task, delta, recorder) if _continuous(task) else None
    separation = happening_window(tolerance) if epsilon is None else epsilon
    try:
        timeline = Timeline(task, plan, name, separation, tolerance, recorder, world)
    except _NonPositive as exc:
        given = exact(exc.step.duration or 0)
        report = invalid_step(name, plan, exc.step, "duration",
                              f"step {exc.step.index} {exc.step}: the duration {given} is not positive")
    else:
        report = run(timeline)
    report = replace(report, tolerance=tolerance)
    if world is None or not world.approximated:
        return report
    return replace(report, delta=delta, message=report.message + f" (approximated with --delta {exact(delta or 0)})")


#: whether `_proven` may stand in for the happenings read in turn (off: every plan read so, for the tests)
SHORTCUT = True


def _proven(timeline: Timeline) -> State | None:
    """`Timeline.proven`: the final state of a plan shown valid up to its goal without reading its
    happenings in turn, or None (before anything is changed) when it is not shown so.

    For the long plans of durative actions with constant-rate continuous effects (COLIN's and OPTIC's
    battery, tank and rover plans): no process, event, timed literal, derived predicate, trajectory
    constraint, preference or trace, and every happening one event, at least epsilon from the next.
    Between two happenings every changing fluent is then `value + rate * t` with the rates of the
    running set, and every invariant a conjunction of atoms and comparisons linear in the fluents: the
    set of times where such an invariant holds is an interval, so it holds throughout a stretch when it
    holds exactly at both ends, which is all that is read. The same conditions, duration bounds and
    effects as the loop's, read exactly; anything the loop would read otherwise (a condition or
    invariant false or true only within VAL's slack, a value undefined, a rate that is not a constant,
    an invariant that is not convex in time) leaves the plan to the happenings read in turn, which then
    say what is wrong.
    What it skips is the loop's bookkeeping for what can fail (blame, footprints, the stretch's roots)."""
    world, task = timeline.world, timeline.task
    if (world is None or not world._alone or timeline.recorder is not None or timeline.constraints
            or timeline.soft or task.timed_literals or timeline.plan.end is not None or world.delta is not None):
        return None
    events, ticks, unit, apart = timeline.events, timeline.ticks, timeline.unit, timeline.apart
    clocks, wide = [clock(e) for e in events], window(timeline.tolerance)
    for i in range(len(events) - 1):  # every happening one event, none within epsilon of another
        if not clocks[i + 1] > clocks[i] + wide or ticks[i + 1] - ticks[i] < apart:
            return None
    ev, static, tolerance = task.evaluator, timeline.static, timeline.tolerance
    compiled = ev.compiled
    # per ground action and kind: its exact condition tests and compiled effect; per ground action:
    # its constant rates (None: not all constants, or an invariant not convex in time) and its
    # invariant's exact test
    per_event: dict[tuple[int, str], tuple[GroundAction, list[Holds], Collect | None]] = {}
    per_action: dict[int, tuple[GroundAction, dict[GroundFluent, Number] | None, Holds | None]] = {}
    state = task.initial_state().thaw()
    running: dict[int, tuple[dict[GroundFluent, Number], Holds | None, Binding]] = {}
    rates: dict[GroundFluent, Number] = {}
    last = ticks[0] if ticks else 0
    try:
        for event, tick in zip(events, ticks, strict=True):
            action, step, parts = event.action, event.step, event.parts
            assert action is not None and step is not None
            b = action.binding
            if tick != last and rates:  # the stretch: each changing fluent on its line, then the invariants
                later = drifted(state, rates, tick - last, unit)
                if later is None:
                    return None
                state = later
                for _, test, binding in running.values():
                    if test is not None and not test(binding, state):
                        return None
            last = tick
            if parts is not None and event.kind in parts.duration and not static.meets(
                    parts.duration[event.kind], event, state, tolerance):
                return None
            key = (id(action), event.kind)
            found = per_event.get(key)
            if found is None or found[0] is not action:
                effect = event.effect()
                found = per_event[key] = (action, [compiled(c) for c in event.conditions()],
                                          ev.effect(effect) if effect is not None else None)
            for test in found[1]:
                if not test(b, state):
                    return None
            if found[2] is not None:
                effects = no_effects()
                found[2](b, state, effects)
                state = state.advance(effects.deletes, effects.adds, resolve_values(state, effects))
            if event.kind == "start":
                assert parts is not None
                fit = per_action.get(id(action))
                if fit is None or fit[0] is not action:
                    fit = per_action[id(action)] = _fit(timeline, event, state)
                if fit[1] is None:
                    return None
                running[step.index] = (fit[1], fit[2], b)
            elif event.kind == "end":
                running.pop(step.index, None)
            if event.kind != "action":
                rates = {}
                for own, _, _ in running.values():
                    for fluent, rate in own.items():
                        rates[fluent] = rates.get(fluent, 0) + rate
            for _, test, binding in running.values():  # the invariants after the happening (`after`)
                if test is not None and not test(binding, state):
                    return None
    except SemanticsError:
        return None  # `run` says where and why
    if events:
        timeline.makespan = max(timeline.makespan, normal(events[-1].time))
    return state


def _fit(timeline: Timeline, started: Event, state: State
         ) -> tuple[GroundAction, dict[GroundFluent, Number] | None, Holds | None]:
    """A durative action's constant rates per fluent and its invariant's exact test, for `_proven`;
    the rates None when one is not a constant, the invariant is not a conjunction of atoms and
    comparisons linear in the fluents (true on an interval of a stretch), or which fluents either reads
    depends on the state (an object fluent's value): what is found here is kept for every start."""
    world, static = timeline.world, timeline.static
    assert world is not None and started.parts is not None and started.action is not None
    action, parts = started.action, started.parts
    invariant = parts.conditions.get("all")
    if not all(static.free(node) for node in (parts.continuous, invariant) if node is not None):
        return action, None, None  # which fluents they read depends on the state: not the same at every start
    owner = new_running(action, 0, parts.continuous or _NO_EFFECT, action.binding)
    moving = static.flows(owner, state) if parts.continuous is not None else []
    rates = world._constant_flows(moving) if moving else {}
    if rates is None or invariant is None:
        return action, rates, None
    if not _convex(timeline.task, invariant, action.binding, state):
        return action, None, None
    return action, rates, timeline.ev.compiled(invariant)


def _convex(task: GroundedTask, formula: ast.Formula, b: Binding, state: State) -> bool:
    """Whether `formula` holds on an interval of any stretch of constant rates: a conjunction of atoms,
    negated atoms and comparisons whose `left - right` is linear in the fluents."""
    if isinstance(formula, ast.And):
        return all(_convex(task, part, b, state) for part in formula.parts)
    if isinstance(formula, ast.Atom) or (isinstance(formula, ast.Not) and isinstance(formula.body, ast.Atom)):
        return True
    if isinstance(formula, ast.Comparison):
        try:
            return difference(task.evaluator, formula, b, state) is not None
        except SemanticsError:
            return False
    return False


def _continuous(task: GroundedTask) -> bool:
    """Whether anything in the task changes in time between happenings: processes, events (which fire
    when a condition becomes true), or durative actions with continuous effects."""
    return is_pddlplus(task) or any(isinstance(s, ast.DurativeAction) and s.effect is not None and any(
        isinstance(n, ast.ContinuousTime) for n in s.effect.walk()) for s in task.domain.structures)


_NO_EFFECT = ast.AndEffect(())  # a running action's continuous effect when it has none


def _running(task: GroundedTask, numeric: Callable[[ast.Expression], bool], started: Event,
             state: State, static: _Static) -> tuple[list[Flow], Watch | None, GroundAction | None]:
    """A durative action's continuous effects from its start, its invariant as a watch, and the action
    when these are the same at every start of it (None when its effects read the state)."""
    assert started.parts is not None and started.action is not None and started.step is not None
    action = started.action
    b = action.binding
    effect = started.parts.continuous
    owner = new_running(action, started.step.index, effect or _NO_EFFECT, b)
    moving = static.flows(owner, state) if effect is not None else []
    # what its rates and its invariant's comparisons are is the action's own where its continuous
    # effects read no state (`_World.follow` then finds them once per set of running actions)
    same = action if effect is None or static.free(effect) else None
    invariant = started.parts.conditions.get("all")
    if invariant is None:
        return moving, None, same
    return moving, new_watch(owner, invariant, b, lambda s: _holds(task, numeric, invariant, b, s)), same


def _soft(task: GroundedTask) -> frozenset[str]:
    """The actions whose conditions hold preferences (whose violations are counted): no other's need a
    walk of its conditions at every happening."""
    found = set()
    for name, schema in task.schemas.items():
        condition = (schema.precondition if isinstance(schema, ast.Action) else
                     schema.condition if isinstance(schema, ast.DurativeAction) else None)
        if condition is not None and any(isinstance(n, ast.Preference) for n in condition.walk()):
            found.add(name)
    return frozenset(found)


class Timeline(Time):
    """Time as a line: the events of a temporal plan at their exact times, grouped into happenings as
    VAL's `-t` groups them, which must not interfere; durative actions' invariants after every
    happening; and, with a world (`_World`), the change and the events of every stretch between two."""

    concurrent = True
    admits = True
    lasting = True

    def __init__(self, task: GroundedTask, plan: Plan, name: str, epsilon: Fraction, tolerance: Fraction,
                 recorder: Trace | None, world: _World | None) -> None:
        super().__init__(task, plan, name, recorder)
        self.events, self.ticks, self.unit, self.denominators = _events(task, plan, self.actions, epsilon)
        self.epsilon, self.tolerance, self.world = epsilon, tolerance, world
        self.numeric = _numeric(task)
        self.soft = _soft(task)
        self.static = _Static(task)
        self.constraints = any(True for _ in task.constraints())
        # Without trajectory constraints or a trace nothing looks back at earlier states: one private
        # state is changed in place (a state per happening over 10,000 static atoms took gigabytes).
        self.keep = self.constraints or recorder is not None
        self.trajectory: list[tuple[Number, State]] = []
        self.active: dict[int, Event] = {}  # step index -> its start event, while the action runs
        # step index -> its continuous effects and invariant, while it runs (with a world)
        self.moving: dict[int, tuple[list[Flow], Watch | None, GroundAction | None]] = {}
        # what the world follows (`moving`'s flows and watches, and the running actions when each is
        # the same at every start), made again only when `moving` changes
        self.following: tuple[list[Flow], list[Watch], tuple[int, ...] | None] | None = None
        self.recent: list[tuple[Fraction, int, list[Event]]] = []  # happenings less than epsilon ago
        # the events' times and epsilon in whole ticks of their common denominator: grouping the events
        # and measuring epsilon is then integer work, not `Fraction` arithmetic at every happening
        events = self.events
        self.apart = epsilon.numerator * (self.unit // epsilon.denominator)
        self.tick = 0
        self.isolated = False  # the happening cannot interfere with any other (`happenings`)
        self.makespan: Number = 0
        # the events are in time order: the last step's is the latest time of a step
        self.end = plan.end if plan.end is not None else next(
            (e.time for e in reversed(events) if e.step is not None), Fraction(0))
        self.before = self.now = Fraction(0)
        self.since = self.at = 0  # `before` and `now` in the world's ticks

    def proven(self) -> State | None:
        return _proven(self) if SHORTCUT else None

    def start(self) -> State:
        state = self.task.initial_state()
        if self.recorder is not None:
            self.recorder.start(self.plan, state)
        if not self.keep:
            state = state.thaw()
        if self.constraints:
            self.trajectory.append((0, state))
        world = self.world
        if world is None:
            return state
        world.scale = lcm(*self.denominators, self.end.denominator)
        world.in_place = not self.keep
        world.trajectory = self.trajectory if self.constraints else None
        return world.settle(state, 0)

    def happenings(self) -> Iterator[tuple[Number, list[Event]]]:
        events, ticks = self.events, self.ticks
        # VAL's grouping (`one_happening`), each event's clock and the window in doubles, read once
        clocks, wide = [clock(e) for e in events], window(self.tolerance)
        i, n = 0, len(events)
        while i < n:
            self.now, self.tick = events[i].time, ticks[i]
            last = clocks[i] + wide
            j = i + 1
            while j < n and not clocks[j] > last:
                j += 1
            happening = events[i:j]
            # one event, and no happening within epsilon before or after it: nothing it could interfere
            # with, so what it reads is not worked out (most happenings of a long plan)
            recent = self.recent
            self.isolated = (j == i + 1 and (j == n or ticks[j] - self.tick >= self.apart)
                             and (not recent or self.tick - recent[-1][1] >= self.apart))
            i = j
            yield self.now, happening

    def _follow(self) -> None:
        assert self.world is not None
        if self.following is None:
            flows: list[Flow] = []
            watches: list[Watch] = []
            same: list[int] | None = []
            for fs, watch, action in self.moving.values():
                flows.extend(fs)
                if watch is not None:
                    watches.append(watch)
                same = None if same is None or action is None else [*same, id(action)]
            self.following = (flows, watches, tuple(same) if same is not None else None)
        self.world.follow(*self.following)

    def elapse(self, state: State, now: Number, happening: list[Event]) -> State:
        world = self.world
        if world is not None:
            # the stretch since the last happening: continuous change, events, invariants over it
            # (open at an action's end: an invariant need not hold at the instant its action ends)
            self._follow()
            moved_from = state
            # in the world's ticks, once per happening: the timeline's own over its unit, as integers
            self.at = self.tick * world.scale // self.unit
            state = world.run(state, self.since, self.at)
            self.since = self.at
            if self.recorder is not None and state is not moved_from and self.now > self.before:
                # the change over the stretch on its own, not folded into the happening's
                self.recorder.begin(normal(now), None, ["continuous change"])
                self.recorder.end(state)
            if world.watches and state is not world.held_in:  # else `check` has nothing to read
                world.check(state, now, skip={e.step.index for e in happening if e.kind == "end" and e.step})
        self.before = self.now
        return state

    def begin(self, now: Number, happening: list[Event], state: State) -> None:
        if self.recorder is not None:
            self.recorder.begin(normal(now), next((e.step.index for e in happening if e.step), None),
                                [e.label for e in happening])

    def collect(self, event: Event, state: State) -> Effects:
        if self.isolated and event.action is not None:
            effects = no_effects()
            effect = (event.compiled or self.checks(event))[1]
            if effect is not None:
                effect(event.action.binding, state, effects)
            return effects
        fp = Footprint("")  # named (`_named`) only where two events are compared: rarely
        if event.til is not None:
            self.task.apply_init_element(event.til, fp.effects)
        else:
            assert event.action is not None
            effect = self.checks(event)[1]
            if effect is not None:
                effect(event.action.binding, state, fp.effects)
            self.static.reads(event, state, fp)
        event.footprint = fp
        return fp.effects

    def interfere(self, now: Number, happening: list[Event], state: State) -> PlanReport | None:
        """Mutex inside the happening, then epsilon separation from the happenings just before."""
        if self.isolated:
            self.recent = []  # all more than epsilon before this happening, and so before the next
            return None
        name, plan, tick = self.name, self.plan, self.tick
        for k, a in enumerate(happening):
            for other in happening[k + 1:]:
                why = interference(_named(a), _named(other))
                if why and other.time != a.time:
                    return merged_too_close(name, plan, other.step or a.step, why, other.time - a.time, self.tolerance)
                if why:
                    culprit = a if a.step is not None else other
                    return _at(invalid_step(name, plan, culprit.step, "mutex",
                                            f"at time {exact(now)}: {why}, so they cannot happen "
                                            "at the same time"), now)
        self.recent = recent = [r for r in self.recent if tick - r[1] < self.apart]
        for t, _, earlier in recent:
            for a in earlier:
                for other in happening:
                    why = interference(_named(a), _named(other))
                    if why:
                        culprit = other if other.step is not None else a
                        return _at(invalid_step(name, plan, culprit.step, "epsilon",
                                                f"{why}, and they are only {exact(self.now - t)} apart "
                                                f"(interfering events must be at least {exact(self.epsilon)} "
                                                "apart)"), now)
        recent.append((self.now, tick, happening))
        return None

    def admit(self, event: Event, now: Number, state: State) -> PlanReport | None:
        """A durative step's duration against its duration constraint, in the state before."""
        parts = event.parts
        if parts is None or event.kind not in parts.duration:
            return None
        constraint, tolerance = parts.duration[event.kind], self.tolerance
        if self.static.meets(constraint, event, state, tolerance):
            return None
        unmet = _duration_fault(self.task, constraint, event, state, tolerance)
        if not unmet:
            return None
        assert event.step is not None
        return _at(invalid_step(self.name, self.plan, event.step, "duration",
                                f"{event.label}: the duration {exact(event.step.duration or 0)} does not meet the "
                                f"action's duration constraint within the tolerance {exact(tolerance)}", unmet), now)

    def test(self, formula: ast.Formula) -> Holds:
        """A condition as VAL reads it (`_holds`): exactly, or else within VAL's slack."""
        task, numeric, exactly = self.task, self.numeric, self.ev.compiled(formula)
        # `_holds`, its exact reading first without a lookup of the formula's closure
        return lambda b, s: exactly(b, s) or _holds(task, numeric, formula, b, s)

    def unmet(self, event: Event, formula: ast.Formula, now: Number, state: State) -> PlanReport:
        assert event.action is not None
        unsatisfied = self.ev.explain(formula, event.action.binding, state)
        world = self.world
        blamed = _blame(self.task, world, formula, event.action, state) if world is not None else []
        return _at(invalid_step(self.name, self.plan, event.step, "precondition",
                                f"{event.label}: the condition is not satisfied"
                                + (f" ({'; '.join(blamed)})" if blamed else ""), unsatisfied,
                                advise(unsatisfied, f"before time {exact(now)}")), now)

    def apply(self, now: Number, happening: list[Event], merged: Effects, state: State) -> State:
        world = self.world
        if world is not None:
            for event in happening:
                effects = event.effects
                if event.step is not None and event.action is not None and effects is not None and effects.updates:
                    world.changed_by.update(dict.fromkeys(effects.updates, _Cause("step", event.action,
                                                                                  event.step.index)))
            state = world.apply(state, merged)
        else:
            state = apply(state, merged) if self.keep else state.advance(merged.deletes, merged.adds,
                                                                          resolve_values(state, merged))
        if self.constraints:
            self.trajectory.append((normal(now), state))
        stepped = False
        for event in happening:
            step = event.step
            if step is None:
                continue
            stepped = True
            if event.kind == "start":
                self.active[step.index] = event
                if world is not None:
                    self.moving[step.index] = _running(self.task, self.numeric, event, state, self.static)
                    self.following = None
            elif event.kind == "end":
                self.active.pop(step.index, None)
                if self.moving.pop(step.index, None) is not None:
                    self.following = None
        if stepped:
            self.makespan = max(self.makespan, normal(now))
        if world is not None:
            if self.recorder is not None:  # the happening itself, before the events it sets off
                self.recorder.end(state)
            state = world.settle(state, self.at)
        return state

    def after(self, now: Number, happening: list[Event], state: State) -> PlanReport | None:
        """The invariants of the running actions, in the state after the happening (the world is told
        when all hold exactly: the stretch that starts here need not read them again)."""
        ev, exactly = self.ev, True
        for started in self.active.values():
            assert started.parts is not None and started.action is not None and started.step is not None
            invariant = started.parts.conditions.get("all")
            if invariant is None or ev.holds(invariant, started.action.binding, state):
                continue
            exactly = False
            if not ev.holds(loosened(invariant, self.numeric), started.action.binding, state):  # `_holds`
                broken: list[Unsatisfied] = ev.explain(invariant, started.action.binding, state)
                return _at(invalid_step(self.name, self.plan, started.step, "invariant",
                                        f"{started.label}: its over-all condition is broken at time "
                                        f"{exact(now)}", broken,
                                        advise(broken, f"while step {started.step.index} runs")), now)
        if self.world is not None and exactly:
            self.world.exactly_in = state
        if self.recorder is not None and self.world is None:  # after the invariants: where it failed
            self.recorder.end(state)
        return None

    def close(self, state: State) -> State:
        world = self.world
        if world is not None and self.now < self.end:  # a PDDL+ plan's explicit end after its last happening
            self._follow()
            state = world.run(state, world.ticks(self.now), world.ticks(self.end))
            self.now = self.end
        return state

    def fault(self, exc: SemanticsError, now: Number, happening: list[Event]) -> PlanReport:
        name, plan = self.name, self.plan
        if isinstance(exc, Broken):
            watch = exc.watch
            step = next(s for s in plan.steps if s.index == watch.owner.step)
            broken = self.ev.explain(watch.formula, watch.binding, exc.state)
            assert self.world is not None and isinstance(watch.owner.action, GroundAction)  # the world's
            blamed = _blame(self.task, self.world, watch.formula, watch.owner.action, exc.state)
            return _at(invalid_step(name, plan, step, "invariant", f"step {step.index} {watch.owner} (start): {exc}"
                                    + (f" ({'; '.join(blamed)})" if blamed else ""), broken,
                                    advise(broken, f"while step {step.index} runs")), exc.time)
        if isinstance(exc, Failure):  # the world's fault (events, processes), not a step's
            return _at(invalid_step(name, plan, None, exc.reason, str(exc)), exc.time)
        if isinstance(exc, NotPolynomial):
            return _at(invalid_step(name, plan, None, "unsupported", f"from time {exact(self.before)}: {exc}; give "
                                    "--delta STEP to approximate it", cause=exc), self.before)
        first = next((e for e in happening if e.step is not None), None)
        return _at(invalid_step(name, plan, first.step if first else None, exc.reason,
                                f"at time {exact(self.now)}: {exc}", cause=exc), self.now)

    def finish(self, state: State, violations: Counter[str]) -> PlanReport:
        makespan = normal(self.end) if self.world is not None and self.plan.end is not None else self.makespan
        report = finish(self.task, self.plan, self.name, state, self.trajectory, violations, makespan, temporal=True,
                        loosen=lambda goal: loosened(goal, self.numeric))
        return report if report.valid else replace(report, failed_time=normal(self.end))


def _at(report: PlanReport, time: Number) -> PlanReport:
    """A failure at `time` (`failed_time`, for every temporal plan: the happening at which it failed)."""
    return replace(report, failed_time=normal(time))
