"""The random baseline draws every action fluent over its range, as pyRDDLGym's random agent does, and
the IPPC rules each take their own random baseline."""

from __future__ import annotations

import json
import logging
import math
import warnings
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.rddl_simulation.bounds import STRICT_TOLERANCE, action_bounds
from pddltools.rddl_simulation.problems import Problem, load_problem
from pddltools.rddlsim.ippc import score
from pddltools.rddlsim.offline import run_rounds
from pddltools.rddlsim.policies import ActionSpace, RandomPolicy

# Every kind of action: reals bounded by a non-fluent on both sides, on one side, and strictly; an int in a
# box; an int with no upper bound; a boolean and an enum. The reward is what the actions are worth.
DOMAIN = """domain dials {
  types { knob : object; mode : {@low, @high}; };
  pvariables {
    TOP(knob) : { non-fluent, real, default = 3.0 };
    t : { state-fluent, int, default = 0 };
    push(knob) : { action-fluent, real, default = 0.0 };
    lift : { action-fluent, real, default = 1.0 };
    step : { action-fluent, int, default = 0 };
    count : { action-fluent, int, default = 7 };
    flag : { action-fluent, bool, default = false };
    pick : { action-fluent, mode, default = @low };
  };
  cpfs { t' = t + 1; };
  reward = (sum_{?k : knob} push(?k)) + step + (if (flag) then 1 else 0) + (if (pick == @high) then 10 else 0)
           + 0 * lift + 0 * count;
  action-preconditions {
    forall_{?k : knob} [ push(?k) <= TOP(?k) ^ push(?k) >= -1.0 ];
    lift > 1.0;
    step >= 0; step < 5;
    count >= 0;
  };
}
"""
INSTANCE = """non-fluents dials_nf { domain = dials; objects { knob : {k1, k2}; };
  non-fluents { TOP(k2) = 5.0; }; }
instance dials_1 { domain = dials; non-fluents = dials_nf; max-nondef-actions = %s; horizon = 4; discount = 1.0; }
"""


def dials(tmp_path: Path, nondef: str = "pos-inf") -> Problem:
    (tmp_path / "dials.rddl").write_text(DOMAIN)
    (tmp_path / "dials_1.rddl").write_text(INSTANCE % nondef)
    return load_problem(tmp_path / "dials.rddl", tmp_path / "dials_1.rddl")


def test_bounds_come_from_the_preconditions(tmp_path: Path) -> None:
    simulator = dials(tmp_path).simulator(0)
    bounds = action_bounds(simulator.model)
    assert bounds[("push", ("k1",))] == (-1.0, 3.0) and bounds[("push", ("k2",))] == (-1.0, 5.0)
    assert bounds[("lift", ())] == (1.0 + STRICT_TOLERANCE, math.inf)  # strict, one side
    assert bounds[("step", ())] == (0, 4)                                # `< 5` on an int is `<= 4`
    assert bounds[("count", ())] == (0, math.inf)


def test_every_fluent_is_drawn_over_its_range_within_the_bounds(tmp_path: Path) -> None:
    problem = dials(tmp_path)
    simulator = problem.simulator(0)
    policy = RandomPolicy(ActionSpace.of(simulator), seed=3)
    draws = [policy.act(simulator.reset()) for _ in range(400)]
    # the int without an upper bound keeps its default; everything else is set every turn (pos-inf)
    assert all(len(d) == 6 and ("count", ()) not in d for d in draws)
    for k, top in (("k1", 3.0), ("k2", 5.0)):
        values = [d[("push", (k,))] for d in draws]
        assert -1.0 <= min(values) < 0.0 and top - 0.5 < max(values) <= top
        assert sum(values) / len(values) == pytest.approx((top - 1.0) / 2, abs=0.25)
    assert {d[("step", ())] for d in draws} == {0, 1, 2, 3, 4}
    assert {d[("flag", ())] for d in draws} == {True, False} and {d[("pick", ())] for d in draws} == {"@low", "@high"}
    assert all(d[("lift", ())] > 1.0 for d in draws)                     # 1 + an exponential draw
    for d in draws:
        assert simulator.legal(d)


def test_max_nondef_actions_caps_how_many_fluents_are_drawn(tmp_path: Path) -> None:
    simulator = dials(tmp_path, "2").simulator(0)
    policy = RandomPolicy(ActionSpace.of(simulator), seed=1)
    draws = [policy.act(simulator.reset()) for _ in range(200)]
    assert all(len(d) == 2 for d in draws)
    assert len({key for d in draws for key in d}) == 6                   # chosen uniformly among the six


def test_mean_reward_matches_pyrddlgyms_random_agent(tmp_path: Path) -> None:
    pyRDDLGym = pytest.importorskip("pyRDDLGym")
    stats = pytest.importorskip("scipy.stats")
    from pyRDDLGym.core.policy import RandomAgent

    problem = dials(tmp_path)
    ours = list(run_rounds(problem, "random", 100, seed=2).rewards)
    logging.getLogger("pyRDDLGym").setLevel(logging.ERROR)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = pyRDDLGym.make(str(tmp_path / "dials.rddl"), str(tmp_path / "dials_1.rddl"), vectorized=False)
    agent = RandomAgent(env.action_space, num_actions=env.max_allowed_actions, seed=4)
    theirs = []
    for r in range(100):
        env.reset(seed=r)
        total = 0.0
        for _ in range(env.horizon):
            _, reward, done, _, _ = env.step(agent.sample_action())
            total += float(reward)
            if done:
                break
        theirs.append(total)
    # per step: E[push k1] 1 + E[push k2] 2 + E[step] 2 + 1 / 2 + 10 / 2 = 10.5; over 4 steps 42 (the standard
    # error of 100 rounds is about 1.2)
    assert sum(ours) / len(ours) == pytest.approx(42, abs=5)
    assert stats.ttest_ind(ours, theirs, equal_var=False).pvalue > 0.001


def test_each_ippc_rule_set_takes_its_own_random_baseline() -> None:
    records = [{"event": "round-end", "client": "planner", "instance": "i1", "domain": "d", "reward": 50.0},
               {"event": "round-end", "client": "noop", "instance": "i1", "domain": "d", "reward": 0.0}]
    asked: list[str] = []

    def baseline(instance: str, policy: str) -> float:
        asked.append(policy)
        return 10.0

    for rules, policy in (("ippc2011", "rddlsim-random"), ("ippc2014", "rddlsim-random"), ("ippc2023", "random")):
        asked.clear()
        clients, baselines = score(records, baseline, rules)
        assert asked == [policy] and baselines["i1"]["random_policy"] == policy
        assert baselines["i1"]["base"] == 10.0 and clients[0].instances[0].score == 1.0  # nobody else: best = R


def test_only_the_last_thirty_rounds_count() -> None:
    rewards = [0.0] * 5 + [1.0] * 30
    records = [{"event": "round-end", "client": "p", "instance": "i1", "domain": "d", "reward": r} for r in rewards]
    records.append({"event": "round-end", "client": "noop", "instance": "i1", "domain": "d", "reward": 0.0})
    (client,), _ = score(records, None, "ippc2023")
    assert client.instances[0].mean == 1.0 and client.instances[0].rounds == 30


def test_simulate_with_the_random_policy_varies_over_rounds(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    dials(tmp_path)
    assert main(["rddl", "simulate", str(tmp_path / "dials.rddl"), str(tmp_path / "dials_1.rddl"), "--rounds", "5",
                 "--policy", "random", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["policy"] == "random" and len(set(data["rewards"])) == 5 and data["std"] > 0
