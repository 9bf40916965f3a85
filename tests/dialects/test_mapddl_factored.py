"""CoDMAP's factored MA-PDDL (a domain and a problem per agent) on corpus/mapddl: `(:private ...)` groups
naming no agent parse, print back with their comments and check; the files of all the agents check as one
task (E931-E934, W931) and compile to the same centralised task as the unfactored form, whose joint plans
map back per agent."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from pddltools import dialects
from pddltools.check.report import check_files
from pddltools.check.tracks import Fit
from pddltools.cli import main
from pddltools.diagnostics import Source
from pddltools.formatting import format_pddl
from pddltools.mapddl.agents import check_agents
from pddltools.mapddl.ast import MADomain, MAProblem
from pddltools.mapddl.factored import Agent, agent_files, agent_of, in_context, join
from pddltools.reading import read_source
from pddltools.schemas import schema
from pddltools.syntax.errors import ParseError

MA = Path(__file__).resolve().parents[2] / "corpus" / "mapddl"
FACTORED = MA / "factored"


@pytest.mark.parametrize("path", [FACTORED / "domain-r1.pddl", FACTORED / "problem-r2.pddl",
                                  MA / "factored-functions-domain.pddl", MA / "ambiguous-problem.pddl"],
                         ids=lambda p: p.name)
def test_a_factored_file_round_trips_with_its_comments(path: Path) -> None:
    source = read_source(path)
    node = dialects.parse(source)
    assert dialects.of_node(node).name == "mapddl"
    text = format_pddl(source, [])
    assert dialects.parse(Source(text, str(path))) == node
    assert dialects.comment_count(Source(text, str(path)), "mapddl") == dialects.comment_count(source, "mapddl")


def test_the_private_groups_of_a_factored_domain_name_no_agent() -> None:
    domain = dialects.parse(read_source(MA / "factored-functions-domain.pddl"))
    assert isinstance(domain, MADomain) and domain.factored
    assert [(g.agent, [p.name for p in g.predicates]) for g in domain.private_predicates] == [(None, ["docked"])]
    assert [[f.name for f in g.functions] for g in domain.private_functions] == [["battery"]]
    assert [(g.agent, [n.name for n in g.names]) for g in domain.private_constants] == [(None, ["charger"])]
    assert {c.name for c in domain.domain.constants} == {"hall", "charger"}  # declared, as public ones are
    assert {f.name for f in domain.domain.functions} == {"distance", "battery"}
    problem = dialects.parse(read_source(FACTORED / "problem-r1.pddl"))
    assert isinstance(problem, MAProblem) and problem.factored
    assert [n.name for g in problem.private_objects for n in g.names] == ["r1", "dock"]


def test_a_group_that_reads_either_way_is_read_as_its_domain_says() -> None:
    problem = dialects.parse(read_source(MA / "ambiguous-problem.pddl"))
    assert isinstance(problem, MAProblem) and [g.agent for g in problem.private_objects] == ["shelf"]
    factored = in_context(dialects.parse(read_source(FACTORED / "domain-r2.pddl")), problem)
    assert isinstance(factored, MAProblem)
    assert [(n.name, str(n.type)) for g in factored.private_objects for n in g.names] == [
        ("shelf", "place"), ("annex", "place"), ("r2", "robot")]
    assert check_files(FACTORED / "domain-r2.pddl", [MA / "ambiguous-problem.pddl"]).errors == []


def test_a_group_inside_a_group_is_a_located_syntax_error() -> None:
    with pytest.raises(ParseError) as caught:
        dialects.parse(read_source(MA / "factored-nested-domain.pddl"))
    assert [(d.code, d.span.line, d.span.column) for d in caught.value.diagnostics if d.span] == [("E104", 4, 34)]


def test_the_agents_files_are_named_after_them() -> None:
    assert agent_of("a/domain-rover0.pddl") == ("rover0", "domain")
    assert agent_of("problem-Driver1.pddl") == ("driver1", "problem")
    assert agent_of("robot_a_domain.pddl") == ("robot_a", "domain")  # unified-planning's MA-PDDL writer
    assert agent_of("domain.pddl") is None
    assert list(agent_files(sorted(FACTORED.iterdir())) or {}) == ["r1", "r2"]


def test_the_agents_files_check_as_one_task() -> None:
    report = check_agents(agent_files(sorted(FACTORED.iterdir())) or {})
    assert report.findings == () and len(report.files) == 4
    assert report.tracks["codmap2015-distributed"].fit is Fit.FITS
    assert report.tracks["ipc2008-seq-sat"].fit is Fit.UNFIT


@pytest.mark.parametrize(("folder", "expected"), [
    ("factored-e932", [("problem-r2.pddl", "E932", 6)]),
    ("factored-e933", [("problem-r2.pddl", "E933", 11)]),
    ("factored-w931", [("problem-r1.pddl", "W931", 10)]),
])
def test_what_does_not_fit_together_is_found_where_it_is(folder: str, expected: list[tuple[str, str, int]]) -> None:
    report = check_agents(agent_files(sorted((MA / folder).iterdir())) or {})
    assert [(Path(f.span.file).name, f.code, f.span.line) for f in report.findings if f.span
            and f.code[0] != "I"] == expected


def test_a_factored_group_in_an_unfactored_task_is_e934() -> None:
    report = check_files(MA / "domain.pddl", [MA / "mixed-problem.pddl"])
    assert [(f.code, f.span.line) for f in report.errors if f.span] == [("E934", 4)]


def test_files_named_after_no_object_and_an_agent_without_a_problem(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("domain-r1.pddl", "problem-r1.pddl", "domain-r2.pddl"):
        shutil.copy(FACTORED / name, tmp_path / name)
    shutil.copy(FACTORED / "problem-r2.pddl", tmp_path / "problem-r9.pddl")
    assert main(["check", str(tmp_path)]) == 2
    assert "agent r2 has no problem file (problem-r2.pddl)" in capsys.readouterr().err
    shutil.copy(FACTORED / "domain-r2.pddl", tmp_path / "domain-r9.pddl")
    (tmp_path / "domain-r2.pddl").unlink()
    assert main(["check", str(tmp_path), "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert [d["code"] for f in found["files"] for d in f["diagnostics"] if d["severity"] == "error"] == ["E931"]


def _task(outdir: Path) -> tuple[object, ...]:
    domain = dialects.parse(read_source(outdir / "centralised-domain.pddl"))
    problem = dialects.parse(read_source(outdir / "centralised-problem.pddl"))
    return (set(domain.predicates), set(domain.structures), set(domain.types), set(problem.objects), set(problem.init),
            problem.goal)


def test_factored_and_unfactored_compile_to_one_centralised_task(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", str(FACTORED), "--target", "centralised", "-o", str(tmp_path / "f")]) == 0
    assert main(["compile", str(MA / "domain.pddl"), str(MA / "hall-problem.pddl"), "--target", "centralised",
                 "-o", str(tmp_path / "u")]) == 0
    assert _task(tmp_path / "f") == _task(tmp_path / "u")
    plan_map = json.loads((tmp_path / "f" / "plan-map.json").read_text())
    assert set(plan_map["multi_agent"]["factored"]) == {"r1", "r2"}
    assert plan_map["multi_agent"]["private_objects"] == {"r1": ["r1", "dock"], "r2": ["r2", "shelf"]}
    (tmp_path / "plan").write_text("(move r1 dock hall)\n(drop r1 b1 hall)\n")
    capsys.readouterr()
    assert main(["unmap", str(tmp_path / "f"), str(tmp_path / "plan"), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["valid"] is True and found["privacy"] == [] and list(found["agents"]) == ["r1"]


def test_files_that_do_not_fit_together_are_not_compiled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", str(MA / "factored-e932"), "--target", "centralised", "-o", str(tmp_path / "x")]) == 1
    assert "E932" in capsys.readouterr().err and not (tmp_path / "x").exists()


def test_each_checks_a_folder_of_factored_files_as_one_task(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--each", str(FACTORED), str(MA / "factored-e932"), "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    jsonschema.validate(found, schema("check"))
    checks = found["checks"]
    assert [(len(c["files"]), {p["agent"] for p in c["pairs"]}) for c in checks] == [(4, {"r1", "r2"})] * 2
    errors = {f["path"]: [d["code"] for d in f["diagnostics"] if d["severity"] == "error"] for f in found["files"]}
    assert [[code for path in c["files"] for code in errors[path]] for c in checks] == [[], ["E932"]]


def test_a_function_private_to_one_agent_and_public_in_anothers_domain_is_e932() -> None:
    head = ("(define (domain d) (:requirements :typing :numeric-fluents :factored-privacy)\n"
            "  (:types robot) (:predicates (p))")
    battery = "(battery ?r - robot) - number"
    domains = [dialects.parse(Source(f"{head} (:functions {f}))", f"domain-{a}.pddl"))
               for a, f in (("r1", f"(:private {battery})"), ("r2", battery))]
    problems = [dialects.parse(Source(f"(define (problem q) (:domain d) (:objects (:private {a} - robot)) (:init) "
                                      "(:goal (p)))", f"problem-{a}.pddl")) for a in ("r1", "r2")]
    joined = join([Agent(a, d, p) for a, d, p in zip(("r1", "r2"), domains, problems, strict=True)])
    assert [(f.code, f.span.file if f.span else None) for f in joined.findings] == [("E932", "domain-r2.pddl")]
