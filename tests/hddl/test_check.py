"""The HDDL checker: each finding of the hierarchy on a small input, PDDL's findings in methods, the
HTN track verdicts, and the IPC-2020 set (every domain with its first problem checks without error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.check.cli import pair_files
from pddltools.check.report import CheckReport, check_files
from pddltools.check.tracks import Fit
from pddltools.diagnostics import Source
from pddltools.hddl import ast
from pddltools.hddl.check import check_htn
from pddltools.hddl.network import Order
from pddltools.hddl.parser import parse, parse_file
from pddltools.hddl.tracks import partial_network
from tests.hddl.corpus_files import SHARED_HDDL

DOMAIN = """(define (domain d)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types place truck)
  (:predicates (at ?p - place))
  (:task go :parameters (?p - place))
  (:method m-go :parameters (?p - place) :task (go ?p)
    :precondition (not (at ?p))
    :subtasks (and (t1 (move ?p)) (t2 (move ?p)))
    :ordering (and (< t1 t2)))
  (:action move :parameters (?p - place) :effect (at ?p)))
"""
PROBLEM = """(define (problem p) (:domain d)
  (:objects a - place)
  (:htn :ordered-subtasks (and (t1 (go a)) (t2 (go a))))
  (:init))
"""


def _check(domain: str = DOMAIN, problem: str | None = PROBLEM) -> CheckReport:
    d = parse(Source(domain, "domain.hddl"), "domain")
    problems = [parse(Source(problem, "problem.hddl"), "problem")] if problem is not None else []
    return check_htn(d, problems)


def _codes(report: CheckReport) -> list[str]:
    return [f.code for f in report.findings if f.code != "I910"]


def _message(report: CheckReport, code: str) -> str:
    return next(f.message for f in report.findings if f.code == code)


def test_a_sound_domain_has_no_findings_and_fits_both_tracks() -> None:
    report = _check()
    assert _codes(report) == []
    assert {tid: v.fit for tid, v in report.tracks.items()} == {
        "ipc2020-htn-total-order": Fit.FITS, "ipc2020-htn-partial-order": Fit.FITS,
        "ipc2023-htn-total-order": Fit.FITS, "ipc2023-htn-partial-order": Fit.FITS}
    assert "total-order track domain" in report.tracks["ipc2020-htn-partial-order"].explain()
    assert "totally ordered" in _message(report, "I910")


def test_a_task_declared_twice_or_as_an_action() -> None:
    twice = DOMAIN.replace("(:task go :parameters (?p - place))",
                           "(:task go :parameters (?p - place)) (:task move :parameters (?p - place))"
                           " (:task go :parameters (?p - place))")
    report = _check(twice)
    assert _codes(report).count("E901") == 2
    assert "as a compound task and as an action" in report.errors[0].message


def test_unknown_tasks_and_a_method_of_an_action() -> None:
    report = _check(DOMAIN.replace("(t2 (move ?p))", "(t2 (mvoe ?p))"))
    assert _codes(report) == ["E903"] and "did you mean move?" in report.errors[0].message
    report = _check(DOMAIN.replace(":task (go ?p)", ":task (move ?p)"))
    assert "E904" in _codes(report) and "is an action" in _message(report, "E904")
    assert "W908" in _codes(report)  # go lost its only method


def test_subtask_arguments_are_checked_like_atoms() -> None:
    assert _codes(_check(DOMAIN.replace("(t1 (move ?p))", "(t1 (move))"))) == ["E206"]
    assert _codes(_check(DOMAIN.replace("(t1 (move ?p))", "(t1 (move ?q))"))) == ["E205"]
    typed = DOMAIN.replace(":parameters (?p - place) :task (go ?p)",
                           ":parameters (?p - place ?t - truck) :task (go ?p)")
    assert _codes(_check(typed.replace("(t1 (move ?p))", "(t1 (move ?t))"))) == ["E207"]
    assert _codes(_check(DOMAIN.replace(":task (go ?p)", ":task (go)"))) == ["E206"]
    assert _codes(_check(problem=PROBLEM.replace("(t1 (go a))", "(t1 (go b))"))) == ["E204"]


def test_method_preconditions_are_checked_by_pddl_naming_the_method() -> None:
    report = _check(DOMAIN.replace("(not (at ?p))", "(not (att ?p))"))
    assert _codes(report) == ["E202"]
    assert report.errors[0].span is not None and report.errors[0].span.line == 7
    report = _check(DOMAIN.replace("(not (at ?p))", "(not (at ?x))"))
    assert _codes(report) == ["E205"] and "method m-go" in report.errors[0].message


def test_subtask_ids_and_ordering() -> None:
    report = _check(DOMAIN.replace("(t2 (move ?p))", "(t1 (move ?p))"))
    assert "E905" in _codes(report)
    report = _check(DOMAIN.replace("(< t1 t2)", "(< t1 t3)"))
    assert _codes(report) == ["E906"] and "t3" in report.errors[0].message
    report = _check(DOMAIN.replace("(< t1 t2)", "(< t1 t2) (< t2 t1)"))
    assert _codes(report) == ["E907"] and "t1 < t2 < t1" in report.errors[0].message
    for verdict in report.tracks.values():
        assert verdict.fit is Fit.INVALID


def test_tasks_without_methods_and_unreachable_tasks() -> None:
    extra = DOMAIN.replace("  (:method", "  (:task stay :parameters ())\n  (:task idle :parameters ())\n"
                           "  (:method m-idle :parameters () :task (idle))\n  (:method")
    report = _check(extra)
    assert sorted(_codes(report)) == ["W908", "W909", "W909"]
    assert "stay has no method" in _message(report, "W908")
    assert _codes(_check(extra, problem=None)) == ["W908"]  # no initial network: nothing is unreachable


def test_sortof_constraints() -> None:
    constraints = "(and (sortof ?p - place) (not (= ?p ?p)) (not (sortof ?p - truck)))"  # UM-Translog's not
    constrained = DOMAIN.replace("(< t1 t2)))", f"(< t1 t2))\n    :constraints {constraints})")
    constrained = constrained.replace(":hierarchy", ":hierarchy :equality")
    report = _check(constrained)
    assert _codes(report) == [] and report.tracks["ipc2020-htn-partial-order"].fit is Fit.FITS
    assert _codes(_check(constrained.replace("sortof ?p - place", "sortof ?p - plaice"))) == ["E201"]
    assert _codes(_check(constrained.replace("sortof ?p - place", "sortof ?q - place"))) == ["E205"]


def test_a_problem_for_another_domain_is_a_warning_in_hddl() -> None:
    report = _check(problem=PROBLEM.replace("(:domain d)", "(:domain other)"))
    assert _codes(report) == ["W911"] and report.ok


def test_partial_order_rules_out_the_total_order_tracks() -> None:
    report = _check(DOMAIN.replace(":ordering (and (< t1 t2))", ""))
    total = report.tracks["ipc2023-htn-total-order"]
    assert total.fit is Fit.UNFIT and "in method m-go, subtasks t1 and t2 are unordered" in total.explain()
    assert report.tracks["ipc2023-htn-partial-order"].fit is Fit.FITS
    assert "partially ordered" in _message(report, "I910")
    unordered_root = _check(problem=PROBLEM.replace(":ordered-subtasks", ":subtasks"))
    assert "initial task network of problem p" in unordered_root.tracks["ipc2020-htn-total-order"].explain()


def test_pddl_features_outside_hddl_rule_out_every_track() -> None:
    numeric = DOMAIN.replace("(:predicates (at ?p - place))", "(:predicates (at ?p - place)) (:functions (fuel))")
    numeric = numeric.replace(":effect (at ?p)", ":effect (and (at ?p) (increase (fuel) 1))")
    numeric = numeric.replace(":negative-preconditions", ":negative-preconditions :numeric-fluents")
    report = _check(numeric)
    assert all(v.fit is Fit.UNFIT for v in report.tracks.values())
    assert "numeric-fluents" in report.tracks["ipc2020-htn-partial-order"].explain()


def test_order_of_a_network() -> None:
    net = ast.TaskNetwork(tuple(ast.Subtask(i, "a") for i in ("x", "y", "z")), False,
                          (ast.Ordering("x", "y"), ast.Ordering("y", "z")))
    assert Order.of(net).unordered_pair() is None and Order.of(net).cycle() is None
    assert Order.of(ast.TaskNetwork(net.subtasks, False, net.ordering[:1])).unordered_pair() == (0, 2)
    assert Order.of(ast.TaskNetwork(net.subtasks, True)).unordered_pair() is None


def test_unreadable_and_unparsable_files_are_findings(tmp_path: Path) -> None:
    (tmp_path / "domain.hddl").write_text(DOMAIN.replace("(:action", "(:acton"), encoding="utf-8")
    report = check_files(tmp_path / "domain.hddl", [tmp_path / "missing.hddl"])
    assert report.unreadable and report.features is None and {f.code for f in report.errors} >= {"E001"}


# -------------------------------------------------------------------------------------------------
# The IPC-2020 set


def _folders() -> list[Path]:
    if not SHARED_HDDL.is_dir():
        return []
    return sorted({p.parent for p in SHARED_HDDL.rglob("*.hddl") if "plans" not in p.parts})


@pytest.mark.parametrize("folder", _folders(), ids=lambda p: "/".join(p.parts[-2:]))
def test_every_ipc_2020_domain_checks_without_error_with_its_first_problem(folder: Path) -> None:
    # the folder's own files: the feature tests' plans/ holds a plan named sortof.hddl
    for block in pair_files([str(p) for p in sorted(folder.glob("*.hddl"))]):
        assert block.domain is not None, f"no domain found for {block.missing}"
        report = check_files(block.domain, block.problems[:1])
        assert report.errors == [], report.errors[:3]
        if folder.parent.name == "total-order":
            assert report.tracks["ipc2020-htn-total-order"].fit is Fit.FITS
        if folder.parent.name == "partial-order" and block.problems:
            # with all its problems: the partial-order domains order some network partially
            problems = [parse_file(p, "problem") for p in block.problems]
            assert partial_network(parse_file(block.domain, "domain"), problems) is not None
            assert report.tracks["ipc2020-htn-partial-order"].fit is Fit.FITS
