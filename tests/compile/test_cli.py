"""`pddltools compile` and `pddltools unmap`: files written, refusals, exit codes, JSON fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pddltools.cli import main
from pddltools.pddl.parser import parse_domain_file, parse_problem_file
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan
from tests.compile.search import first_plan, plan_text

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "compile"


def files(name: str) -> list[str]:
    return [str(CORPUS / f"{name}-domain.pddl"), str(CORPUS / f"{name}-problem.pddl")]


def first_code(data: dict[str, Any]) -> str:
    """The code of the first diagnostic in an envelope."""
    code: str = next(d for f in data["files"] for d in f["diagnostics"])["code"]
    return code


def test_compile_writes_task_and_plan_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["compile", *files("conditional"), "--target", "strips", "-o", str(out), "--format", "json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["requirements"] == [":strips"]
    assert {p["pass"] for p in summary["passes"]} >= {"conditional_effects", "negation"}
    assert all(set(p) >= {"actions", "predicates", "init_atoms", "domain_bytes", "problem_bytes", "seconds"}
               for p in summary["passes"])
    plan_map = json.loads((out / "plan-map.json").read_text())
    assert plan_map["format"] == "pddltools-plan-map/1"
    assert plan_map["problem_specific"] is False
    compiled = GroundedTask(parse_domain_file(out / "domain.pddl"), parse_problem_file(out / "problem.pddl"))
    plan = first_plan(compiled, 20)
    assert plan is not None
    (tmp_path / "plan").write_text(plan_text(plan))
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0
    original_plan = capsys.readouterr().out
    assert "--" not in original_plan and "ce-" not in original_plan  # auxiliary steps are gone
    original = GroundedTask(parse_domain_file(files("conditional")[0]), parse_problem_file(files("conditional")[1]))
    assert validate_plan(original, original_plan).valid


def test_unmap_json_restores_unified_parameters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["compile", *files("equality"), "--remove", "equality", "-o", str(out)]) == 0
    capsys.readouterr()
    (tmp_path / "plan").write_text("(look a)\n(rest)\n; cost = 2 (unit cost)\n")
    # Not a plan of the task (rest needs the agent at home), so exit 1; the mapping is shown all the same.
    assert main(["unmap", str(out), str(tmp_path / "plan"), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["steps"] == [{"action": "look", "args": ["a", "a"]}, {"action": "rest", "args": ["home"]}]
    assert data["report"]["reason"] == "precondition" and data["report"]["failed_step"] == 2


def test_unmap_restores_costs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["compile", *files("costs"), "--target", "strips", "-o", str(out)]) == 0
    assert "total-cost" not in (out / "domain.pddl").read_text()
    capsys.readouterr()
    (tmp_path / "plan").write_text("(drive a b)\n(drive b c)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0
    assert capsys.readouterr().out.endswith("; cost = 7 (on the original task)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is True and data["value"] == 7


def test_non_empty_output_folder_needs_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(["compile", *files("typing"), "--target", "strips", "-o", str(out), "--format", "json"]) == 2
    assert first_code(json.loads(capsys.readouterr().out)) == "E804"
    assert not (out / "domain.pddl").exists()
    assert main(["compile", *files("typing"), "--target", "strips", "-o", str(out), "--force"]) == 0
    assert (out / "domain.pddl").exists() and (out / "notes.txt").read_text() == "mine"


def test_refusals_and_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", *files("unstratified"), "--target", "strips", "-o", str(tmp_path / "a"),
                 "--format", "json"]) == 1
    assert first_code(json.loads(capsys.readouterr().out)) == "E802"
    assert main(["compile", *files("typing"), "--remove", "teleportation", "-o", str(tmp_path / "b"),
                 "--format", "json"]) == 2
    assert first_code(json.loads(capsys.readouterr().out)) == "E806"
    assert main(["compile", str(tmp_path / "missing.pddl"), files("typing")[1], "--target", "strips",
                 "-o", str(tmp_path / "c")]) == 2
    capsys.readouterr()
    assert main(["unmap", str(tmp_path / "nowhere"), str(tmp_path / "plan")]) == 2


def test_unmap_rejects_an_unknown_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["compile", *files("typing"), "--target", "strips", "-o", str(out)]) == 0
    capsys.readouterr()
    (tmp_path / "plan").write_text("(fly t1 paris)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan"), "--format", "json"]) == 1
    assert first_code(json.loads(capsys.readouterr().out)) == "E805"


def test_text_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", *files("quantifiers"), "--target", "typed-strips", "-o", str(tmp_path / "o")]) == 0
    text = capsys.readouterr().out
    assert "quantifiers" in text and "problem-specific" in text and "requirements :strips :typing" in text


def _costs_compiled_with_plan(tmp_path: Path, plan: str) -> tuple[Path, Path]:
    """The costs task compiled into tmp_path/out, and a plan file of the compiled task."""
    out = tmp_path / "out"
    assert main(["compile", *files("costs"), "--target", "strips", "-o", str(out), "--format", "json"]) == 0
    (tmp_path / "plan").write_text(plan)
    return out, tmp_path / "plan"


def test_unmap_exits_1_and_says_why_when_the_plan_stops_short_of_the_goal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, plan = _costs_compiled_with_plan(tmp_path, "(drive a b)\n")
    capsys.readouterr()
    assert main(["unmap", str(out), str(plan)]) == 1
    printed = capsys.readouterr()
    assert printed.out == "(drive a b)\n"  # the mapped plan still comes out, for a look at it
    assert "invalid (goal)" in printed.err and "unsatisfied: (at c)" in printed.err
    assert main(["unmap", str(out), str(plan), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False and data["value"] is None
    assert data["report"]["reason"] == "goal" and data["report"]["unsatisfied"] == ["(at c)"]


def test_unmap_exits_1_on_an_unknown_object_with_validates_diagnostic(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, plan = _costs_compiled_with_plan(tmp_path, "(drive a zz)\n")
    capsys.readouterr()
    assert main(["unmap", str(out), str(plan)]) == 1
    err = capsys.readouterr().err
    assert "not a plan for this task (unknown-object)" in err
    assert "'zz' is not an object of the problem" in err and "^" in err
    assert main(["unmap", str(out), str(plan), "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["report"]["reason"] == "unknown-object"


def test_unmap_says_when_the_original_task_is_gone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "src"
    source.mkdir()
    domain, problem = (source / "domain.pddl", source / "problem.pddl")
    for copy, original in zip((domain, problem), files("costs"), strict=True):
        copy.write_text(Path(original).read_text())
    out = tmp_path / "out"
    assert main(["compile", str(domain), str(problem), "--target", "strips", "-o", str(out)]) == 0
    domain.unlink()
    capsys.readouterr()
    (tmp_path / "plan").write_text("(drive a b)\n")
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0
    printed = capsys.readouterr()
    assert printed.out == "(drive a b)\n"
    assert "the plan was not validated: the original task cannot be loaded" in printed.err
