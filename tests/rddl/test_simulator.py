"""The simulator on small files of corpus/rddl/rddlsim and on deterministic instances against pyRDDLGym.

Deterministic instances must agree with pyRDDLGym exactly: every state fluent after every step and
every reward, under a seeded sequence of random (legal) actions.
"""

from __future__ import annotations

import logging
import math
import warnings
from pathlib import Path
from typing import Any

import pytest

from pddltools.rddl_simulation.grounding import Key, Value
from pddltools.rddl_simulation.problems import Problem, find_problems, load_problem
from pddltools.rddl_simulation.simulator import ActionError, ConstraintViolation, Simulator
from pddltools.rddlsim.offline import run_rounds
from pddltools.rddlsim.policies import ActionSpace, RandomPolicy

from .conftest import OWN_CORPUS, SHARED_CORPUS

COUNTERS = OWN_CORPUS / "rddlsim" / "counters.rddl"
COIN = OWN_CORPUS / "rddlsim" / "coin.rddl"


def counters() -> Problem:
    return load_problem(COUNTERS, COUNTERS)


def test_interm_levels_sums_and_rewards_step_by_step() -> None:
    env = counters().simulator(0)
    state = env.reset()
    assert state == {("count", ("a",)): 0, ("count", ("b",)): 0, ("count", ("c",)): 3, ("heat", ()): 0.5,
                     ("current", ()): "@slow"}
    step = env.step({("bump", ("b",)): True, ("switch-to", ()): "@fast"})
    # total = 2 * (0 + 0 + 3) = 6 on the state before the step; reward = 6 - 0.5 + 0 (still @slow)
    assert step.reward == 5.5
    assert step.observation[("count", ("b",))] == 2
    assert step.observation[("heat", ())] == 0.5 * 0.5 + 6 / 10.0
    assert step.observation[("current", ())] == "@fast"
    step = env.step({("bump", ("b",)): True, ("extra", ()): 1})
    # @fast doubles STEP(b) = 2; extra adds 1 to every slot
    assert [step.observation[("count", (s,))] for s in "abc"] == [1, 7, 4]
    assert step.reward == 2 * (0 + 2 + 3) - 0.85 + 1
    assert env.total_reward == 5.5 + 0.9 * step.reward


def test_termination_ends_the_round_before_the_horizon() -> None:
    env = counters().simulator(0)
    env.reset()
    turns = 0
    while not env.done:
        env.step({("extra", ()): 3})
        turns += 1
    assert turns < env.horizon  # 3 slots x 3 a step reach LIMIT = 30 in 3 steps (3 + 9 + 9 + 9 >= 30)
    assert turns == 3


def test_bad_actions_raise_with_diagnostics() -> None:
    env = counters().simulator(0)
    env.reset()
    cases: list[tuple[dict[Key, Value], type[Exception], str]] = [
        ({("fly", ()): True}, ActionError, "R330"),
        ({("bump", ()): True}, ActionError, "R331"),
        ({("bump", ("zz",)): True}, ActionError, "R332"),
        ({("bump", ("a",)): 1}, ActionError, "R333"),
        ({("switch-to", ()): "@medium"}, ActionError, "R333"),
        ({("bump", ("a",)): True, ("bump", ("b",)): True, ("bump", ("c",)): True}, ActionError, "R334"),
        ({("extra", ()): 7}, ConstraintViolation, "R336"),
    ]
    for actions, kind, code in cases:
        with pytest.raises(kind) as caught:
            env.step(actions)
        assert caught.value.diagnostics[0].code == code, actions  # type: ignore[attr-defined]
    assert env.turn == 0  # nothing was applied
    assert env.legal({("extra", ()): 3}) and not env.legal({("extra", ()): 4})


def test_pomdp_observes_nothing_first_then_observ_fluents() -> None:
    env = load_problem(COIN, COIN).simulator(3)
    assert env.reset() == {}
    step = env.step({("peek", ()): True})
    assert set(step.observation) == {("saw-heads", ())}
    assert step.observation[("saw-heads", ())] == env.state[("heads", ())]  # peeking sees the new coin


def test_draws_follow_their_distributions() -> None:
    # 4 of 5 steps can see a new coin (p 0.3) and a new die (@three with p 0.25, worth 10)
    result = run_rounds(load_problem(COIN, COIN), "noop", 4000, seed=1)
    expected = 4 * 0.3 + 4 * 0.25 * 10
    standard_error = result.std / math.sqrt(len(result.rewards))
    assert abs(result.mean - expected) < 4 * standard_error


def test_same_seed_same_rounds() -> None:
    first = run_rounds(load_problem(COIN, COIN), "random", 20, seed=9).rewards
    again = run_rounds(load_problem(COIN, COIN), "random", 20, seed=9).rewards
    assert first == again


# ---------------------------------------------------------------------------------------------------
# deterministic instances against pyRDDLGym


def _split(path: Path, tmp: Path) -> tuple[Path, Path]:
    """pyRDDLGym wants the domain and the rest in two files, and knows the section `cdfs` only as `cpfs`."""
    text = path.read_text().replace("cdfs {", "cpfs {")
    cut = text.index("\nnon-fluents ")
    domain, rest = tmp / "domain.rddl", tmp / "instance.rddl"
    domain.write_text(text[:cut])
    rest.write_text(text[cut:])
    return domain, rest


def _plain(value: Any, enum: bool) -> Value:
    value = value.item() if hasattr(value, "item") else value
    return "@" + value if enum and isinstance(value, str) and not value.startswith("@") else value


DETERMINISTIC = [
    (COUNTERS, "counters_inst"),
    (SHARED_CORPUS / "examples" / "game_of_life_determ.rddl", "is1"),
]


@pytest.mark.corpus
@pytest.mark.parametrize(("path", "instance"), DETERMINISTIC, ids=[d[1] for d in DETERMINISTIC])
def test_deterministic_instances_agree_with_pyrddlgym_step_by_step(path: Path, instance: str, tmp_path: Path) -> None:
    pyRDDLGym = pytest.importorskip("pyRDDLGym")
    logging.getLogger("pyRDDLGym").setLevel(logging.ERROR)
    problem = load_problem(path, path, instance)
    domain_file, instance_file = _split(path, tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = pyRDDLGym.make(str(domain_file), str(instance_file), vectorized=False)
    ours = problem.simulator(0)
    enums = {name for name, decl in ours.model.decls.items() if ours.model.table.is_enum(decl.range)}
    policy = RandomPolicy(ActionSpace.of(ours), seed=4)
    for round_number in range(3):
        state = ours.reset()
        theirs, _ = env.reset(seed=round_number)
        steps = 0
        while not ours.done:
            reference = {(n, tuple(a.split("__")) if a else ()): _plain(v, n in enums)
                         for k, v in theirs.items() for n, _, a in [k.partition("___")]}
            assert reference == state, f"round {round_number}, step {steps}"
            actions = policy.act(state)
            step = ours.step(actions)
            named = {(n + ("___" + "__".join(a) if a else "")): (v[1:] if isinstance(v, str) else v)
                     for (n, a), v in actions.items()}
            theirs, reward, terminated, _, _ = env.step(named)
            assert step.reward == pytest.approx(float(reward), abs=1e-9), f"round {round_number}, step {steps}"
            assert terminated == (ours.done and ours.turn < ours.horizon)
            state = step.observation
            steps += 1
            if terminated:
                break
        assert steps > 0


SPECIALISED = ["sysadmin_inst_mdp__1", "traffic_inst_mdp__1", "navigation_inst_mdp__1", "elevators_inst_mdp__1",
               "game_of_life_inst_mdp__1", "crossing_traffic_inst_pomdp__1", "tamarisk_inst_mdp__1",
               "wildfire_inst_mdp__1", "academic_advising_inst_mdp__1", "recon_inst_mdp__1"]


@pytest.mark.corpus
@pytest.mark.parametrize("instance", SPECIALISED)
def test_folded_and_lifted_compilation_give_the_same_rounds(instance: str) -> None:
    # the same seed draws the same numbers in the same order whether non-fluents are folded in or not
    track = "ippc-2014" if instance.split("_inst")[0] in ("tamarisk", "wildfire", "academic_advising") else "ippc-2011"
    problem = find_problems([SHARED_CORPUS / track / f"{instance}.rddl"])[instance]
    rewards = []
    for budget in (200_000, 0):
        env = Simulator(problem.domain, problem.instance, 5, problem.non_fluents, unroll_budget=budget)
        policy = RandomPolicy(ActionSpace.of(env), seed=2)
        totals = []
        for _ in range(3):
            observation = env.reset()
            while not env.done:
                observation = env.step(policy.act(observation)).observation
            totals.append(env.total_reward)
        rewards.append(totals)
    assert rewards[0] == rewards[1]


def test_discrete_aggregation_draws_objects_by_weight() -> None:
    pick = OWN_CORPUS / "rddlsim" / "pick.rddl"
    result = run_rounds(load_problem(pick, pick), "noop", 4000, seed=2)
    # the first step sees b1; the second sees b3 with weight 2 of 1 + 1 + 2
    assert abs(result.mean - 0.5) < 4 * math.sqrt(0.25 / 4000)


def test_an_expression_that_cannot_be_stored_is_a_located_error() -> None:
    from pddltools.rddl_simulation.simulator import EvaluationError

    nan = OWN_CORPUS / "rddlsim" / "nan.rddl"
    env = load_problem(nan, nan).simulator(0)
    env.reset()
    with pytest.raises(EvaluationError) as caught:
        env.step({})
    (found,) = caught.value.diagnostics
    assert found.code == "R316" and found.message.startswith("computing x' failed") and found.span is not None
