"""Contingent PDDL (CLG, cp2fsc) on corpus/contingent: sensing actions, variables, an uncertain initial
state and hidden states parse, round-trip and check; observations are checked like preconditions."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools import dialects
from pddltools.check.report import check_files
from pddltools.check.tracks import Fit
from pddltools.contingent.ast import ContingentDomain, ContingentProblem, InitOneOf, InitOr, Unknown
from pddltools.diagnostics import Source
from pddltools.reading import read_source

CONTINGENT = Path(__file__).resolve().parents[2] / "corpus" / "contingent"


@pytest.mark.parametrize("name", ["domain.pddl", "problem.pddl", "hidden.pddl", "undeclared-predicate.pddl"])
def test_each_file_is_contingent_and_round_trips(name: str) -> None:
    warnings: list = []
    node = dialects.parse(read_source(CONTINGENT / name), None, warnings)
    assert dialects.of_node(node).name == "contingent" and warnings == []
    assert dialects.parse(Source(str(node), name)) == node


def test_the_domain_keeps_what_each_action_senses() -> None:
    node = dialects.parse(read_source(CONTINGENT / "domain.pddl"))
    assert isinstance(node, ContingentDomain)
    assert {s.action: (s.observe is not None, s.model is not None) for s in node.sensing} == {
        "look": (True, False), "move": (False, True)}
    assert [v.name for v in node.variables] == ["ball-pos"]


def test_the_initial_state_keeps_oneof_or_and_unknown() -> None:
    node = dialects.parse(read_source(CONTINGENT / "problem.pddl"))
    assert isinstance(node, ContingentProblem) and node.problem is not None
    kinds = [type(e) for e in node.problem.init if isinstance(e, InitOneOf | InitOr | Unknown)]
    assert kinds == [InitOneOf, InitOr, Unknown]
    hidden = dialects.parse(read_source(CONTINGENT / "hidden.pddl"))
    assert isinstance(hidden, ContingentProblem) and hidden.problem is None and len(hidden.hidden) == 2


def test_a_contingent_task_checks_clean_and_fits_no_deterministic_track() -> None:
    report = check_files(CONTINGENT / "domain.pddl", [CONTINGENT / "problem.pddl"])
    assert report.errors == []
    deterministic = report.tracks["ipc2008-seq-sat"]
    assert deterministic.fit is Fit.UNFIT and "contingent" in deterministic.explain()


def test_an_observation_of_an_undeclared_predicate_is_located() -> None:
    report = check_files(CONTINGENT / "undeclared-predicate.pddl")
    assert [(f.code, f.span.line) for f in report.errors] == [("E202", 4)]
