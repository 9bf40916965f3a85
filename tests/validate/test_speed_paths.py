"""The validator's shortcuts for long plans give exactly the reports of the paths they bypass: a plan
of durative actions with constant rates, or of instantaneous actions switching processes, shown valid
without the happening loop (`temporal._proven`, `pddlplus._proven`), the
stretch of durative change alone (`_World._durative_alone`), the running actions' rates and watched
comparisons found once per set of actions (`_World.follow`), whole and decimal plan times read without
the decimal's pattern (`planfile._time`), and the compiled conjunctions, negations and comparisons of
ints and `Fraction`s. Report JSON and trace JSON are compared whole, over every plan of
corpus/plans/continuous and long battery plans with faults at their middle."""

from __future__ import annotations

import json
import operator
import random
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.pddl.parser import parse_text
from pddltools.semantics import GroundedTask
from pddltools.semantics.state import State
from pddltools.validate import pddlplus, temporal, validate_plan
from pddltools.validate.pddlplus import _World
from pddltools.validate.planfile import _fraction, _time
from pddltools.validate.trace import Trace
from tests.validate.conftest import OWN, REPO, manifest
from tests.validate.test_continuous_fast_path import BATTERY, CONTINUOUS, ROWS


def _cycles(count: int) -> list[str]:
    return [line for i in range(count) for line in (f"{10 * i}: (charge) [3]", f"{10 * i + 5}: (run heater) [4]")]


def _broken(lines: list[str]) -> dict[str, str]:
    """The plan, and variants broken at its middle as planners break plans: a charge too long (over the
    capacity), a run too long (below 0), a second charge at once, a charge left out, a duration past its
    bound, times 0.001 off."""
    k = len(lines) // 2 & ~1
    variants = {
        "valid": lines,
        "overcharge": [*lines[:k], lines[k].replace("[3]", "[5]"), *lines[k + 1:]],
        "drain": [*lines[:k + 1], lines[k + 1].replace("[4]", "[7]"), *lines[k + 2:]],
        "twice": [*lines[:k + 1], lines[k].replace(": (charge)", ".5: (charge)"), *lines[k + 1:]],
        "no-charge": [*lines[:k], *lines[k + 1:]],
        "too-long": [*lines[:k], lines[k].replace("[3]", "[101]"), *lines[k + 1:]],
        # 0.004 short of each charge: the charge falls below the goal's 5 by the end
        "rounded": [line.replace(": (charge) [3]", ".001: (charge) [2.999]") for line in lines],
    }
    return {name: "".join(f"{line}\n" for line in plan) for name, plan in variants.items()}


def _reports(task: GroundedTask, plan: Path | str) -> tuple[str, str]:
    """The report JSON and the trace JSON of a plan."""
    report = validate_plan(task, plan)
    trace = Trace(task)
    validate_plan(task, plan, recorder=trace)
    return (json.dumps(report.to_json(), sort_keys=True, default=str),
            json.dumps(trace.to_json(), sort_keys=True, default=str))


def _without_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every plan through the happening loop (not `temporal._proven`), every stretch through `_run`'s
    first round, and `follow` recomputing at every change."""
    monkeypatch.setattr(temporal, "SHORTCUT", False)
    monkeypatch.setattr(pddlplus, "SHORTCUT", False)
    monkeypatch.setattr(_World, "_durative_alone", lambda self, state, start, end: None)
    follow = _World.follow
    monkeypatch.setattr(_World, "follow", lambda self, durative, watches, running=None: follow(self, durative,
                                                                                               watches))


@pytest.fixture(scope="module")
def battery(tmp_path_factory: pytest.TempPathFactory) -> GroundedTask:
    problem = tmp_path_factory.mktemp("battery") / "problem.pddl"
    problem.write_text(BATTERY)
    return GroundedTask.load(CONTINUOUS / "battery" / "domain.pddl", problem)


@pytest.mark.parametrize(("name", "plan"), list(_broken(_cycles(60)).items()), ids=list(_broken(_cycles(1))))
def test_battery_plans_are_reported_as_without_the_shortcuts(name: str, plan: str, battery: GroundedTask,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _reports(battery, plan)
    with monkeypatch.context() as patched:
        _without_shortcuts(patched)
        assert _reports(battery, plan) == fast
    reason = json.loads(fast[0])["reason"]
    assert reason == {"valid": None, "overcharge": "invariant", "drain": "invariant", "twice": "precondition",
                      "no-charge": "invariant", "too-long": "duration", "rounded": "goal"}[name]


# the loop's other cases for `_proven`: actions running together on one fluent, a fluent read by a
# condition while it changes, fractional times, an instantaneous-looking short action, an invariant
# broken only inside VAL's slack, a start that would be too close to an end (epsilon), a run at once
# after a charge ends (a happening of two events)
TOGETHER = {
    "together": "0: (charge) [6]\n1: (run heater) [4]\n2: (run drill) [2.5]\n",
    "together-drained": "0: (run heater) [6]\n1: (run drill) [6]\n",
    "fractions": "0.25: (charge) [2.5]\n3.125: (run heater) [3.75]\n7.5: (charge) [1.25]\n",
    "slack": "0: (charge) [3.75002]\n5: (run heater) [4]\n",
    "slack-start": "0: (run heater) [2]\n2: (charge) [2]\n2.001: (run heater) [2]\n",
    "same-time": "0: (charge) [3]\n3: (run heater) [4]\n",
    "close": "0: (charge) [3]\n3.0005: (run heater) [4]\n",
    "touching": "0: (charge) [3]\n3.001: (run heater) [4]\n",
}


@pytest.mark.parametrize("name", list(TOGETHER))
def test_plans_shown_valid_without_the_loop_are_reported_as_by_it(name: str, battery: GroundedTask,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _reports(battery, TOGETHER[name])
    with monkeypatch.context() as patched:
        _without_shortcuts(patched)
        assert _reports(battery, TOGETHER[name]) == fast


def test_the_shortcut_stands_in_for_the_happenings_only_where_it_shows_validity(battery: GroundedTask,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The long valid plan is judged without reading its happenings in turn; a broken one is read so (its
    report names the fault found there)."""
    runs: list[object] = []
    start = temporal.Timeline.start
    monkeypatch.setattr(temporal.Timeline, "start", lambda timeline: runs.append(timeline) or start(timeline))
    plans = _broken(_cycles(60))
    assert validate_plan(battery, plans["valid"]).valid and runs == []
    assert validate_plan(battery, TOGETHER["together"]).valid and runs == []
    assert validate_plan(battery, plans["drain"]).reason == "invariant" and len(runs) == 1


PDDLPLUS = OWN / "pddl+"
TANK = PDDLPLUS / "tank"


def _tank_variants() -> dict[str, str]:
    """A long valid tank plan, and variants broken as planners break them: a valve closed too late (the
    tank overflows: an event fires), opened twice, closed without opening, two steps at one time, an
    opening long after the others, a last opening left open."""
    lines = [f"{i}: (open_valve)\n{i}.018: (close_valve)" for i in range(300)]
    k = len(lines) // 2
    variants = {
        "valid": lines,
        "overflow": [*lines[:k], f"{k}: (open_valve)\n{k + 7}.5: (close_valve)", *lines[k + 8:]],
        "twice": [*lines[:k], f"{k}: (open_valve)\n{k}.5: (open_valve)", *lines[k + 1:]],
        "closed": [*lines[:k], f"{k}.5: (close_valve)", *lines[k + 1:]],
        "together": [*lines[:k], f"{k}: (open_valve)\n{k}: (close_valve)", *lines[k + 1:]],
        "left-open": [*lines, "300: (open_valve)"],
        "late": [*lines, "400: (open_valve)", "401.1: (close_valve)"],
    }
    return {name: "".join(f"{line}\n" for line in plan) for name, plan in variants.items()}


@pytest.fixture(scope="module")
def tank() -> GroundedTask:
    return GroundedTask.load(TANK / "domain.pddl", TANK / "problem.pddl")


@pytest.mark.parametrize("name", list(_tank_variants()))
def test_tank_plans_are_reported_as_without_the_shortcuts(name: str, tank: GroundedTask,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    plan = _tank_variants()[name]
    fast = _reports(tank, plan)
    with monkeypatch.context() as patched:
        _without_shortcuts(patched)
        assert _reports(tank, plan) == fast


def test_the_pddlplus_shortcut_stands_in_for_the_happenings_only_where_it_shows_validity(
        tank: GroundedTask, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[object] = []
    start = pddlplus.Instants.start
    monkeypatch.setattr(pddlplus.Instants, "start", lambda instants: runs.append(instants) or start(instants))
    plans = _tank_variants()
    assert validate_plan(tank, plans["valid"]).valid and runs == []
    assert validate_plan(tank, plans["overflow"]).reason == "precondition" and len(runs) == 1  # it overflowed


def _manifest_alike(rows: list[dict[str, str]], tasks_in: Path, plans_in: Path,
                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every plan of a manifest reported alike with the shortcuts on and off."""
    tasks: dict[tuple[str, str], GroundedTask] = {}
    for row in rows:
        key = (row["domain"], row["problem"])
        task = tasks.get(key) or tasks.setdefault(key, GroundedTask.load(tasks_in / key[0], tasks_in / key[1]))
        fast = _reports(task, plans_in / row["plan"])
        with monkeypatch.context() as patched:
            _without_shortcuts(patched)
            assert _reports(task, plans_in / row["plan"]) == fast, row["id"]


def test_the_pddlplus_corpus_is_reported_as_without_the_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    _manifest_alike(manifest(PDDLPLUS / "manifest.tsv"), REPO, PDDLPLUS, monkeypatch)


def test_the_oracle_set_is_reported_as_without_the_shortcuts(monkeypatch: pytest.MonkeyPatch) -> None:
    _manifest_alike(ROWS, CONTINUOUS, CONTINUOUS, monkeypatch)


@pytest.mark.parametrize("text", ["0", "7", "007", "12.034", "007.50", "5.", ".5", "12.0", "0.0022",
                                  "99999999999999.9", "1234567890123456", "1e3", "1_0", "-1", "²", "٣.5", "1/2"])
def test_a_time_is_read_as_the_decimal_reader_reads_it(text: str) -> None:
    try:
        expected: Fraction | type[Exception] = _fraction(text, signed=False)
    except ValueError:
        expected = ValueError
    try:
        found: Fraction | type[Exception] = _time(text)
    except ValueError:
        found = ValueError
    assert found == expected
    assert type(found) is type(expected)


DOMAIN = """(define (domain d) (:requirements :fluents :negative-preconditions)
  (:predicates (p) (q ?x))
  (:functions (f) (g))
  (:action one :parameters () :precondition (and (p)) :effect (and (not (p))))
  (:action two :parameters () :precondition (and (not (p)) (>= (f) (g))) :effect (p))
  (:action lt :parameters () :precondition (< (f) (g)) :effect (p))
  (:action le :parameters () :precondition (<= (f) 2) :effect (p))
  (:action eq :parameters () :precondition (= (f) (g)) :effect (p))
  (:action gt :parameters () :precondition (> (f) (g)) :effect (p)))"""
PROBLEM = """(define (problem d1) (:domain d) (:objects a) (:init (= (f) 0) (= (g) 0)) (:goal (p)))"""
VALUES = [0, 2, -3, Fraction(1, 3), Fraction(-7, 2), Fraction(4, 6), Fraction(2, 1), 10**30 + 1, Fraction(10**30, 3)]


def test_compiled_conditions_mean_what_they_say() -> None:
    task = GroundedTask(parse_text(DOMAIN, kind="domain"), parse_text(PROBLEM, kind="problem"))
    ev = task.evaluator
    pre = {name: task.schemas[name].precondition for name in ("one", "two", "lt", "le", "eq", "gt")}
    ops = {"lt": operator.lt, "eq": operator.eq, "gt": operator.gt}
    for atoms in (set(), {("p",)}):
        for f in VALUES:
            for g in [*VALUES, "an-object"]:
                state = State(frozenset(atoms), {("f",): f, ("g",): g})
                holds = {name: ev.holds(formula, {}, state) for name, formula in pre.items() if formula is not None}
                numbers = not isinstance(g, str)
                assert holds["one"] == (("p",) in atoms)
                assert holds["two"] == ((("p",) not in atoms) and numbers and Fraction(f) >= Fraction(g))
                assert holds["le"] == (Fraction(f) <= 2)
                for name, op in ops.items():
                    assert holds[name] == (numbers and op(Fraction(f), Fraction(g))), (name, f, g)
    undefined = State(frozenset(), {("f",): 1})
    assert not ev.holds(pre["lt"], {}, undefined) and not ev.holds(pre["eq"], {}, undefined)


def _random_plans(seed: int, count: int) -> tuple[list[str], list[str]]:
    """Battery and tank plans of random times and durations (as a planner's mistakes would make them:
    ends together, actions 0.001 apart, drains to exactly 0, charges to exactly the capacity)."""
    rng = random.Random(seed)
    battery, tank = [], []
    for _ in range(count):
        t, lines = Fraction(0), []
        for _ in range(rng.randint(1, 10)):
            t += Fraction(rng.choice(["0", "0.5", "1", "2", "3", "0.001", "0.01", "3.25"]))
            duration = rng.choice(["1", "2", "3", "4", "2.5", "3.75", "0.5", "20", "1.001", "3.0001", "5"])
            lines.append(f"{float(t):g}: {rng.choice(['(charge)', '(run heater)', '(run drill)'])} [{duration}]")
        battery.append("".join(f"{line}\n" for line in lines))
        t, lines, opened = Fraction(0), [], False
        for _ in range(rng.randint(1, 12)):
            t += Fraction(rng.choice(["0", "0.5", "1", "2", "0.001", "0.01", "0.25", "4", "6"]))
            valve = rng.choice(["(open_valve)", "(close_valve)"]) if rng.random() < 0.2 else (
                "(close_valve)" if opened else "(open_valve)")
            opened = valve == "(open_valve)"
            lines.append(f"{float(t):g}: {valve}")
        tank.append("".join(f"{line}\n" for line in lines))
    return battery, tank


def test_random_plans_are_reported_as_without_the_shortcuts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Goals any state meets, so that many random plans are valid and reach the shortcuts' end."""
    problem = tmp_path / "battery.pddl"
    problem.write_text(BATTERY.replace("(:goal (and (done heater) (>= (soc) 5)))", "(:goal (>= (soc) 0))"))
    battery = GroundedTask.load(CONTINUOUS / "battery" / "domain.pddl", problem)
    tank_problem = tmp_path / "tank.pddl"
    tank_problem.write_text((TANK / "problem.pddl").read_text().replace("(>= (level) 10)", "(>= (level) 0)"))
    tank = GroundedTask.load(TANK / "domain.pddl", tank_problem)
    plans = _random_plans(27, 60)
    cases = [(battery, plan) for plan in plans[0]] + [(tank, plan) for plan in plans[1]]
    fast = [json.dumps(validate_plan(task, plan).to_json(), sort_keys=True, default=str) for task, plan in cases]
    with monkeypatch.context() as patched:
        _without_shortcuts(patched)
        slow = [json.dumps(validate_plan(task, plan).to_json(), sort_keys=True, default=str) for task, plan in cases]
    assert fast == slow
    assert sum('"verdict": "valid"' in report for report in fast) >= 10  # the shortcuts were reached


OBJECT_DOMAIN = """(define (domain tanks)
  (:requirements :typing :durative-actions :fluents :continuous-effects :object-fluents)
  (:types tank) (:constants a b - tank)
  (:functions (level ?t - tank) (target) - tank)
  (:durative-action fill :parameters () :duration (= ?duration 1)
    :condition (over all (<= (level (target)) 10))
    :effect (increase (level (target)) (* #t 2)))
  (:durative-action switch :parameters () :duration (= ?duration 1)
    :condition (at start (= (target) a)) :effect (at end (assign (target) b))))"""
OBJECT_PROBLEM = """(define (problem p) (:domain tanks)
  (:init (= (level a) 0) (= (level b) 7) (= (target) a)) (:goal (>= (level b) 9)))"""


@pytest.mark.parametrize(("plan", "verdict"), [("0: (fill) [1]\n2: (switch) [1]\n4: (fill) [1]\n", "valid"),
                                               ("0: (fill) [1]\n2: (switch) [1]\n4: (fill) [1]\n6: (fill) [1]\n",
                                                "invalid")])
def test_a_fluent_named_by_an_object_fluent_is_reported_as_without_the_shortcuts(
        plan: str, verdict: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same ground action fills another tank once the target is switched: what it changes is not
    the same at every start."""
    task = GroundedTask(parse_text(OBJECT_DOMAIN, kind="domain"), parse_text(OBJECT_PROBLEM, kind="problem"))
    fast = _reports(task, plan)
    with monkeypatch.context() as patched:
        _without_shortcuts(patched)
        assert _reports(task, plan) == fast
    assert json.loads(fast[0])["verdict"] == verdict
