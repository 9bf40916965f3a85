"""FOND and PPDDL end to end on corpus/fond and corpus/ppddl: parse, round trip, dialect detection (one
W120, no avalanche), the dialects' own checks and track verdicts, and the JSON envelope."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from pddltools import dialects
from pddltools.check.report import check_files
from pddltools.check.tracks import Fit
from pddltools.cli import main
from pddltools.diagnostics import Source
from pddltools.fond.ast import OneOf
from pddltools.ppddl.ast import PPDDLProblem, Probabilistic
from pddltools.reading import read_source
from pddltools.syntax.errors import ParseError

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
FOND, PPDDL = CORPUS / "fond", CORPUS / "ppddl"


def _parse(path: Path) -> tuple[object, list[str]]:
    warnings: list = []
    node = dialects.parse(read_source(path), None, warnings)
    return node, [w.code for w in warnings]


READABLE = sorted(p for p in [*FOND.glob("*.pddl"), *PPDDL.glob("*.pddl")] if p.name != "broken.pddl")


@pytest.mark.parametrize("path", READABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_corpus_file_round_trips(path: Path) -> None:
    node, _ = _parse(path)
    again = dialects.parse(Source(str(node), path.name))
    assert again == node
    assert str(again) == str(node)


def test_a_fond_domain_is_fond_and_its_oneof_a_node() -> None:
    node, codes = _parse(FOND / "domain.pddl")
    assert dialects.of_node(node).name == "fond" and codes == []
    assert sum(isinstance(n, OneOf) for s in node.structures for n in s.walk()) == 1  # type: ignore[attr-defined]


def test_oneof_without_its_flag_gets_one_located_w120() -> None:
    node, codes = _parse(FOND / "undeclared.pddl")
    assert dialects.of_node(node).name == "fond"
    warnings: list = []
    dialects.parse(read_source(FOND / "undeclared.pddl"), None, warnings)
    assert codes == ["W120"]
    assert warnings[0].span.line == 4 and "add :non-deterministic" in warnings[0].message


def test_a_dialect_file_with_a_real_error_gets_that_error_only() -> None:
    with pytest.raises(ParseError) as caught:
        dialects.parse(read_source(FOND / "broken.pddl"))
    assert [(d.code, d.span.line) for d in caught.value.diagnostics] == [("E103", 6)]


def test_the_flag_alone_makes_a_fond_task_unfit_for_deterministic_tracks() -> None:
    report = check_files(FOND / "flag-only.pddl")
    assert [f.code for f in report.findings] == []  # :non-deterministic is no unknown flag
    assert report.tracks["ipc2008-seq-sat"].fit is Fit.UNFIT
    assert "nondeterministic" in report.tracks["ipc2008-seq-sat"].explain()
    assert report.tracks["ipc2008-fond"].fit is Fit.FITS


def test_fond_checks_every_outcome_and_its_own_rules() -> None:
    names = check_files(FOND / "undeclared-predicate.pddl")
    assert [f.code for f in names.errors] == ["E202"] and "predicate r" in names.errors[0].message
    single = check_files(FOND / "single-outcome.pddl")
    assert [f.code for f in single.warnings] == ["W926"]


def test_a_fond_domain_and_problem_check_clean() -> None:
    report = check_files(FOND / "domain.pddl", [FOND / "problem.pddl"])
    assert report.errors == [] and report.tracks["ipc2006-fond"].fit is Fit.FITS


def test_ppddl_probabilities_are_exact_and_the_goal_reward_kept() -> None:
    domain, codes = _parse(PPDDL / "domain.pddl")
    assert codes == []
    found = next(n for s in domain.structures for n in s.walk() if isinstance(n, Probabilistic))  # type: ignore[attr-defined]
    assert [o.probability for o in found.outcomes] == [Fraction(2, 3), Fraction(1, 4)]
    assert found.remainder == Fraction(1, 12)
    problem, _ = _parse(PPDDL / "problem.pddl")
    assert isinstance(problem, PPDDLProblem) and str(problem.goal_reward) == "100"


def test_ppddl_task_checks_clean_and_fits_the_ippc_only() -> None:
    report = check_files(PPDDL / "domain.pddl", [PPDDL / "problem.pddl"])
    assert report.errors == [] and report.warnings == []  # the reward fluent is PPDDL's own
    assert report.tracks["ippc2008"].fit is Fit.FITS
    assert report.tracks["ipc2008-seq-sat"].fit is Fit.UNFIT


@pytest.mark.parametrize(("name", "code"), [("over-one.pddl", "E921"), ("bad-probability.pddl", "E922"),
                                            ("undeclared.pddl", "W120")])
def test_ppddl_findings(name: str, code: str) -> None:
    report = check_files(PPDDL / name)
    assert [f.code for f in report.findings if f.code[0] in "EW"] == [code]


def test_parse_json_names_the_dialects(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--format", "json", str(FOND / "domain.pddl"), str(PPDDL / "problem.pddl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [f["kind"] for f in out["files"]] == ["domain", "problem"]
    assert out["files"][1]["counts"]["goal_reward"] == 1


def test_check_json_has_the_dialect_tracks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", str(FOND / "domain.pddl"), str(FOND / "problem.pddl")]) == 0
    out = json.loads(capsys.readouterr().out)
    text = json.dumps(out)
    assert '"ipc2008-fond": "fits"' in text and '"ipc2008-seq-sat": "unfit"' in text


def test_an_mdpsim_file_of_a_domain_and_its_problem_parses_and_checks() -> None:
    node, codes = _parse(PPDDL / "bundle.pddl")
    assert codes == [] and dialects.summary(node)["counts"]["problems"] == 1
    report = check_files(PPDDL / "bundle.pddl")
    assert report.errors == [] and report.tracks["ippc2006"].fit is Fit.FITS


def test_a_pddl_file_whose_comment_names_dialect_words_stays_pddl() -> None:
    text = ("; oneof, unknown, :private, probabilistic and :observe in a comment\n"
            "(define (domain plain) (:predicates (p)) (:action a :effect (p)))\n")
    warnings: list = []
    node = dialects.parse(Source(text, "plain.pddl"), None, warnings)
    assert dialects.of_node(node).name == "pddl" and warnings == []
