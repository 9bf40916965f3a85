"""MA-PDDL to classical (CoDMAP's centralised reading) on corpus/mapddl: `compile --target centralised`,
privacy kept per agent in the plan map, and joint plans mapped back with each step's agent."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pddltools import dialects
from pddltools.cli import main
from pddltools.compile.centralise import centralise
from pddltools.pddl import ast
from pddltools.reading import read_source
from pddltools.schemas import schema

MA = Path(__file__).resolve().parents[2] / "corpus" / "mapddl"


def _compile(tmp_path: Path, domain: str, problem: str, *extra: str) -> Path:
    out = tmp_path / "out"
    assert main(["compile", str(MA / domain), str(MA / problem), *extra, "-o", str(out), "--format", "json"]) == 0
    return out


def test_each_action_takes_its_agent_first_and_the_multi_agent_flags_go() -> None:
    result, privacy = centralise(dialects.parse(read_source(MA / "domain.pddl")),
                                 dialects.parse(read_source(MA / "problem.pddl")))
    move = result.task.domain.actions[0]
    assert [p.name for p in move.parameters] == ["?r", "?from", "?to"]
    assert {r.name for r in result.task.domain.requirements} == {":typing"}
    assert {o.name for o in result.task.problem.objects} == {"r1", "r2", "b1", "dock", "shelf"}
    assert privacy.objects == {"r1": ("dock",), "r2": ("shelf",)}
    assert privacy.predicates == {"robot": ("robot-at", "holding")} and privacy.agents["drop"] == "robot"


def test_a_concurrency_constraint_is_read_sequentially() -> None:
    result, _ = centralise(dialects.parse(read_source(MA / "constrained-domain.pddl")),
                           dialects.parse(read_source(MA / "constrained-problem.pddl")))
    grab = next(a for a in result.task.domain.actions if a.name == "grab")
    assert not any(isinstance(n, ast.Atom) and n.predicate == "grab" for n in grab.walk())
    assert not any(isinstance(n, ast.Forall) for n in grab.walk())  # (forall (?r2) (not (grab ...))) is true


def test_a_joint_plan_maps_back_per_agent_and_is_validated(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = _compile(tmp_path, "constrained-domain.pddl", "constrained-problem.pddl", "--target", "centralised")
    plan_map = json.loads((out / "plan-map.json").read_text())
    assert plan_map["multi_agent"]["private_objects"] == {"r1": ["dock"], "r2": ["shelf"]}
    capsys.readouterr()
    (tmp_path / "plan").write_text("(grab r2 b1 shelf)\n(move r2 shelf hall)\n(drop r2 b1 hall)\n(move r1 dock hall)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan"), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    jsonschema.validate(found, schema("unmap"))
    assert found["valid"] is True and found["privacy"] == []
    assert [s["agent"] for s in found["steps"]] == ["r2", "r2", "r2", "r1"]
    assert {a: [s["step"] for s in steps] for a, steps in found["agents"].items()} == {"r2": [1, 2, 3], "r1": [4]}
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "(grab r2 b1 shelf) ; agent r2"


def test_a_step_naming_another_agents_private_object_is_reported(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = _compile(tmp_path, "domain.pddl", "problem.pddl", "--target", "typed-strips")
    capsys.readouterr()
    (tmp_path / "plan").write_text("(move r2 shelf dock)\n(drop r1 b1 dock)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan"), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["valid"] is True  # the centralised task allows it ...
    assert found["privacy"] == ["step 1 (move r2 shelf dock) of agent r2 names dock, private to r1"]  # ... r2 cannot


def test_the_centralised_target_refuses_a_task_with_no_agents(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    plain = MA.parent / "compile"
    assert main(["compile", str(plain / "typing-domain.pddl"), str(plain / "typing-problem.pddl"),
                 "--target", "centralised", "-o", str(tmp_path / "x")]) == 1
    assert "the centralised target reads MA-PDDL tasks" in capsys.readouterr().err
