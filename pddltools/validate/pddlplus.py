"""PDDL+ plans (Fox & Long 2006), validated as VAL validates them.

A plan is timed instantaneous actions. The steps at one time are one happening: every precondition is
read in the state before it and the effects applied together (VAL rejects `0: (start) 0: (go)` when
`go` needs what `start` makes true). After every happening the events whose preconditions hold fire,
all at once, again until none holds (a cascade); an event that would fire twice at one time loops, and
is an error. Between happenings the running processes (those whose preconditions hold) change fluents
continuously; the first time in between that a process's precondition turns, or an event's becomes
true, is a happening of its own. The plan ends at its last step, or at an explicit end (ENHSP's
`@PlanEND`), where the goal is checked.

Change that is polynomial in time is computed exactly (`pddltools.semantics.continuous`): a condition's
truth changes only at roots of polynomials, found exactly (`pddltools.semantics.polynomial`), and what
holds just after a root is read at a time before the next root. Change linear with constant
coefficients is solved in closed form as exponential polynomials (`pddltools.semantics.exponential`).
Other change needs `delta`: the rates are held for `delta` at a time and conditions read at the end of
each step, which the report says.

The plan's happenings are those of the one happening loop (`pddltools.validate.loop`), in PDDL+
time (`Instants`). The world (`_World`) also runs the stretches between the happenings of temporal
plans (`pddltools.validate.temporal.Timeline`), with the continuous effects and the invariants of the
durative actions that run (`follow`): plans with durative actions or timed literals are on that line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from pddltools.diagnostics import error
from pddltools.pddl import ast
from pddltools.pddl.changes import static_functions
from pddltools.semantics import Effects, GroundAction, GroundedTask, SemanticsError, State, apply, collect, resolve
from pddltools.semantics.apply import no_effects
from pddltools.semantics.compiled import Collect, Holds
from pddltools.semantics.continuous import (
    Flow,
    Ground,
    Motion,
    NotPolynomial,
    Running,
    comparisons,
    euler,
    flows,
    ground_all,
    static_reads,
)
from pddltools.semantics.evaluate import Evaluator
from pddltools.semantics.exponential import ExpMotion, ExpPoly, NotLinear, first_exp_root
from pddltools.semantics.grounding import Binding
from pddltools.semantics.linear import Drift, Linear, difference, drifted, linear
from pddltools.semantics.polynomial import Number as Exact
from pddltools.semantics.polynomial import Poly, first_root, line_is_zero, line_root_parts, parts
from pddltools.semantics.state import Number, normal, show_atom
from pddltools.syntax.frozen import fast_constructor
from pddltools.validate.advice import advise
from pddltools.validate.loop import Event, Time, new_event, run
from pddltools.validate.planfile import Plan, PlanError, PlanFileStep
from pddltools.validate.report import PlanReport, exact
from pddltools.validate.verdict import cannot_judge, finish, invalid_step

if TYPE_CHECKING:
    from pddltools.validate.trace import Trace

_UNKNOWN: Any = object()  # not looked up yet (None is a finding)
#: The most `--delta` steps one plan is approximated with (about 10 s): a smaller step over a long plan is
#: refused at once, saying how many steps it would take, rather than run for minutes without a word.
MAX_DELTA_STEPS = 100_000
#: Zeno behaviour: this many changes of the world in a row, each sooner after the one before than that
#: one after its own, the last sooner than `ZENO_SHRINK`th of the first gap (a bouncing ball's halve)
ZENO_RUN = 20
ZENO_SHRINK = 1000


class Failure(SemanticsError):
    """A fault of the world, not of a step: events that loop, processes that cannot settle."""

    def __init__(self, reason: str, message: str, time: Number, culprit: Ground | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.time = time
        self.culprit = culprit


@dataclass(frozen=True, slots=True, eq=False)
class Watch:
    """An invariant watched over time: the `over all` condition of a running durative action, which
    must hold at every instant of the stretches between happenings, not only at their ends. `test`
    reads it in a state (exactly, or as VAL's slack allows)."""

    owner: Running
    formula: ast.Formula
    binding: Binding
    test: Callable[[State], bool]


new_watch = fast_constructor(Watch)  # (owner, formula, binding, test), without the frozen `__init__`


class Broken(Failure):
    """A watched invariant is false at `time` (or, `just_after`, on the stretch just after it)."""

    def __init__(self, watch: Watch, time: Number, state: State, just_after: bool) -> None:
        when = f"just after time {exact(time)}" if just_after else f"at time {exact(time)}"
        super().__init__("invariant", f"its over-all condition is broken {when}", time)
        self.watch = watch
        self.state = state
        self.just_after = just_after


class _Together(NamedTuple):
    """Several causes changing one fluent at once (a process and a durative action's effect)."""

    causes: tuple[_Cause, ...]

    def __str__(self) -> str:
        shown = [str(c) for c in self.causes]
        return ", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]


class _Cause(NamedTuple):
    """Who last changed a fluent: `the event (e)`, `the process (p)`, `step 3 (a)`. Kept unformatted,
    because only a failed precondition names one, and formatting one per step was a tenth of a long
    plan's time; a named tuple, made in a third of a frozen dataclass's time."""

    kind: str
    who: object
    step: int | None = None  # the step's number (`index` is a tuple's method)

    def __str__(self) -> str:
        return f"{self.kind} {self.step} {self.who}" if self.step is not None else f"{self.kind} {self.who}"


def _always(binding: object, state: State) -> bool:
    """The test of a missing precondition."""
    return True


def _where(g: Ground) -> str:
    """Where a process or event is defined: `domain.pddl:12:3`."""
    span = g.schema.span
    return f"{span.source.name}:{span.line}:{span.column}" if span is not None else g.schema.name


class _World:
    """The processes and events of one task, run forward in time from state to state."""

    def __init__(self, task: GroundedTask, delta: Fraction | None, recorder: Trace | None) -> None:
        self.task = task
        self.ev = task.evaluator
        self.processes = ground_all(self.ev, task.domain.processes)
        self.events = ground_all(self.ev, task.domain.events)
        # the comparisons of every precondition, found once: where a process or event can change
        self.comparisons = [found for g in (*self.processes, *self.events)
                            for found in comparisons(self.ev, g.schema.precondition, g.binding)]
        # the fluents each comparison reads (None: it depends on the state), so that a stretch of time
        # solves only the comparisons over fluents that change in it
        initial = task.initial_state()
        self.reads = [static_reads(self.ev, c, b, initial) for c, b in self.comparisons]
        # each process's continuous effects, found once when the fluents they change do not depend on
        # the state; the rates are still read in the state of each stretch
        self._flows: dict[Ground, list[Flow]] = {}
        self._static_flows = {p for p in self.processes
                              if p.schema.effect is None or static_reads(self.ev, p.schema.effect, p.binding,
                                                                         initial) is not None}
        self._process_tests, self._event_tests = self._tests(self.processes), self._tests(self.events)
        self._initial = initial
        self._derived = bool(task.domain.derived_predicates)
        self._known: dict[tuple[str, ...], Exact] = {}
        self._linear = self._linear_forms(initial)
        # the durative actions' side of the linear fast path (`follow`): each continuous effect's
        # constant rate and each watched comparison's linear form, made once per rate or comparison
        # and binding (None: not a constant rate / not linear, and those stretches take the general path)
        self._flow_rates: dict[tuple[int, int], tuple[ast.Expression, Binding, Exact | None]] = {}
        self._watch_forms: dict[tuple[int, tuple[tuple[str, object], ...]], tuple[ast.Comparison, Linear | None]] = {}
        self._durative_rates: dict[tuple[str, ...], Exact] | None = {}
        # per (processes' rates and slopes, durative rates, watched forms): the stretch's rates and slopes
        self._joined: dict[tuple[object, ...], tuple[object, dict[tuple[str, ...], Exact],
                                                     list[tuple[Linear, int, int]]]] = {}
        self._watched_forms: list[Linear] | None = []
        self._per_watch: dict[tuple[int, int], tuple[ast.Formula, Binding, list[tuple[ast.Comparison, Binding]],
                                                      list[Linear] | None]] = {}
        self._durative_key: tuple[object, ...] = ()  # the two above as keys of `_joined`
        self._watched_key: tuple[object, ...] = ()
        # per set of running processes (by identity): its rates and slopes when every rate is a constant
        self._constant_rates: dict[tuple[Ground, ...], tuple[dict[tuple[str, ...], Exact],
                                                             list[tuple[Linear, int, int]]] | None] = {}
        self.delta = delta
        self.approximated = False
        self.delta_steps = 0  # taken so far, against MAX_DELTA_STEPS
        self.recorder = recorder
        # the states a plan goes through, kept only for trajectory constraints (None without)
        self.trajectory: list[tuple[Number, State]] | None = [] if any(True for _ in task.constraints()) else None
        self.scale = 1  # a tick is 1/scale of the plan's time unit (`_ticks`)
        self.in_place = False  # whether states are changed in place (`apply`, `run`): none is kept
        # fluent -> the process, event or step that changed it last (several, when they changed it together)
        self.changed_by: dict[tuple[str, ...], _Cause | _Together] = {}
        self._blamed: set[tuple[str, ...]] = set()  # the fluents `_blame` has seen in this call
        self._causes: dict[Ground | Running, _Cause] = {}  # one per process, made once: blamed at every stretch
        self.running: list[Ground] = []
        self._fired: tuple[Number, set[Ground]] = (-1, set())
        # set by a temporal plan's loop at each happening: the continuous effects of the durative
        # actions that run, and their invariants with the comparisons where those can change truth
        self.durative: list[Flow] = []
        self.watches: list[Watch] = []
        self._watched: list[tuple[ast.Comparison, Binding]] = []
        self._stretch: Number = 0  # the start of the stretch being solved, in ticks
        self._solving_ticks = False  # whether the stretch being solved counts its times in ticks
        # a state in which the watched invariants were all read exactly true (set by the temporal loop)
        self.exactly_in: State | None = None
        self._held = False  # whether the stretch being solved keeps its watched invariants exactly true
        self.held_in: State | None = None  # the state at the end of such a stretch, where `run` ended
        self._now: Number = 0  # the time `run` has reached, in ticks: where a fault of the change arises
        # nothing but the running durative actions changes anything (`_durative_alone`), and the rates
        # and slopes of its stretches, per rates and watched forms
        self._alone = (not self.processes and not self.events and not self._derived and self._linear is not None)
        self._alone_slopes: dict[tuple[int, int], tuple[object, object, list[tuple[Linear, int, int]]]] = {}
        # per set of running actions (`follow`): their rates, watched comparisons and forms, and the keys
        self._combinations: dict[tuple[int, ...], tuple[Any, ...]] = {}

    def follow(self, durative: list[Flow], watches: list[Watch], running: tuple[int, ...] | None = None) -> None:
        """The continuous effects and invariants of the durative actions running from now on; `running`,
        when given, names the running actions (by identity, alive while the plan is validated) whose
        effects and invariants are each the same at every start: what is made of them here is then
        made once per such set and found again when the same actions run again."""
        if durative is self.durative and watches is self.watches:
            return
        if running is not None:
            found = self._combinations.get(running)
            if found is not None:
                (self._durative_rates, self._durative_key, self._watched, self._watched_forms,
                 self._watched_key) = found
                self.durative, self.watches = durative, watches
                return
        self._follow(durative, watches)
        if running is not None:
            if len(self._combinations) > 10_000:  # a plan of ever new combinations keeps no more than these
                self._combinations.clear()
            self._combinations[running] = (self._durative_rates, self._durative_key, self._watched,
                                           self._watched_forms, self._watched_key)

    def _follow(self, durative: list[Flow], watches: list[Watch]) -> None:
        if durative is not self.durative and (len(durative) != len(self.durative) or any(
                a is not b for a, b in zip(durative, self.durative, strict=True))):
            self._durative_rates = self._constant_flows(durative)
            self._durative_key = tuple(self._durative_rates.items()) if self._durative_rates is not None else ()
        self.durative = durative
        if watches is not self.watches and watches != self.watches:
            self.watches = watches
            self._watched = []
            forms: list[Linear] | None = []
            for w in watches:  # each invariant's comparisons and forms, found once per formula and binding
                key = (id(w.formula), id(w.binding))
                found = self._per_watch.get(key)
                if found is None or found[0] is not w.formula or found[1] is not w.binding:
                    watched = list(comparisons(self.ev, w.formula, w.binding))
                    found = self._per_watch[key] = (w.formula, w.binding, watched, self._forms_of(watched))
                self._watched.extend(found[2])
                forms = None if forms is None or found[3] is None else forms + found[3]
            self._watched_forms = forms
            self._watched_key = tuple(map(id, forms)) if forms is not None else ()

    def _constant_flows(self, durative: list[Flow]) -> dict[tuple[str, ...], Exact] | None:
        """The durative actions' continuous effects as constant rates per fluent, or None when a rate is
        not a constant (a fluent's value, or not linear): the general path solves that."""
        if self._linear is None:
            return None
        rates: dict[tuple[str, ...], Exact] = {}
        for flow in durative:
            key = (id(flow.rate), id(flow.binding))
            found = self._flow_rates.get(key)
            if found is None or found[0] is not flow.rate or found[1] is not flow.binding:
                try:
                    form = linear(self.ev, flow.rate, flow.binding, self._initial)
                except SemanticsError:
                    form = None
                if form is not None:
                    form = form.fold(self._known)
                found = self._flow_rates[key] = (flow.rate, flow.binding,
                                                 None if form is None or form.terms else form.constant)
            rate = found[2]
            if rate is None:
                return None
            rates[flow.fluent] = rates.get(flow.fluent, 0) + (rate if flow.sign > 0 else -rate)
        return rates

    def _forms_of(self, watched: list[tuple[ast.Comparison, Binding]]) -> list[Linear] | None:
        """The watched comparisons' `left - right` as linear forms, or None when one is not linear."""
        if self._linear is None:
            return None
        forms = []
        for c, b in watched:
            key = (id(c), tuple(b.items()))
            found = self._watch_forms.get(key)
            if found is None or found[0] is not c:
                try:
                    form = difference(self.ev, c, b, self._initial)
                except SemanticsError:
                    form = None
                found = self._watch_forms[key] = (c, None if form is None else form.fold(self._known))
            if found[1] is None:
                return None
            forms.append(found[1])
        return forms

    def check(self, state: State, at: Number, just_after: bool = False, skip: AbstractSet[int] = frozenset()) -> None:
        """Raise `Broken` when a watched invariant is false in `state`, at `at` (the plan's time); not
        those of the steps in `skip` (that end at `at`)."""
        if state is self.held_in:
            return  # the stretch that ended in `state` was shown to keep them exactly true throughout
        for watch in self.watches:
            if watch.owner.step not in skip and not watch.test(state):
                self._blame(self._moving(self.running, state))  # what changed up to here, to name it
                raise Broken(watch, normal(at), state, just_after)

    def _linear_forms(self, initial: State) -> _Forms | None:
        """Every comparison's `left - right` and every process's rates as linear forms (`linear`), made
        once; None when one is not linear, and every stretch then takes the general path."""
        if any(reads is None for reads in self.reads) or len(self._static_flows) < len(self.processes):
            return None
        # what nothing changes is a constant of the forms: most rates are then constants, found here
        static = static_functions(self.task.domain)
        known = self._known = {f: v for f, v in initial.values.items() if f[0] in static and not isinstance(v, str)}
        forms = [difference(self.ev, c, b, initial) for c, b in self.comparisons]
        rates: dict[Ground, list[_Rate]] = {}
        try:
            for p in self.processes:
                rates[p] = []
                for flow in self._flows_of(p, initial):
                    form = linear(self.ev, flow.rate, flow.binding, initial)
                    if form is None:
                        return None
                    form = form.fold(known)
                    fixed = None if form.terms else (form.constant if flow.sign > 0 else -form.constant)
                    rates[p].append((flow.fluent, flow.sign, form, form.fluents, fixed))
        except SemanticsError:
            return None  # the general path raises it at the stretch where it matters
        checked = [f.fold(known) for f in forms if f is not None]
        return _Forms(checked, rates) if len(checked) == len(forms) else None

    def _tests(self, grounds: Sequence[Ground]) -> list[tuple[Ground, Holds]]:
        """Each precondition's compiled test, looked up once: `holds` is asked at every happening."""
        return [(g, self.ev.compiled(g.schema.precondition) if g.schema.precondition is not None else _always)
                for g in grounds]

    def holds(self, g: Ground, state: State) -> bool:
        pre = g.schema.precondition
        return pre is None or self.ev.holds(pre, g.binding, state)

    def active(self, state: State) -> list[Ground]:
        return [p for p, test in self._process_tests if test(p.binding, state)]

    def apply(self, state: State, effects: Effects) -> State:
        """The state after `effects`; made from `state`'s own set and dict when states are changed in
        place (`state` is then not to be used again)."""
        if self.in_place:
            return state.advance(effects.deletes, effects.adds, resolve(state, effects))
        return apply(state, effects)

    def ticks(self, time: Fraction) -> int:
        """A plan time in ticks (`scale` a multiple of its denominator)."""
        return _ticks(time, self.scale)

    def real(self, ticks: Number) -> Number:
        """A time counted in ticks (1/`scale`) as the plan's time: an `int` when whole."""
        return normal(Fraction(ticks) / self.scale) if self.scale != 1 else normal(ticks)

    def _record(self, ticks: Number, labels: Sequence[str], state: State) -> None:
        if self.trajectory is not None:
            self.trajectory.append((self.real(ticks), state))
        if self.recorder is not None and labels:
            self.recorder.begin(self.real(ticks), None, labels)
            self.recorder.end(state)

    def _note_running(self, ticks: Number, running: list[Ground], state: State) -> None:
        if running == self.running:
            return
        labels = [] if self.recorder is None else (
            [f"process {p} starts" for p in running if p not in self.running]
            + [f"process {p} stops" for p in self.running if p not in running])
        self.running = running
        self._record(ticks, labels, state)

    def settle(self, state: State, ticks: Number, extra: Sequence[Ground] = ()) -> State:
        """Fire the events that hold in `state` (and `extra`, which hold just after `ticks`), again until
        none does."""
        if not self.events and not extra:
            return state  # a task without events (durative actions' change alone): nothing ever fires
        firing = self._firing(state, ticks)
        if not firing and not extra:
            return state  # the usual case, before any bookkeeping
        if self._fired[0] != ticks:
            self._fired = (ticks, set())
        fired = self._fired[1]
        firing = list(dict.fromkeys([*extra, *firing]))
        time = self.real(ticks)
        # No cap on the rounds: each fires an event not fired yet at this time (else it loops, below),
        # so a cascade ends within as many rounds as there are ground events.
        while firing:
            again = next((e for e in firing if e in fired), None)
            if again is not None:
                raise Failure("event-loop", f"at time {exact(time)}: the event {again} ({_where(again)}) "
                                            "would fire again at the same time: its effect does not make its "
                                            "precondition false", time, again)
            fired.update(firing)
            merged = Effects()
            for e in firing:
                try:
                    own = collect(self.ev, e.schema.effect, e.binding, state)
                except SemanticsError as exc:
                    raise self._fault(exc, f"the event {e} ({_where(e)})", ticks, e) from exc
                self.changed_by.update(dict.fromkeys(own.updates, _Cause("the event", e)))
                merged.merge(own)
            state = self.apply(state, merged)
            self._record(ticks, [f"event {e}" for e in firing] if self.recorder is not None else [], state)
            firing = self._firing(state, ticks)
        return state

    def _firing(self, state: State, ticks: Number) -> list[Ground]:
        """The events whose preconditions hold in `state`."""
        firing = []
        for e, test in self._event_tests:
            try:
                if test(e.binding, state):
                    firing.append(e)
            except SemanticsError as exc:
                raise self._fault(exc, f"the precondition of the event {e} ({_where(e)})", ticks, e) from exc
        return firing

    def _fault(self, exc: SemanticsError, what: str, ticks: Number, culprit: Ground | None = None) -> SemanticsError:
        """A fault of the world's own (an event's effect, a rate) named as its, not the next step's."""
        if isinstance(exc, Failure | NotPolynomial):
            return exc
        time = self.real(ticks)
        return Failure(exc.reason, f"at time {exact(time)}: {what}: {exc}", time, culprit)

    def run(self, state: State, start: Number, end: Number) -> State:
        """The state at `end`, from `state` at `start` with nothing but processes and events between
        (times in ticks: whole numbers while no root has fallen between the plan's times). A fault of
        the change itself (a division by zero in a rate) is the world's, at the time it arises."""
        self._now = start
        try:
            return self._run(state, start, end)
        except SemanticsError as exc:
            changing = [f"the process {p}" for p in self.running] + list(
                dict.fromkeys(f"the durative action {f.owner}" for f in self.durative))
            what = "the continuous change of " + (", ".join(changing) if changing else "the fluents")
            raise self._fault(exc, what, self._now) from exc

    def _run(self, state: State, start: Number, end: Number) -> State:
        if self._alone:
            done = self._durative_alone(state, start, end)
            if done is not None:
                return done
        now = start
        forced: list[Ground] | None = None  # the processes that run just after `now`, when not those at it
        tries = 0
        # Zeno behaviour: how many changes in a row came each sooner after the last, and the first gap
        streak, gap, first = 0, None, None
        while True:
            self._now = now
            self._held, self.held_in = False, None
            if now != start and self.watches:
                self.check(state, self.real(now))  # after events or a switch of processes within the stretch
            running = forced if forced is not None else self.active(state)
            self._note_running(now, running, state)
            if not running and forced is None and not self.durative:
                return state  # no process runs: nothing changes until the next happening
            moving = self._moving(running, state)
            if not moving and forced is None:
                return state  # nothing changes: the events that hold have fired, the processes are these
            horizon = end - now
            if horizon <= 0:
                return state
            motion: Callable[[Number], State] | None = None
            change = None
            self._stretch = now  # in ticks: made the plan's time only where an invariant is broken
            try:
                # the linear fast path: constant rates (of the processes and the durative actions' effects)
                # and linear comparisons (of the processes, events and watched invariants); else the general
                general = (self.durative and self._durative_rates is None) or (self.watches and
                                                                              self._watched_forms is None)
                linear = self._drift(running, state) if self._linear is not None and not general else None
                if linear is not None:
                    drift, slopes = linear
                    self._solving_ticks = True
                    change = self._exact_linear(drift, slopes, running, horizon, forced is not None)
                    motion = drift.advance if self.in_place else drift.at
                else:
                    self._solving_ticks = False
                    motion, change = self._general(state, moving, running, horizon, forced is not None)
            except NotPolynomial:
                if self.delta is None:
                    raise
                motion, self.approximated = None, True  # this stretch only: later ones may be exact again
            if motion is None:
                assert self.delta is not None
                self._budget(now, horizon)
                step = min(self.delta * self.scale, horizon)
                later = euler(self.ev, state, moving, Fraction(step) / self.scale)
                if self.in_place:
                    later = later.thaw()  # euler's state is immutable; the loop goes on changing one
                self._blame(moving)
                now, state, forced, tries = now + step, later, None, 0
                state = self.settle(state, now)
                continue
            if change is None:
                self._blame(moving)
                final = motion(horizon)
                self.held_in = final if self._held else None
                return final
            at, after, events_after = change
            if at == 0:
                tries += 1
                if tries > len(self.processes) + len(self.events) + 2:
                    raise Failure("unsettled", f"at time {exact(self.real(now))}: the running processes change "
                                               "as soon as they start (" + ", ".join(map(str, after)) + ")",
                                  self.real(now))
                if events_after:
                    state, forced = self.settle(state, now, events_after), None
                else:
                    forced = after
                continue
            if gap is not None and at < gap:
                streak, first = streak + 1, first if streak else gap
                assert first is not None
                if streak >= ZENO_RUN and at * ZENO_SHRINK < first:
                    time = self.real(now + at)
                    raise Failure("zeno", f"at time {exact(time)}: the world changes ever sooner after its last "
                                          f"change ({streak} changes in a row, the last {exact(self.real(at))} "
                                          "after the one before): infinitely many changes before a finite time "
                                          "(Zeno behaviour), which no plan can be carried out through", time)
            else:
                streak = 0
            gap = at
            state = motion(at)
            self._blame(moving)
            now, forced, tries = now + at, None, 0
            state = self.settle(state, now)

    def _durative_alone(self, state: State, start: Number, end: Number) -> State | None:
        """The usual stretch of a task whose only change is its durative actions' (no process, no
        event): `_run`'s first round on its linear path, where every rate is a constant and no watched
        comparison is 0 at the start or crosses 0, without the processes' and events' bookkeeping that
        has nothing to do. None for any other stretch (before anything is changed): `_run` solves it."""
        self._held, self.held_in = False, None
        durative = self.durative
        if not durative:
            return state  # nothing changes until the next happening
        horizon = end - start
        if horizon <= 0:
            return state
        rates = self._durative_rates
        forms = self._watched_forms if self.watches else ()
        if rates is None or forms is None:
            return None
        # the rates and the watched comparisons' slopes under them, made again only when either changes
        key = (id(rates), id(forms))
        found = self._alone_slopes.get(key)
        if found is None or found[0] is not rates or found[1] is not forms:
            slopes = []
            for form in forms:
                slope = form.slope(rates)
                if slope:
                    slopes.append((form, *parts(slope)))
            if len(self._alone_slopes) > 10_000:  # combinations made on the fly are not kept forever
                self._alone_slopes.clear()
            found = self._alone_slopes[key] = (rates, forms, slopes)
        values = state.values
        for fluent in rates:
            if isinstance(values.get(fluent, ""), str):
                return None  # `_run` says which value is undefined, in its own words
        lines: list[tuple[int, int, int, int]] = []
        for form, n1, d1 in found[2]:
            at_start = form.value_parts(values)
            if at_start is None:
                return None
            lines.append((*at_start, n1, d1))
        if lines:
            root, zero = _scan(lines, 0, horizon, self.scale)
            if root is not None or zero or not self._hold_throughout(state):
                return None  # a comparison is 0 or crosses 0 in the stretch: `_run` finds where
            self._held = bool(self.watches)
        self._stretch, self._solving_ticks = start, True
        self._blame(durative)
        drift = Drift(state, rates, self.scale)
        final = drift.advance(horizon) if self.in_place else drift.at(horizon)
        self.held_in = final if self._held else None
        return final

    def _budget(self, now: Number, horizon: Number) -> None:
        """Count one `--delta` step; refuse the stretch at once when it would take the plan's steps past
        MAX_DELTA_STEPS."""
        assert self.delta is not None
        needed = -(-Fraction(horizon) // (self.delta * self.scale))  # ceiling
        if self.delta_steps + needed > MAX_DELTA_STEPS:
            raise Failure("unsupported", f"from time {exact(self.real(now))}: --delta {exact(self.delta)} "
                          f"needs {needed:,} steps to reach time {exact(self.real(now + horizon))}, more than "
                          f"the {MAX_DELTA_STEPS:,} pddltools takes for one plan; give a larger step",
                          self.real(now))
        self.delta_steps += 1

    def _check_inside(self, state: State, at: Number, at_point: bool = False) -> None:
        """`check` at a time `at` after the start of the stretch (in ticks on the linear path, in the
        plan's time unit on the general one, which solves in it)."""
        start = self.real(self._stretch)
        self.check(state, start + (self.real(at) if self._solving_ticks else at), just_after=not at_point)

    def _general(self, state: State, moving: list[Flow], running: list[Ground], horizon: Number, forced: bool
                 ) -> tuple[Callable[[Number], State], tuple[Number, list[Ground], list[Ground]] | None]:
        """`Motion` and `_exact` over a stretch of `horizon` ticks, both in the plan's time units: the
        state at a time in ticks, and the first change with its time in ticks."""
        motion, scale = _motion(self.ev, state, moving), self.scale
        if scale == 1:
            return motion.at, self._exact(motion, running, horizon, forced)
        change = self._exact(motion, running, Fraction(horizon) / scale, forced)
        if change is not None:
            change = (change[0] * scale, change[1], change[2])
        return (lambda ticks: motion.at(Fraction(ticks) / scale)), change

    def _flows_of(self, process: Ground, state: State) -> list[Flow]:
        found = self._flows.get(process)
        if found is None:
            found = flows(self.ev, process, state)
            if process in self._static_flows:
                self._flows[process] = found
        return found

    def _blame(self, moving: Sequence[Flow]) -> None:
        """Record who changed each moving fluent: all of them when several change one together."""
        if len(moving) == 1:  # the usual stretch: one flow, which alone changed its fluent
            owner = moving[0].owner
            cause = self._causes.get(owner)
            self.changed_by[moving[0].fluent] = cause if cause is not None else self._cause(owner)
            return
        together: dict[tuple[str, ...], list[_Cause]] | None = None
        for flow in moving:
            owner = flow.owner
            cause = self._causes.get(owner)
            if cause is None:
                cause = self._cause(owner)
            before = self.changed_by.get(flow.fluent)
            if together is not None and flow.fluent in together:
                together[flow.fluent].append(cause)
            elif before is not None and before is not cause and flow.fluent in self._blamed:
                together = together if together is not None else {}
                together[flow.fluent] = [before, cause] if isinstance(before, _Cause) else [cause]
            self.changed_by[flow.fluent] = cause
            self._blamed.add(flow.fluent)
        self._blamed.clear()
        for fluent, causes in (together or {}).items():
            self.changed_by[fluent] = _Together(tuple(dict.fromkeys(causes)))

    def _cause(self, owner: Ground | Running) -> _Cause:
        """The cause a process or a running action is named by, made once."""
        cause = self._causes[owner] = (_Cause("the process", owner) if isinstance(owner, Ground)
                                       else _Cause("step", owner, owner.step))
        return cause

    def _drift(self, running: list[Ground], state: State) -> tuple[Drift, list[tuple[Linear, int, int]]] | None:
        """The running processes' change as constant rates, with the comparisons that move under them
        and their slopes; None when a rate reads a fluent that changes too (the general path solves
        that), or a value is undefined (the general path says so). Where every rate is a constant, the
        rates and slopes are found once per set of running processes."""
        key = tuple(running)
        found = self._constant_rates.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = self._constant_rates[key] = self._rates_of(running, None)
        constant = found is not None
        if found is None:  # a rate reads the state: read again at every stretch
            found = self._rates_of(running, state)
            if found is None:
                return None
        rates, slopes = found
        if self.durative or self.watches:  # the running durative actions' rates and invariants join in
            assert self._linear is not None  # no fast path otherwise
            if self._durative_rates and any(
                    fixed is None and not reads.isdisjoint(self._durative_rates)
                    for p in running for _, _, _, reads, fixed in self._linear.rates[p]):
                return None  # a process's rate reads what a durative action changes: not constant
            assert self._durative_rates is not None and self._watched_forms is not None  # else the general path
            if not constant:
                rates, slopes = self._with_durative(rates, slopes)
            else:  # the same few combinations recur from stretch to stretch: joined once each
                key2 = (id(found), self._durative_key, self._watched_key)
                joined = self._joined.get(key2)
                if joined is None or joined[0] is not found:
                    if len(self._joined) > 10_000:  # combinations made on the fly are not kept forever
                        self._joined.clear()
                    joined = self._joined[key2] = (found, *self._with_durative(rates, slopes))
                rates, slopes = joined[1], joined[2]
        values = state.values
        for fluent in rates:
            if isinstance(values.get(fluent, ""), str):
                return None
        return Drift(state, rates, self.scale), slopes

    def _with_durative(self, rates: dict[tuple[str, ...], Exact], slopes: list[tuple[Linear, int, int]]
                       ) -> tuple[dict[tuple[str, ...], Exact], list[tuple[Linear, int, int]]]:
        """The rates and slopes of a stretch with the durative actions' constant rates added to the
        processes' and the watched comparisons' slopes beside the processes' and events'."""
        assert self._durative_rates is not None and self._watched_forms is not None  # else the general path
        if self._durative_rates:
            rates = dict(rates)
            for fluent, rate in self._durative_rates.items():
                rates[fluent] = rates.get(fluent, 0) + rate
            slopes = self._slopes(rates)
        slopes = list(slopes)
        for form in self._watched_forms:
            slope = form.slope(rates)
            if slope:
                slopes.append((form, *parts(slope)))
        return rates, slopes

    def _rates_of(self, running: list[Ground], state: State | None) -> tuple[dict[tuple[str, ...], Exact],
                                                                              list[tuple[Linear, int, int]]] | None:
        """The rates (and slopes) of the running processes, read in `state`; with no state, only when
        every rate is a constant, else None."""
        assert self._linear is not None
        rates: dict[tuple[str, ...], Exact] = {}
        found = [self._linear.rates[p] for p in running]
        for effects in found:
            for fluent, *_ in effects:
                rates[fluent] = 0
        for effects in found:
            for fluent, sign, form, reads, fixed in effects:
                if fixed is not None:
                    rates[fluent] += fixed
                    continue
                rate = form.value(state.values) if state is not None else None
                if rate is None or not reads.isdisjoint(rates):
                    return None
                rates[fluent] += rate if sign > 0 else -rate
        return rates, self._slopes(rates)

    def _slopes(self, rates: dict[tuple[str, ...], Exact]) -> list[tuple[Linear, int, int]]:
        """The comparisons whose value changes under `rates`, each with how fast."""
        assert self._linear is not None
        slopes = []
        for form, reads in zip(self._linear.comparisons, self.reads, strict=True):
            assert reads is not None  # no linear forms otherwise
            if not reads.isdisjoint(rates):
                slope = form.slope(rates)
                if slope:
                    slopes.append((form, *parts(slope)))
        return slopes

    def _exact_linear(self, drift: Drift, slopes: list[tuple[Linear, int, int]], running: list[Ground],
                      horizon: Number, forced: bool) -> tuple[Exact, list[Ground], list[Ground]] | None:
        """`_exact` where every rate is constant, in ticks: each comparison is `a + b t`, `a` its linear
        form's value at the start and `b` its slope under the rates (per unit of plan time)."""
        values = drift.state.values
        # `a + b t` as the integers of a = n0 / d0 and b = n1 / d1: no Fraction made for a value that
        # only locates a root, usually outside the stretch
        lines: list[tuple[int, int, int, int]] = []
        for form, n1, d1 in slopes:
            start = form.value_parts(values)
            if start is None:  # the general path raises the undefined value, in its own words
                return self._general(drift.state, self._moving(running, drift.state), running, horizon, forced)[1]
            lines.append((*start, n1, d1))
        if not lines and not forced:
            return None
        per = drift.per
        root, zero = _scan(lines, 0, horizon, per)
        if root is None and not zero and not forced and (not self.watches or self._hold_throughout(drift.state)):
            self._held = bool(self.watches)  # so they are at its end: `check` need not read them there
            return None  # the usual stretch: no comparison is 0 at its start or crosses 0 in it
        return self._first_change(lambda at: _scan(lines, at, horizon, per), drift.at, running, horizon, forced)

    def _hold_throughout(self, state: State) -> bool:
        """Whether the watched invariants hold exactly in `state`, at the start of a stretch in which no
        comparison is 0 at the start or crosses 0: each then has its truth of the start throughout, and
        so has each invariant (which `_first_change` would otherwise read in the middle). Not where
        derived predicates are: one may read a fluent through its rule, where no comparison shows it."""
        if self._derived:
            return False
        if state is self.exactly_in:  # the temporal loop has just read them all in this very state
            return True
        holds = self.ev.holds
        return all(holds(w.formula, w.binding, state) for w in self.watches)

    def _moving(self, running: list[Ground], state: State) -> list[Flow]:
        found = [f for p in running for f in self._flows_of(p, state)]
        return found + self.durative if self.durative else found

    def _exact(self, motion: Motion | ExpMotion, running: list[Ground], horizon: Number,
               forced: bool) -> tuple[Number, list[Ground], list[Ground]] | None:
        """The first time in `(0, horizon]` after which, or at which, the running processes change or an
        event fires: `(time, processes then, events then)`; 0 when it is just after the start; None when
        nothing changes. `forced`: `running` are not the processes whose conditions hold at the start."""
        changing = motion.polys.keys()
        polys: list[Poly | ExpPoly] = []
        for (c, b), reads in zip(self.comparisons, self.reads, strict=True):
            if reads is None or not changing.isdisjoint(reads):
                p = motion.difference(c, b)
                if not p.constant:
                    polys.append(p)
        for c, b in self._watched:
            p = motion.difference(c, b)
            if not p.constant:
                polys.append(p)
        if not polys and not forced:
            return None  # no condition can change its truth: nothing to solve

        def scan(at: Number) -> tuple[Number | None, bool]:
            root: Number | None = None
            for p in polys:
                r = first_root(p, at, horizon) if isinstance(p, Poly) else first_exp_root(p, at, horizon)
                if r is not None and (root is None or r < root):
                    root = r
            return root, any(not p.at(at) if isinstance(p, Poly) else not p.sign(Fraction(at)) for p in polys)
        return self._first_change(scan, motion.at, running, horizon, forced)

    def _first_change(self, scan: Callable[[Number], tuple[Number | None, bool]], where: Callable[[Number], State],
                      running: list[Ground], horizon: Number, forced: bool
                      ) -> tuple[Number, list[Ground], list[Ground]] | None:
        """The search `_exact` and `_exact_linear` share: from one root of the comparisons to the next
        (`scan(at)`: the first root after `at`, and whether one is 0 at `at`), the first at which, or
        just after which, the running processes change or an event fires; `where(t)` is the state then."""
        at: Number = 0
        while True:
            root, zero = scan(at)
            # Just after `at` every condition is as at `at` unless one of its comparisons is 0 there.
            # An invariant is read there whatever: an irrational root is a bracket's far end, where the
            # comparison is not 0 but VAL's slack still lets it hold.
            if (forced and not at) or zero or self.watches:
                # Fraction(_, 2): a root or `at` may be an int, and int / int is a float
                inside = where(Fraction(at + (root if root is not None else horizon), 2))
                if self.watches:  # an invariant is as it is here until the next root
                    self._check_inside(inside, at)
            if (forced and not at) or zero:
                after, events = self.active(inside), [e for e in self.events if self.holds(e, inside)]
                if after != running or events:
                    return at, after, events
            if root is None:
                return None
            point = where(root)
            if self.watches and root != horizon:  # at the next happening, its own check (the end is open)
                self._check_inside(point, root, at_point=True)
            if self.active(point) != running or any(self.holds(e, point) for e in self.events):
                return root, running, []
            at = root


def _motion(ev: Evaluator, state: State, moving: list[Flow]) -> Motion | ExpMotion:
    """The change of a stretch in closed form: polynomial, else linear with constant coefficients
    (exponential); `NotPolynomial` when it is neither (the change then needs --delta)."""
    try:
        return Motion(ev, state, moving)
    except NotPolynomial as exc:
        try:
            return ExpMotion(ev, state, moving)
        except NotLinear:
            raise exc from None


def _scan(lines: list[tuple[int, int, int, int]], at: Exact, horizon: Exact, per: int) -> tuple[Exact | None, bool]:
    """`_World._first_change`'s scan of linear comparisons `a + b t` (the integers of a = n0 / d0 and
    b = n1 / d1): the first root in `(at, horizon]`, and whether one is 0 at `at`."""
    root: Exact | None = None
    zero = False
    for n0, d0, n1, d1 in lines:
        r = line_root_parts(n0, d0, n1, d1, at, horizon, per)
        if r is not None and (root is None or r < root):
            root = r
        zero = zero or line_is_zero(n0, d0, n1, d1, at, per)
    return root, zero


@dataclass(frozen=True, slots=True)
class _Forms:
    """A task's linear forms: each comparison's `left - right`, in the order of `_World.comparisons`, and
    each process's continuous effects as (fluent, sign, rate, the fluents the rate reads)."""

    comparisons: list[Linear]
    rates: dict[Ground, list[_Rate]]


#: a process's continuous effect: the fluent, the sign, the rate's form, the fluents it reads, and the
#: signed rate itself when the form is a constant
_Rate = tuple[tuple[str, ...], int, Linear, frozenset[tuple[str, ...]], Exact | None]


def validate_pddlplus(task: GroundedTask, plan: Plan, name: str, delta: Fraction | None = None,
                      recorder: Trace | None = None) -> PlanReport:
    """Validate a plan of timed instantaneous actions against a task with processes and events; `delta`
    is the step for change that is not polynomial in time."""
    world = _World(task, delta, recorder)
    instants = Instants(task, plan, name, world)
    report = instants.refused or run(instants)
    if not world.approximated:
        return report
    note = f" (approximated with --delta {exact(delta)})" if delta is not None else ""
    return replace(report, delta=delta, message=report.message + note)


#: whether `_proven` may stand in for the happenings read in turn (off: every plan read so, for the tests)
SHORTCUT = True


def _proven(instants: Instants) -> State | None:
    """`Instants.proven`: the final state of a plan of timed instantaneous actions shown valid up to its
    goal without reading its happenings in turn, or None (before anything is changed) when it is not.

    For the long plans of processes switched by actions (a valve opened and closed thousands of times):
    no trace, trajectory constraint, timed literal or derived predicate; one step at each time; every
    process's precondition a test of atoms alone, so that the running processes change only at the
    steps, and every rate a constant. Between two steps each changing fluent is then `value + rate * t`,
    and no event fires in the stretch when one conjunct of its precondition, an atom or a comparison
    (not `=`) linear in the fluents, is false at both ends: the times where such a comparison holds are
    a half-line, which meets a stretch only at one of its ends if at all. Anything else (an event whose
    precondition holds, or is not shown false throughout a stretch; a value undefined) leaves the plan
    to the happenings read in turn, which then say what happens."""
    world, task = instants.world, instants.task
    forms = world._linear
    if (instants.recorder is not None or world.trajectory is not None or task.timed_literals or world._derived
            or forms is None or any(p.schema.precondition is not None and any(
                isinstance(n, ast.Comparison) for n in p.schema.precondition.walk()) for p in world.processes)):
        return None
    timed = instants.timed
    if any(timed[i][0] == timed[i + 1][0] for i in range(len(timed) - 1)):
        return None  # steps that happen together: `run` reads them as one happening
    guards = [(e, _guards(world, e)) for e in world.events]
    processes = world._process_tests
    scale = world.scale
    # per set of running processes: their constant rates (None: one reads the state)
    per_running: dict[tuple[Ground, ...], dict[tuple[str, ...], Exact] | None] = {}

    def blocked(state: State) -> list[Holds] | None:
        """Per event, a guard false in `state`; None when an event has none."""
        found = []
        for e, tests in guards:
            guard = next((t for t in tests if not t(e.binding, state)), None)
            if guard is None:
                return None
            found.append(guard)
        return found

    def rates_of(state: State) -> dict[tuple[str, ...], Exact] | None:
        running = tuple(p for p, test in processes if test(p.binding, state))
        if running in per_running:
            return per_running[running]
        rates: dict[tuple[str, ...], Exact] | None = {}
        for p in running:
            for fluent, _, _, _, fixed in forms.rates[p]:
                if fixed is None or rates is None:
                    rates = None
                    break
                rates[fluent] = rates.get(fluent, 0) + fixed
        per_running[running] = rates
        return rates

    def stretch(state: State, since: int, until: int, guarded: list[Holds]
                ) -> State | None:
        """The state at `until`, from `state` at `since`, when no event fires in between."""
        rates = rates_of(state)
        if rates is None:
            return None
        if until == since or not rates:
            return state
        later = drifted(state, rates, until - since, scale)
        if later is None:
            return None
        for (e, _), guard in zip(guards, guarded, strict=True):
            if guard(e.binding, later):
                return None
        return later

    state = task.initial_state().thaw()
    now = 0
    try:
        guarded = blocked(state)
        for tick, event in timed:
            if guarded is None:
                return None
            later = stretch(state, now, tick, guarded)
            if later is None:
                return None
            state, now = later, tick
            action = event.action
            assert action is not None and event.compiled is not None
            tests, effect = event.compiled
            b = action.binding
            for _, test in tests:
                if not test(b, state):
                    return None
            if effect is not None:
                effects = no_effects()
                effect(b, state, effects)
                state = state.advance(effects.deletes, effects.adds, resolve(state, effects))
            guarded = blocked(state)
        end = _ticks(instants.end, scale)
        if guarded is None:
            return None
        if end > now:
            later = stretch(state, now, end, guarded)
            if later is None:
                return None
            state = later
    except SemanticsError:
        return None  # `run` says where and why
    return state


def _guards(world: _World, event: Ground) -> list[Holds]:
    """The conjuncts of an event's precondition each false throughout a stretch of constant rates when
    false at both its ends (atoms, negated atoms, comparisons other than `=` linear in the fluents), as
    exact tests."""
    found: list[Holds] = []
    pre = event.schema.precondition
    for part in pre.parts if isinstance(pre, ast.And) else (pre,) if pre is not None else ():
        if isinstance(part, ast.Atom) or (isinstance(part, ast.Not) and isinstance(part.body, ast.Atom)):
            found.append(world.ev.compiled(part))
        elif isinstance(part, ast.Comparison) and part.op != "=":
            try:
                form = difference(world.ev, part, event.binding, world._initial)
            except SemanticsError:
                form = None
            if form is not None:
                found.append(world.ev.compiled(part))
    return found


class Instants(Time):
    """PDDL+ time as VAL reads a plan of timed instantaneous actions: the steps at one exact time are a
    happening, with no test of interference; the world (`_World`) runs the stretches between them and
    fires the events after each; the plan ends at its last step or its explicit end. Times are counted
    in ticks of 1/scale, scale the least common denominator of the plan's times (decimals: a power of
    ten): whole numbers, so sorting, grouping and the stretches' lengths are integer work."""

    def __init__(self, task: GroundedTask, plan: Plan, name: str, world: _World) -> None:
        super().__init__(task, plan, name, world.recorder)
        self.world = world
        self.refused: PlanReport | None = None
        for written, action in zip(plan.steps, self.actions, strict=True):
            if written.time is None:
                raise PlanError("timing", error("V006", f"step {written.index}: a PDDL+ plan gives each step its "
                                                        "time, 'time: (action ...)'", written.span), written.index)
            if not isinstance(action.schema, ast.Action) or written.duration is not None:
                self.refused = invalid_step(name, plan, written, "unsupported", f"step {written.index} {written}: "
                                            "PDDL+ plans are validated with instantaneous actions only")
                return
        scale = world.scale = lcm(*{s.time.denominator for s in plan.steps if s.time is not None},
                                  plan.end.denominator if plan.end is not None else 1)
        # sorted by time alone: the sort is stable and the steps come in index order, so ties keep it
        events = [new_event(s.time, "action", s, a, None, None, None, None, None)
                  for s, a in zip(plan.steps, self.actions, strict=True)]
        compiled: dict[int, tuple[list[tuple[ast.Formula, Holds]], Collect | None]] = {}
        for event in events:  # each distinct step's conditions and effect, looked up once (`checks`)
            found = compiled.get(id(event.action))
            event.compiled = found if found is not None else compiled.setdefault(id(event.action), self.checks(event))
        self.timed = sorted(((_ticks(e.time, scale), e) for e in events), key=itemgetter(0))
        last = self.timed[-1][1].time if self.timed else None
        self.end = plan.end if plan.end is not None else last if last is not None else Fraction(0)
        self.now: Number = 0  # in ticks
        self.closing = False

    def proven(self) -> State | None:
        return _proven(self) if SHORTCUT else None

    def start(self) -> State:
        world, task = self.world, self.task
        state = task.initial_state()
        if self.recorder is not None:
            self.recorder.start(self.plan, state)
        if world.trajectory is not None:
            world.trajectory.append((0, state))
        if task.timed_literals:
            raise _Refused(cannot_judge(self.name, self.plan, None, "timed initial literals beside processes and "
                                        "events are not validated yet", task.timed_literals[0].element.span))
        # One state changed in place from happening to happening, when no state needs to be kept (for the
        # trace or trajectory constraints): no copy of every atom and value per happening.
        world.in_place = self.recorder is None and world.trajectory is None
        if world.in_place:
            state = state.thaw()
        return world.settle(state, 0)

    def happenings(self) -> Iterator[tuple[Number, list[Event]]]:
        timed = self.timed
        i, n = 0, len(timed)
        while i < n:
            time = timed[i][0]
            j = i + 1
            while j < n and timed[j][0] == time:
                j += 1
            yield time, [timed[i][1]] if j == i + 1 else [event for _, event in timed[i:j]]
            i = j

    def elapse(self, state: State, now: Number, happening: list[Event]) -> State:
        state = self.world.run(state, self.now, now)
        self.now = now
        return state

    def begin(self, now: Number, happening: list[Event], state: State) -> None:
        if self.recorder is not None:
            first = happening[0].step
            assert first is not None
            self.recorder.begin(self.world.real(now), first.index, [e.label for e in happening])

    def unmet(self, event: Event, formula: ast.Formula, now: Number, state: State) -> PlanReport:
        """What is unmet, and who last changed it."""
        a, s, at = event.action, event.step, self.world.real(now)
        assert a is not None and s is not None
        unsatisfied = self.ev.explain(formula, a.binding, state)
        blamed = _blame(self.task, self.world, formula, a, state)
        message = f"time {exact(at)}, step {s.index} {a}: the precondition is not satisfied"
        report = invalid_step(self.name, self.plan, s, "precondition",
                              message + (f" ({'; '.join(blamed)})" if blamed else ""),
                              unsatisfied, advise(unsatisfied, f"before time {exact(at)}"))
        return replace(report, failed_time=at)

    def apply(self, now: Number, happening: list[Event], merged: Effects, state: State) -> State:
        world = self.world
        for event in happening:
            if event.effects and event.effects.updates:
                assert event.step is not None
                world.changed_by.update(dict.fromkeys(event.effects.updates,
                                                      _Cause("step", event.action, event.step.index)))
        state = world.apply(state, merged)
        if world.trajectory is not None:
            world.trajectory.append((world.real(now), state))
        if self.recorder is not None:
            self.recorder.end(state)
        return world.settle(state, now)

    def close(self, state: State) -> State:
        self.closing = True
        return self.world.run(state, self.now, _ticks(self.end, self.world.scale))

    def fault(self, exc: SemanticsError, now: Number, happening: list[Event]) -> PlanReport:
        if isinstance(exc, _Refused):
            return exc.report
        at = self.world.real(self.now)
        if isinstance(exc, Failure):  # the world's fault (events, processes), not the next step's
            return _failed(self.plan, self.name, None, exc.reason, str(exc), exc.time)
        if isinstance(exc, NotPolynomial):
            return _failed(self.plan, self.name, None, "unsupported", f"from time {exact(at)}: {exc}; give --delta "
                           "STEP to approximate it", at, exc)
        step = happening[0].step if happening and not self.closing else None
        return _failed(self.plan, self.name, step, exc.reason, f"at time {exact(at)}: {exc}", at, exc)

    def finish(self, state: State, violations: Counter[str]) -> PlanReport:
        report = finish(self.task, self.plan, self.name, state, self.world.trajectory or [], violations,
                        normal(self.end), temporal=True)
        return report if report.valid else replace(report, failed_time=self.end)


class _Refused(SemanticsError):
    """A plan the PDDL+ instants cannot judge, found at its start: the report says why."""

    def __init__(self, report: PlanReport) -> None:
        super().__init__(report.message)
        self.report = report


def _ticks(time: Fraction | None, scale: int) -> int:
    """A plan time (checked to be given) in ticks of 1/scale, `scale` a multiple of its denominator."""
    assert time is not None
    return time.numerator * (scale // time.denominator)


def _blame(task: GroundedTask, world: _World, pre: ast.Formula, action: GroundAction, state: State) -> list[str]:
    """Who last changed the numeric fluents a false precondition reads: a process, an event, a step."""
    _, fluents = task.evaluator.reads(pre, action.binding, state)
    return [f"{show_atom(f)} was last changed by {world.changed_by[f]}" for f in sorted(fluents)
            if f in world.changed_by]


def _failed(plan: Plan, name: str, step: PlanFileStep | None, reason: str, message: str, time: Number,
            cause: SemanticsError | None = None) -> PlanReport:
    return replace(invalid_step(name, plan, step, reason, message, cause=cause), failed_time=normal(time))
