"""The IPC-2023 numeric track: the fragment of a task (SNP, LNP, nonlinear) and the three tracks' verdicts,
against the organisers' labels of the six domains in ../shared/corpus/pddl/ipc-2023-numeric."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pddltools.check import Feature, Fit, check, check_files, verdicts
from pddltools.check.numeric import Fragment
from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain, parse_problem

F = Feature
IPC2023 = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "pddl" / "ipc-2023-numeric"
NUMERIC_TRACKS = ("ipc2023-numeric-sat", "ipc2023-numeric-opt", "ipc2023-numeric-agile")
LABEL = {"SNP": Fragment.SIMPLE, "LNP": Fragment.LINEAR}


def _organisers_labels() -> dict[str, Fragment]:
    """The README's table: `| domain | SNP |`."""
    readme = (IPC2023 / "README.md").read_text(encoding="utf-8")
    return {name: LABEL[label] for name, label in re.findall(r"^\| ([\w-]+) \| (SNP|LNP) \|$", readme, re.M)}


def _domains() -> list[Path]:
    return sorted(p for p in IPC2023.iterdir() if p.is_dir()) if IPC2023.is_dir() else []


@pytest.mark.corpus
@pytest.mark.parametrize("folder", _domains(), ids=lambda p: p.name)
def test_each_ipc2023_domain_gets_the_organisers_label_and_fits_every_numeric_track(folder: Path) -> None:
    report = check_files(folder / "domain.pddl", sorted((folder / "instances").glob("*.pddl")))
    assert not report.errors, [str(e) for e in report.errors]
    assert report.numeric_fragment is _organisers_labels()[folder.name]
    for track in NUMERIC_TRACKS:
        assert report.tracks[track].fit is Fit.FITS, report.tracks[track].explain()
    assert report.to_json()["numeric_fragment"] == report.numeric_fragment.value


def test_the_six_labelled_domains_are_there() -> None:
    if not IPC2023.is_dir():
        pytest.skip("the shared corpus is not beside the repository")
    assert set(_organisers_labels()) == {p.name for p in _domains()} and len(_domains()) == 6


# ------------------------------------------------------------------------------------------------
# The fragment of small tasks

DOMAIN = """(define (domain d) (:requirements :numeric-fluents)
  (:predicates (p)) (:functions (x) (y) (rate) (total-cost))
  (:action a :parameters () :precondition {pre} :effect {eff}))"""


def _fragment(pre: str, eff: str, goal: str = "(p)") -> Fragment | None:
    domain = parse_domain(DOMAIN.format(pre=pre, eff=eff))
    problem = parse_problem(f"(define (problem q) (:domain d) (:init (= (x) 0) (= (y) -1.5) (= (rate) 2) "
                            f"(= (total-cost) 0)) (:goal {goal}))")
    return check(domain, [problem]).numeric_fragment


@pytest.mark.parametrize(("pre", "eff", "goal", "fragment"), [
    # constants and static functions ((rate): no effect changes it) only increase or decrease
    ("(> (x) -3)", "(and (increase (x) 2) (decrease (y) (* 2 (rate))))", "(p)", Fragment.SIMPLE),
    ("(>= (+ (x) (* 3 (y))) (- (rate)))", "(increase (x) (/ 1 (rate)))", "(< (- (x) (y)) 10)", Fragment.SIMPLE),
    # assign, or a right-hand side that reads a fluent
    ("(p)", "(assign (x) 5)", "(p)", Fragment.LINEAR),
    ("(p)", "(and (increase (x) (y)) (decrease (y) 1))", "(p)", Fragment.LINEAR),
    ("(p)", "(and (scale-up (x) 2) (decrease (y) 1))", "(p)", Fragment.LINEAR),
    # products and quotients of fluents, in conditions, goals or effects
    ("(> (* (x) (y)) 0)", "(and (increase (x) 1) (decrease (y) 1))", "(p)", Fragment.NONLINEAR),
    ("(> (* (x) (rate)) 0)", "(increase (x) 1)", "(p)", Fragment.SIMPLE),  # (rate) is static: linear
    ("(p)", "(and (increase (x) 1) (decrease (y) 1))", "(< (/ (rate) (x)) 1)", Fragment.NONLINEAR),
    ("(p)", "(and (increase (x) (* (y) (y))) (decrease (y) 1))", "(p)", Fragment.NONLINEAR),
    ("(p)", "(and (scale-up (x) (y)) (decrease (y) 1))", "(p)", Fragment.NONLINEAR),
    # no numeric fluent: functions only read, or only total-cost increased
    ("(> (rate) 1)", "(p)", "(p)", None),
    ("(p)", "(and (p) (increase (total-cost) (x)))", "(p)", None),
])
def test_fragment(pre: str, eff: str, goal: str, fragment: Fragment | None) -> None:
    assert _fragment(pre, eff, goal) is fragment


def test_equality_of_objects_is_not_a_numeric_condition() -> None:
    domain = parse_domain("""(define (domain d) (:requirements :numeric-fluents :equality)
      (:functions (x)) (:action a :parameters (?a ?b) :precondition (and (not (= ?a ?b)) (> (x) 0))
                          :effect (decrease (x) 1)))""")
    assert check(domain).numeric_fragment is Fragment.SIMPLE


def test_a_process_rate_decides_the_fragment_of_a_continuous_effect() -> None:
    domain = parse_domain("""(define (domain car) (:requirements :time :numeric-fluents)
      (:predicates (on)) (:functions (v) (d) (drag))
      (:action speed-up :parameters () :precondition (on) :effect (increase (v) 1))
      (:process move :parameters () :precondition (on) :effect (and (increase (d) (* #t (v)))
                                                                    (decrease (v) (* #t (* (drag) (v) (v)))))))""")
    assert check(domain).numeric_fragment is Fragment.NONLINEAR


# ------------------------------------------------------------------------------------------------
# The tracks' language


def test_numeric_track_verdicts_for_feature_sets() -> None:
    numeric = verdicts([F.TYPING, F.NUMERIC_FLUENTS, F.NEGATIVE_PRECONDITIONS, F.DISJUNCTIVE_PRECONDITIONS,
                        F.UNIVERSAL_PRECONDITIONS, F.ACTION_COSTS], NUMERIC_TRACKS)
    assert {v.fit for v in numeric.values()} == {Fit.FITS}
    conditional = verdicts([F.NUMERIC_FLUENTS, F.CONDITIONAL_EFFECTS, F.DERIVED_PREDICATES])["ipc2023-numeric-sat"]
    assert conditional.fit is Fit.COMPILABLE
    assert conditional.to_compile == (F.CONDITIONAL_EFFECTS, F.DERIVED_PREDICATES)
    temporal = verdicts([F.NUMERIC_FLUENTS, F.DURATIVE_ACTIONS])["ipc2023-numeric-opt"]
    assert temporal.fit is Fit.UNFIT and temporal.ruled_out_by == (F.DURATIVE_ACTIONS,)
    pddl_plus = verdicts([F.NUMERIC_FLUENTS, F.CONTINUOUS_EFFECTS, F.PROCESSES, F.EVENTS])["ipc2023-numeric-agile"]
    assert pddl_plus.ruled_out_by == (F.CONTINUOUS_EFFECTS, F.PROCESSES, F.EVENTS)
    classical = verdicts([F.TYPING])["ipc2023-numeric-sat"]
    assert classical.fit is Fit.FITS and "none of numeric-fluents" in classical.explain()


def test_a_maximised_metric_is_outside_the_numeric_tracks() -> None:
    domain = parse_domain(DOMAIN.format(pre="(> (x) 0)", eff="(decrease (x) 1)"))
    problem = parse_problem("(define (problem q) (:domain d) (:init (= (x) 3)) (:goal (p)) (:metric maximize (x)))")
    report = check(domain, [problem])
    verdict = report.tracks["ipc2023-numeric-sat"]
    assert verdict.fit is Fit.UNFIT and verdict.ruled_out_by == ()
    assert verdict.explain() == "maximises its metric, and this track's metrics are minimised"
    assert report.tracks["ipc2008-netben-sat"].fit is Fit.FITS  # other tracks do not mind
    minimised = parse_problem("(define (problem q) (:domain d) (:init (= (x) 3)) (:goal (p)) (:metric minimize (x)))")
    assert check(domain, [minimised]).tracks["ipc2023-numeric-sat"].fit is Fit.FITS


def test_processes_are_walked_like_actions() -> None:
    """A process's names are checked, and the fragment and features see it."""
    domain = parse_domain("""(define (domain tank) (:requirements :time :numeric-fluents)
      (:predicates (open)) (:functions (level))
      (:process fill :parameters (?t) :precondition (opne) :effect (increase (levl) (* #t 2))))""")
    report = check(domain)
    assert {(f.code, f.message.split(" ")[1]) for f in report.findings if f.code in ("E202", "E203", "I404")} == {
        ("E202", "opne"), ("E203", "levl"), ("I404", "?t")}
    assert isinstance(domain.processes[0], ast.Process)


def test_the_text_report_has_a_fragment_line_and_the_json_its_field(capsys: pytest.CaptureFixture[str]) -> None:
    from pddltools.cli import main

    feature = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "features" / "negative_numbers"
    files = [str(feature / "domain.pddl"), str(feature / "problem.pddl")]
    assert main(["check", *files]) == 0
    text = capsys.readouterr().out
    assert "Numeric fragment: linear (LNP: linear assignments and conditions)" in text
    assert "ipc2023-numeric-sat" in text
    assert main(["check", "--format", "json", *files]) == 0
    assert json.loads(capsys.readouterr().out)["numeric_fragment"] == "linear"
    classical = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "examples" / "hello" / "domain.pddl"
    assert main(["check", "--format", "json", str(classical)]) == 0
    assert json.loads(capsys.readouterr().out)["numeric_fragment"] is None


def test_the_pddlplus_corpus_task_checks_clean() -> None:
    folder = Path(__file__).resolve().parents[2] / "corpus" / "pddl+" / "car-linear"
    report = check_files(folder / "domain.pddl", [folder / "problem.pddl"])
    assert [f.code for f in report.findings if f.code[0] in "EW"] == []
    assert report.features is not None and {F.PROCESSES, F.EVENTS, F.CONTINUOUS_EFFECTS} <= report.features.features
    assert report.numeric_fragment is Fragment.LINEAR  # (increase (d) (* #t (v))): the rate reads a fluent
    assert report.tracks["ipc2023-numeric-sat"].ruled_out_by == (F.CONTINUOUS_EFFECTS, F.PROCESSES, F.EVENTS)
