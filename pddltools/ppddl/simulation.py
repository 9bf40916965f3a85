"""PPDDL simulated as mdpsim simulates it: rounds from the initial state, one sampled outcome per step.

What a round is (mdpsim's `State`, `mdpserver.cc`):
- it starts in the initial state, with `(reward)` 0 under `:rewards`; when the goal holds there, the goal
  reward is added at once;
- each turn the policy picks an action, or `done` (mdpsim's `<done/>`), which ends the round; an action
  whose precondition is false ends the round too (mdpsim: a "disabled action" error, then the end-round);
- the effect of an action is sampled: each `probabilistic` picks outcome i with probability p_i exactly
  as written (rationals, drawn as an integer below the common denominator: no rounding), nothing with
  the rest, `1 - sum(p_i)`; a nested one picks again inside the outcome picked; one inside a `forall`
  picks once per object, one under `when` only when the condition holds. Every effect is read in the
  state before the step, deletes come before adds (`pddltools.semantics.apply`);
- when the goal first holds after a step, the goal reward (`:goal-reward`) is added to `(reward)`, and
  the round ends; it also ends after `horizon` turns (mdpsim's turn limit).

A round's reward is the problem's metric over the last state, as mdpsim's end-session averages it:
`(:metric maximize e)` is e, `minimize e` is -e, and without a metric `(reward)` under `:rewards`, else
1 when the goal was reached and 0 when not (mdpsim's `goal-achieved`). `total-time` is the number of
turns taken.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import lcm
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Error, error
from pddltools.dialects.extension import stand_in_domain
from pddltools.pddl import ast
from pddltools.ppddl.ast import Outcome, PPDDLFile, PPDDLProblem, Probabilistic
from pddltools.ppddl.dialect import REWARD, RULES
from pddltools.semantics import (
    Effects,
    Evaluator,
    GroundAction,
    GroundedTask,
    SemanticsError,
    State,
    apply,
    collect,
    metric_value,
)
from pddltools.semantics.grounding import Binding
from pddltools.semantics.state import FluentValue, Number, normal

#: The fluents mdpsim keeps beside the domain's: turns taken, and 1 once the goal was reached.
TOTAL_TIME, GOAL_ACHIEVED = "total-time", "goal-achieved"
#: A turn limit for the rounds when none is given: mdpsim has none (a round may never end), the IPPC set
#: one per problem in the server's configuration.
DEFAULT_HORIZON = 1000


@dataclass(frozen=True)
class Task:
    """A PPDDL problem ready to simulate: its grounded semantics, goal reward and metric."""

    name: str
    domain_name: str
    grounded: GroundedTask
    goal_reward: Any  # an expression, or None
    metric: ast.Metric | None
    rewards: bool  # the domain declares :rewards (the reward fluent exists)
    effects: Mapping[str, Any]  # each action's effect as written, `probabilistic` and all
    domain_path: str = ""
    problem_path: str = ""

    @property
    def evaluator(self) -> Evaluator:
        return self.grounded.evaluator


def _definitions(node: Any) -> Iterator[Any]:
    if isinstance(node, PPDDLFile):
        for inner in node.definitions:
            yield from _definitions(inner)
    else:
        yield node


def read_definitions(path: str | Path) -> list[Any]:
    """The domains and problems a file holds (mdpsim's files may hold several); raises `Error`."""
    from pddltools import dialects
    from pddltools.reading import read_source

    return list(_definitions(dialects.parse(read_source(str(path)))))


def _problem_name(node: Any) -> str:
    return str(node.name)


def load_task(paths: Sequence[str | Path], name: str | None = None) -> Task:
    """The problem `name` (or the only one) among the definitions of `paths`, with its domain; raises
    `Error` (E943 when there is no such problem or domain)."""
    definitions: list[tuple[Any, str]] = [(d, str(p)) for p in paths for d in read_definitions(p)]
    domains = {d.name: (d, p) for d, p in definitions if isinstance(d, ast.Domain)}
    problems = [(d, p) for d, p in definitions if isinstance(d, ast.Problem | PPDDLProblem)]
    if name is not None:
        problems = [(d, p) for d, p in problems if _problem_name(d) == name]
    if len(problems) != 1:
        names = ", ".join(_problem_name(d) for d, _ in problems) or "none"
        what = f"no problem named {name}" if name is not None else f"one problem to simulate, found {names}"
        raise Error([error("E943", f"expected {what} in {', '.join(map(str, paths))}"
                           + (" (give its name)" if name is None and problems else ""))])
    node, problem_path = problems[0]
    problem = node.problem if isinstance(node, PPDDLProblem) else node
    found = domains.get(problem.domain)
    if found is None:
        raise Error([error("E943", f"problem {problem.name} is of domain {problem.domain}, which "
                           f"{', '.join(map(str, paths))} do not define", problem.span)])
    domain, domain_path = found
    return task_of(domain, node, domain_path, problem_path)


def task_of(domain: ast.Domain, node: ast.Problem | PPDDLProblem, domain_path: str = "",
            problem_path: str = "") -> Task:
    problem = node.problem if isinstance(node, PPDDLProblem) else node
    rewards = any(r.name in (":rewards", ":mdp") for r in domain.requirements)  # :mdp is both PPDDL flags
    # the grounded semantics reads the deterministic stand-in (every outcome at once), so that what it
    # knows of the domain (which predicates some effect changes) counts every outcome; the effects
    # sampled are the schemas' own, kept in `effects`
    declared = stand_in_domain(RULES, domain)
    start = RULES.declare_problem(problem) if rewards else problem
    try:
        grounded = GroundedTask(declared, start, domain_path=domain_path, problem_path=problem_path)
    except SemanticsError as exc:
        raise Error([error("E941", f"problem {problem.name} cannot be simulated: {exc}", problem.span)]) from None
    goal_reward = node.goal_reward if isinstance(node, PPDDLProblem) else None
    effects = {a.name: a.effect for a in domain.actions}
    return Task(problem.name, domain.name, grounded, goal_reward, problem.metric, rewards, effects, domain_path,
                problem_path)


# ---------------------------------------------------------------------------------------------------
# sampling


def choose(outcomes: Sequence[Outcome], rng: random.Random) -> Outcome | None:
    """Outcome i with probability p_i exactly, None with the rest: an integer drawn uniformly below the
    probabilities' common denominator, against their running sum."""
    denominator = lcm(*(o.probability.denominator for o in outcomes)) if outcomes else 1
    drawn = rng.randrange(denominator)
    running = 0
    for outcome in outcomes:
        running += int(outcome.probability * denominator)
        if drawn < running:
            return outcome
    return None


def sample_effects(ev: Evaluator, effect: Any, binding: Binding, state: State, rng: random.Random,
                   out: Effects | None = None) -> Effects:
    """The ground effects of one sampled outcome of `effect`, read in `state`."""
    out = out if out is not None else Effects()
    if isinstance(effect, Probabilistic):
        picked = choose(effect.outcomes, rng)
        if picked is not None:
            sample_effects(ev, picked.effect, binding, state, rng, out)
    elif isinstance(effect, ast.AndEffect):
        for part in effect.parts:
            sample_effects(ev, part, binding, state, rng, out)
    elif isinstance(effect, ast.When):
        if ev.holds(effect.condition, binding, state):
            sample_effects(ev, effect.body, binding, state, rng, out)
    elif isinstance(effect, ast.ForallEffect):
        for inner in ev.grounder.bindings(effect.variables, binding):
            sample_effects(ev, effect.body, inner, state, rng, out)
    elif effect is not None:
        collect(ev, effect, binding, state, out)
    return out


# ---------------------------------------------------------------------------------------------------
# rounds


@dataclass
class Round:
    """One round in progress: the state, the turns taken and whether the goal was reached."""

    task: Task
    state: State
    turn: int = 0
    goal: bool = False
    ended: str = ""  # "", or why it ended: goal, horizon, done, disabled

    @property
    def over(self) -> bool:
        return bool(self.ended)


class Simulator:
    """Rounds of one task; every draw comes from `rng`, so a seed replays a run exactly."""

    def __init__(self, task: Task, horizon: int = DEFAULT_HORIZON, seed: int = 0) -> None:
        self.task = task
        self.horizon = horizon
        self.rng = random.Random(seed)
        self._actions: list[GroundAction] | None = None

    def reset(self) -> Round:
        state = self.task.grounded.initial_state()
        current = Round(self.task, state)
        if self._goal(state):
            current.state = self._reached(state)
            current.goal, current.ended = True, "goal"
        elif self.horizon <= 0:
            current.ended = "horizon"
        return current

    def _goal(self, state: State) -> bool:
        return self.task.grounded.goal_holds(state)

    def _reached(self, state: State) -> State:
        """The state with the goal reward added (mdpsim adds it the first time the goal holds)."""
        task = self.task
        if task.goal_reward is None or not task.rewards:
            return state
        bonus = task.evaluator.number(task.goal_reward, {}, state)
        old = state.values.get((REWARD,), 0)
        assert not isinstance(old, str)
        return state.with_changes((), (), {(REWARD,): normal(old + bonus)})

    def enabled(self, state: State) -> list[GroundAction]:
        """The applicable ground actions, in a stable order (schema, then arguments)."""
        found = list(self.task.grounded.applicable_actions(state))
        order = {name: i for i, name in enumerate(self.task.grounded.schemas)}
        found.sort(key=lambda a: (order[a.name], a.args))
        return found

    def ground(self, name: str, args: Sequence[str]) -> GroundAction | None:
        """The ground action `(name args...)`, or None when the task has no such action (a wrong name, a
        wrong number of arguments, an argument that is no object of the parameter's type)."""
        grounded = self.task.grounded
        schema = grounded.schemas.get(name)
        if schema is None or len(args) != len(schema.parameters):
            return None
        if not all(grounded.grounder.fits(arg, parameter.type)
                   for parameter, arg in zip(schema.parameters, args, strict=True)):
            return None
        return grounded.ground(name, args)

    def applicable(self, action: GroundAction, state: State) -> bool:
        return self.task.grounded.applicable(action, state)

    def step(self, current: Round, action: GroundAction | None) -> Round:
        """`action` (None: done) taken in the round; the round is changed and returned."""
        if current.over:
            raise Error([error("E942", "a step after the round is over")])
        if action is None:
            current.ended = "done"
            return current
        if not self.applicable(action, current.state):
            current.ended = "disabled"
            return current
        ev = self.task.evaluator
        try:
            effects = sample_effects(ev, self.task.effects[action.name], action.binding, current.state, self.rng)
            after = apply(current.state, effects)
        except SemanticsError as exc:
            raise Error([error("E941", f"{action} cannot be simulated: {exc}", action.schema.span)]) from None
        current.turn += 1
        if self._goal(after):
            after = self._reached(after)
            current.goal, current.ended = True, "goal"
        elif current.turn >= self.horizon:
            current.ended = "horizon"
        current.state = after
        return current

    def value(self, current: Round) -> Number:
        """The round's reward: the metric over its state (see the module's notes)."""
        task = self.task
        state = current.state
        values: dict[Any, FluentValue] = dict(state.values)
        values[(GOAL_ACHIEVED,)] = 1 if current.goal else 0
        metric = task.metric
        if metric is None:
            if task.rewards:
                found = state.values.get((REWARD,), 0)
                assert not isinstance(found, str)
                return found
            return 1 if current.goal else 0
        try:
            value = metric_value(task.evaluator, metric, State(state.atoms, values), current.turn, {})
        except SemanticsError as exc:
            raise Error([error("E941", f"the metric cannot be evaluated: {exc}", metric.span)]) from None
        return -value if metric.direction == "minimize" else value


# ---------------------------------------------------------------------------------------------------
# policies


class Policy:
    """Chooses an action (or None: done) in a state."""

    name = "policy"

    def act(self, simulator: Simulator, state: State) -> GroundAction | None:
        raise NotImplementedError


class RandomPolicy(Policy):
    """mdpclient's: uniformly among the applicable actions, done when there is none."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, simulator: Simulator, state: State) -> GroundAction | None:
        actions = simulator.enabled(state)
        return actions[self.rng.randrange(len(actions))] if actions else None


class DonePolicy(Policy):
    """`<done/>` at once: the initial state's reward (the IPPC's do-nothing baseline)."""

    name = "noop"

    def act(self, simulator: Simulator, state: State) -> GroundAction | None:
        return None


POLICIES = ("random", "noop")


def policy_of(name: str, seed: int) -> Policy:
    if name == "random":
        return RandomPolicy(seed)
    if name == "noop":
        return DonePolicy()
    raise Error([error("E943", f"no policy {name!r}: the policies are {', '.join(POLICIES)}")])


# ---------------------------------------------------------------------------------------------------
# offline runs


@dataclass(frozen=True)
class RoundResult:
    reward: Number
    turns: int
    goal: bool
    ended: str


@dataclass(frozen=True)
class RunResult:
    """Rounds of one problem under one policy, with mean, success rate and a 95 % confidence interval."""

    problem: str
    domain: str
    policy: str
    seed: int
    horizon: int
    rounds: tuple[RoundResult, ...]

    @property
    def rewards(self) -> list[float]:
        return [float(r.reward) for r in self.rounds]

    @property
    def mean(self) -> float:
        return math.fsum(self.rewards) / len(self.rounds) if self.rounds else math.nan

    @property
    def std(self) -> float:
        return sample_std(self.rewards)

    @property
    def success_rate(self) -> float:
        return sum(r.goal for r in self.rounds) / len(self.rounds) if self.rounds else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return confidence_interval(self.rewards)

    def to_json(self) -> dict[str, object]:
        low, high = self.interval
        return {"problem": self.problem, "domain": self.domain, "policy": self.policy, "seed": self.seed,
                "horizon": self.horizon, "rounds": len(self.rounds), "mean": self.mean, "std": self.std,
                "ci95": [low, high], "success_rate": self.success_rate,
                "successes": sum(r.goal for r in self.rounds),
                "round_results": [{"reward": float(r.reward), "turns": r.turns, "goal": r.goal, "ended": r.ended}
                                  for r in self.rounds]}


def sample_std(values: Sequence[float]) -> float:
    """The sample standard deviation (n - 1); 0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


#: Student's t, two-sided 95 %, for 1..30 degrees of freedom; 1.96 beyond.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def confidence_interval(values: Sequence[float]) -> tuple[float, float]:
    """The 95 % confidence interval of the mean (Student's t with n - 1 degrees of freedom)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    mean = math.fsum(values) / n
    if n == 1:
        return (mean, mean)
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    half = t * sample_std(values) / math.sqrt(n)
    return (mean - half, mean + half)


def play_round(simulator: Simulator, policy: Policy) -> RoundResult:
    current = simulator.reset()
    while not current.over:
        simulator.step(current, policy.act(simulator, current.state))
    return RoundResult(simulator.value(current), current.turn, current.goal, current.ended)


def run_rounds(task: Task, policy_name: str, rounds: int, seed: int = 0, horizon: int = DEFAULT_HORIZON
               ) -> RunResult:
    """`rounds` rounds under the policy; the simulator draws from `seed`, the policy from `seed + 1`."""
    simulator = Simulator(task, horizon, seed)
    policy = policy_of(policy_name, seed + 1)
    results = tuple(play_round(simulator, policy) for _ in range(rounds))
    return RunResult(task.name, task.domain_name, policy_name, seed, horizon, results)


__all__ = ["DEFAULT_HORIZON", "Policy", "Round", "RunResult", "Simulator", "Task", "choose", "load_task",
           "run_rounds", "sample_effects"]
