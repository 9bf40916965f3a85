"""Determinising FOND and PPDDL tasks (corpus/fond, corpus/ppddl): all-outcomes and most-likely, plan
maps back to (action, outcome) steps, and `unmap` checking a plan as a weak plan."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

from pddltools import dialects
from pddltools.cli import main
from pddltools.compile.determinise import determinise, outcomes
from pddltools.compile.task import ParsedTask
from pddltools.fond.ast import OneOf
from pddltools.pddl import ast
from pddltools.reading import read_source
from pddltools.schemas import schema

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def _task(folder: str) -> ParsedTask:
    domain = dialects.parse(read_source(CORPUS / folder / "domain.pddl"))
    problem = dialects.pddl_parts(dialects.parse(read_source(CORPUS / folder / "problem.pddl")))[0]
    return ParsedTask(domain, problem)


def test_all_outcomes_makes_one_action_per_outcome_with_its_origin() -> None:
    result, named = determinise(_task("fond"), "all-outcomes")
    assert [a.name for a in result.task.domain.actions] == ["pick-up_o1", "pick-up_o2", "put-down"]
    assert (result.origins["pick-up_o2"].action, result.origins["pick-up_o2"].outcome) == ("pick-up", 2)
    assert named == {"pick-up/1": "pick-up_o1", "pick-up/2": "pick-up_o2", "put-down/1": "put-down"}
    assert not any(isinstance(n, OneOf) for a in result.task.domain.actions for n in a.walk())
    assert ":non-deterministic" not in {r.name for r in result.task.domain.requirements}


def test_probabilistic_outcomes_carry_their_probabilities_and_the_rest() -> None:
    move = _task("ppddl").domain.actions[0]
    found = outcomes(move.effect)
    assert [o.probability for o in found] == [Fraction(2, 3), Fraction(1, 4), Fraction(1, 12)]


def test_most_likely_keeps_the_most_probable_outcome_and_drops_rewards() -> None:
    result, _ = determinise(_task("ppddl"), "most-likely")
    move = result.task.domain.actions[0]
    assert move.name == "move" and result.origins["move"].outcome == 1
    assert not any(isinstance(n, ast.Assign) for n in move.walk())  # (decrease (reward) 1) is gone
    assert result.task.problem.metric is None


def _compile(tmp_path: Path, folder: str, mode: str) -> Path:
    out = tmp_path / folder
    assert main(["compile", str(CORPUS / folder / "domain.pddl"), str(CORPUS / folder / "problem.pddl"),
                 "--determinise", mode, "-o", str(out), "--format", "json"]) == 0
    return out


def test_a_plan_of_the_determinised_task_maps_back_as_a_weak_plan(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = _compile(tmp_path, "fond", "all-outcomes")
    capsys.readouterr()
    (tmp_path / "plan").write_text("(pick-up_o2 a b)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan"), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    jsonschema.validate(found, schema("unmap"))
    assert found["steps"] == [{"action": "pick-up", "args": ["a", "b"], "outcome": 2}] and found["valid"] is True


def test_a_weak_plan_that_relies_on_the_wrong_outcome_is_invalid(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = _compile(tmp_path, "ppddl", "all-outcomes")
    (tmp_path / "plan").write_text("(move_o3 c1 c2)\n")  # the outcome where nothing happens
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 1


def test_compiling_a_nondeterministic_task_asks_for_a_determinisation(tmp_path: Path) -> None:
    assert main(["compile", str(CORPUS / "fond" / "domain.pddl"), str(CORPUS / "fond" / "problem.pddl"),
                 "--remove", "typing", "-o", str(tmp_path / "x")]) == 1


def test_a_domain_defining_an_action_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (CORPUS / "fond" / "domain.pddl").read_text()
    at = text.index("(:action put-down")
    (tmp_path / "domain.pddl").write_text(text[:at] + text[at:].replace("put-down", "pick-up", 1))
    assert main(["compile", str(tmp_path / "domain.pddl"), str(CORPUS / "fond" / "problem.pddl"),
                 "--determinise", "all-outcomes", "-o", str(tmp_path / "out")]) == 1
    assert "E211" in capsys.readouterr().err and not (tmp_path / "out").exists()
