"""What `pddltools compile` says before and while it works: the conditional-effects pass's size
estimate (the number of actions it then makes), a warning before a large compilation with the estimate
in words, and notes that never print a number of hundreds of digits."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.compile import cli as compile_cli
from pddltools.compile.conditional_effects import estimated_actions, remove_conditional_effects
from pddltools.compile.pipeline import compile_task, removals
from pddltools.compile.task import ParsedTask
from pddltools.pddl.parser import parse_domain, parse_domain_file, parse_problem, parse_problem_file

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "compile"


def _many_switches(n: int) -> ParsedTask:
    """An action that lights each switch that is on, already ground (n effect conditions), and one that
    turns a switch on (so that `on` is no static fact the compiler could decide)."""
    whens = " ".join(f"(when (on s{i}) (lit s{i}))" for i in range(n))
    domain = parse_domain(f"(define (domain switches) (:requirements :conditional-effects)"
                          f"  (:predicates (on ?s) (lit ?s))"
                          f"  (:action flip :parameters () :precondition (and) :effect (and {whens}))"
                          f"  (:action press :parameters (?s) :precondition (and) :effect (on ?s)))")
    objects = " ".join(f"s{i}" for i in range(n))
    problem = parse_problem(f"(define (problem p) (:domain switches) (:objects {objects}) (:init (on s0))"
                            f"  (:goal (and)))")
    return ParsedTask(domain, problem)


@pytest.mark.parametrize("method", ["auto", "direct", "polynomial"])
def test_the_estimate_bounds_the_actions_the_pass_makes(method: str) -> None:
    # An estimate from above: the direct split then drops copies whose conditions contradict or that
    # change nothing, the sequencing steps that have nothing to apply.
    task = ParsedTask(parse_domain_file(CORPUS / "conditional-domain.pddl"),
                parse_problem_file(CORPUS / "conditional-problem.pddl"))
    made = len(remove_conditional_effects(task, method).task.domain.actions)  # type: ignore[arg-type]
    assert made <= estimated_actions(task, method) <= 1.5 * made  # type: ignore[arg-type]


def test_the_notes_say_a_huge_estimate_in_words() -> None:
    step = remove_conditional_effects(_many_switches(120))
    (note,) = [n for n in step.notes if n.startswith("flip:")]
    assert "direct about 1 \u00d7 10^36" in note  # 2^120 = 1.3 x 10^36
    assert len(max(note.split(), key=len)) < 12  # no number of dozens of digits


def test_compile_task_tells_each_pass_before_it_runs_with_its_estimate() -> None:
    told: list[tuple[str, int | None]] = []
    task = _many_switches(12)
    result = compile_task(task, removals("strips"), on_pass=lambda name, estimate: told.append((name, estimate)))
    assert [name for name, _ in told] == [p.name for p in result.passes]
    estimates = dict(told)
    made = next(p for p in result.passes if p.name == "conditional_effects")
    assert made.actions_after <= estimates["conditional_effects"] <= 1.5 * made.actions_after
    assert all(estimate is None for name, estimate in told if name != "conditional_effects")


def test_a_large_compilation_is_announced_before_it_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    task = _many_switches(30)
    (tmp_path / "d.pddl").write_text(str(task.domain))
    (tmp_path / "p.pddl").write_text(str(task.problem))
    monkeypatch.setattr(compile_cli, "LARGE", 50)  # the real threshold takes minutes to reach
    assert main(["compile", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "--target", "strips",
                 "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    estimate = estimated_actions(ParsedTask(parse_domain_file(tmp_path / "d.pddl"),
                                            parse_problem_file(tmp_path / "p.pddl")))
    assert err.startswith(f"warning: the conditional effects pass will make about {estimate:,} actions of the "
                          "domain's 2; compiling")
    assert "\x1b" not in err  # no bar off a terminal
    monkeypatch.setattr(compile_cli, "LARGE", 10**9)
    assert main(["compile", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "--target", "strips",
                 "-o", str(tmp_path / "out"), "--force"]) == 0
    assert capsys.readouterr().err == ""
