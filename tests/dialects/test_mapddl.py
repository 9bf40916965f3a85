"""MA-PDDL (CoDMAP-2015 unfactored) on corpus/mapddl: agents, private predicates and objects parse,
round-trip and check in the centralised reading; E931 and W120; CoDMAP track verdicts."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools import dialects
from pddltools.check.report import check_files
from pddltools.check.tracks import Fit
from pddltools.diagnostics import Source
from pddltools.mapddl.ast import MADomain, MAProblem
from pddltools.reading import read_source

MA = Path(__file__).resolve().parents[2] / "corpus" / "mapddl"


@pytest.mark.parametrize("name", ["domain.pddl", "problem.pddl", "private-of-nobody.pddl", "undeclared.pddl"])
def test_each_file_is_mapddl_and_round_trips(name: str) -> None:
    node = dialects.parse(read_source(MA / name))
    assert dialects.of_node(node).name == "mapddl"
    assert dialects.parse(Source(str(node), name)) == node


def test_agents_and_privacy_are_kept() -> None:
    domain = dialects.parse(read_source(MA / "domain.pddl"))
    assert isinstance(domain, MADomain)
    assert [(a.action, a.agent.name) for a in domain.agents] == [("move", "?r"), ("drop", "?r")]
    assert [p.name for g in domain.private_predicates for p in g.predicates] == ["robot-at", "holding"]
    problem = dialects.parse(read_source(MA / "problem.pddl"))
    assert isinstance(problem, MAProblem)
    assert {g.agent: [n.name for n in g.names] for g in problem.private_objects} == {"r1": ["dock"], "r2": ["shelf"]}


def test_the_task_checks_clean_in_the_centralised_reading() -> None:
    report = check_files(MA / "domain.pddl", [MA / "problem.pddl"])
    assert report.errors == [] and report.tracks["codmap2015-centralised"].fit is Fit.FITS
    assert report.tracks["ipc2008-seq-sat"].fit is Fit.UNFIT


def test_findings() -> None:
    nobody = check_files(MA / "domain.pddl", [MA / "private-of-nobody.pddl"])
    assert [(f.code, f.span.line) for f in nobody.errors] == [("E931", 4)]
    warnings: list = []
    dialects.parse(read_source(MA / "undeclared.pddl"), None, warnings)
    assert [w.code for w in warnings] == ["W120"] and "add :multi-agent" in warnings[0].message
