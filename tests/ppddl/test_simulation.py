"""PPDDL simulation on corpus/ppddl/coin.pddl: outcomes drawn with their exact probabilities (nested, with
the remainder), rewards and the goal reward, seeded runs, and `ppddl simulate`."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.diagnostics import Error
from pddltools.ppddl.ast import Outcome, Probabilistic
from pddltools.ppddl.simulation import (
    Simulator,
    choose,
    confidence_interval,
    load_task,
    run_rounds,
    sample_effects,
)

COIN = Path(__file__).resolve().parents[2] / "corpus" / "ppddl" / "coin.pddl"


class _Every:
    """A stand-in for `random.Random` that draws each value below `n` once, in turn."""

    def __init__(self) -> None:
        self.drawn = 0

    def randrange(self, n: int) -> int:
        value = self.drawn % n
        self.drawn += 1
        return value


def _outcomes(*probabilities: Fraction) -> tuple[Outcome, ...]:
    return tuple(Outcome(p, f"e{i}") for i, p in enumerate(probabilities))


def test_choose_gives_each_outcome_exactly_its_probability() -> None:
    """Over every draw below the common denominator, each outcome is picked its probability's share of
    them and nothing the rest: no float rounding."""
    outcomes = _outcomes(Fraction(1, 3), Fraction(1, 4), Fraction(1, 7))
    rng = _Every()
    denominator = 84
    counts = Counter(choose(outcomes, rng) for _ in range(denominator))  # type: ignore[arg-type]
    assert rng.drawn == denominator
    assert counts[outcomes[0]] == 28 and counts[outcomes[1]] == 21 and counts[outcomes[2]] == 12
    assert counts[None] == denominator - 61  # 1 - 1/3 - 1/4 - 1/7 = 23/84


def test_one_outcome_of_probability_one_is_always_picked_and_zero_never() -> None:
    sure, never = _outcomes(Fraction(1), Fraction(0))
    rng = random.Random(5)
    assert all(choose((sure, never), rng) is sure for _ in range(100))
    assert all(choose((never,), rng) is None for _ in range(100))


def _flip_distribution(rounds: int, seed: int) -> Counter[str]:
    task = load_task([COIN], "toss")
    flip = task.effects["flip"]
    assert isinstance(flip.parts[1], Probabilistic)
    state = task.grounded.initial_state()
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(rounds):
        adds = sample_effects(task.evaluator, flip, {}, state, rng).adds
        seen[next(iter(adds))[0] if adds else "nothing"] += 1
    return seen


def test_nested_outcomes_and_the_remainder_have_their_written_probabilities() -> None:
    """heads 1/3; with 1/2 a nested draw: edge 1/5 of it, lost 0.5 of it, nothing 3/10 of it; nothing
    with the remaining 1/6. A chi-square test (3 degrees of freedom, seed fixed) at the 0.1 % level."""
    n = 12_000
    seen = _flip_distribution(n, seed=11)
    expected = {"heads": Fraction(1, 3), "edge": Fraction(1, 10), "lost": Fraction(1, 4), "nothing": Fraction(19, 60)}
    assert sum(expected.values()) == 1
    chi2 = sum((seen[k] - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items())
    assert chi2 < 16.27, (seen, chi2)
    assert set(seen) == set(expected)


def test_a_seeded_run_replays_exactly() -> None:
    task = load_task([COIN], "toss")
    first = run_rounds(task, "random", 20, seed=4)
    again = run_rounds(task, "random", 20, seed=4)
    assert first.rounds == again.rounds
    assert [r.reward for r in first.rounds] != [r.reward for r in run_rounds(task, "random", 20, seed=5).rounds]
    for item in first.rounds:  # each flip costs 1; heads ends the round with +10, lost with nothing more
        assert item.reward == (10 - item.turns if item.goal else -item.turns)
        assert item.ended == ("goal" if item.goal else "done")


def test_the_mean_reward_and_success_rate_match_their_exact_values() -> None:
    """Flipping until heads or lost: success 4/7, expected reward 10 * 4/7 - 12/7 = 4."""
    result = run_rounds(load_task([COIN], "toss"), "random", 3000, seed=1)
    low, high = result.interval
    assert low < 4 < high
    assert abs(result.success_rate - 4 / 7) < 0.03


def test_the_goal_reward_is_paid_when_the_goal_holds_at_the_start() -> None:
    task = load_task([COIN], "landed")
    simulator = Simulator(task)
    current = simulator.reset()
    assert current.over and current.goal and current.turn == 0
    assert simulator.value(current) == 10


def test_the_horizon_ends_rounds_and_noop_ends_them_at_once() -> None:
    task = load_task([COIN], "toss")
    capped = run_rounds(task, "random", 50, seed=2, horizon=1)
    assert all(r.turns == 1 for r in capped.rounds)
    assert {r.ended for r in capped.rounds} <= {"goal", "horizon", "done"}
    idle = run_rounds(task, "noop", 3)
    assert [(r.reward, r.turns, r.ended) for r in idle.rounds] == [(0, 0, "done")] * 3


def test_stepping_a_finished_round_is_an_error() -> None:
    simulator = Simulator(load_task([COIN], "landed"))
    with pytest.raises(Error) as caught:
        simulator.step(simulator.reset(), None)
    assert caught.value.diagnostics[0].code == "E942"


def test_bad_actions_do_not_ground() -> None:
    simulator = Simulator(load_task([COIN], "toss"))
    assert simulator.ground("flip", ()) is not None
    assert simulator.ground("flip", ("x",)) is None and simulator.ground("jump", ()) is None


def test_confidence_interval_uses_student_t() -> None:
    low, high = confidence_interval([0.0, 1.0, 2.0])
    assert high - 1 == pytest.approx(4.303 * 1 / 3 ** 0.5) == 1 - low
    assert confidence_interval([3.0]) == (3.0, 3.0)


def test_simulate_command_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ppddl", "simulate", str(COIN), "--problem", "toss", "--rounds", "40", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "toss: mean reward" in text and "95% CI" in text and "success rate" in text
    assert main(["ppddl", "simulate", str(COIN), "--problem", "toss", "--rounds", "40", "--seed", "3",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["command"] == "ppddl simulate" and data["rounds"] == 40 and len(data["round_results"]) == 40
    low, high = data["ci95"]
    assert low <= data["mean"] <= high and 0 <= data["success_rate"] <= 1
    assert f"{data['mean']:.4f}" in text


def test_simulate_needs_the_problem_named_when_a_file_holds_several(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ppddl", "simulate", str(COIN)]) == 2
    err = capsys.readouterr().err
    assert "E943" in err and "toss, landed" in err and "Traceback" not in err
