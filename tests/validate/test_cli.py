"""`pddltools validate`: text and JSON output, exit codes, --batch and --epsilon."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pddltools.cli import main
from tests.validate.conftest import OWN

ADL = OWN / "adl"
TEMPORAL = OWN / "temporal"
JSON_FIELDS = {"plan", "valid", "verdict", "value", "length", "cost", "makespan", "failed_step", "line", "action",
               "reason", "message", "unsatisfied", "advice", "violations", "tolerance", "happening_window",
               "failed_time", "delta", "diagnostics"}


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_valid_plan_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(ADL / "domain.pddl"), str(ADL / "problem.pddl"), str(ADL / "valid.plan"))
    assert code == 0
    assert "valid, value 8 (length 8, cost 8)" in out


def test_many_plans_json(capsys: pytest.CaptureFixture[str]) -> None:
    plans = [str(ADL / p) for p in ("valid.plan", "not-open.plan", "type.plan")]
    code, out, _ = run(capsys, "validate", str(ADL / "domain.pddl"), str(ADL / "problem.pddl"), *plans, "--format",
                       "json")
    assert code == 1
    data = [f for f in json.loads(out)["files"] if f["kind"] == "plan"]
    assert [d["plan"] for d in data] == [d["path"] for d in data] == plans
    assert all(set(d) == JSON_FIELDS | {"path", "kind", "ok"} for d in data)
    assert [(d["valid"], d["reason"], d["failed_step"]) for d in data] == [
        (True, None, None), (False, "precondition", 1), (False, "type", 1)]
    assert data[1]["unsatisfied"] == ["(open lab)"] and data[1]["advice"] == ["make (open lab) true before step 1"]
    assert data[2]["diagnostics"][0]["line"] == 1


def test_invalid_plan_text_shows_literals_and_advice(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", str(ADL / "domain.pddl"), str(ADL / "problem.pddl"),
                       str(ADL / "holding-twice.plan"))
    assert code == 1
    assert "invalid at step 3 (line 3)" in out and "unsatisfied: (not (holding k1))" in out
    assert "advice: make it hold before step 3" in out  # not the literal again


def test_long_lists_are_folded_and_advice_does_not_repeat_them(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    """An empty plan for a goal of 30 atoms: ten unsatisfied lines and a count, one line of advice."""
    goals = " ".join(f"(at-goal g{i})" for i in range(30))
    domain = tmp_path / "domain.pddl"
    domain.write_text("(define (domain g) (:predicates (at-goal ?x)) (:action noop :parameters () "
                      ":precondition () :effect ()))\n")
    problem = tmp_path / "problem.pddl"
    problem.write_text(f"(define (problem p) (:domain g) (:objects {' '.join(f'g{i}' for i in range(30))}) "
                       f"(:init) (:goal (and {goals})))\n")
    plan = tmp_path / "empty.plan"
    plan.write_text("")
    code, out, _ = run(capsys, "validate", str(domain), str(problem), str(plan))
    lines = out.splitlines()
    assert code == 1 and sum(line.startswith("  unsatisfied: ") for line in lines) == 10
    assert "  ... and 20 more (--verbose shows all)" in lines
    assert [line for line in lines if "advice" in line] == [
        "  advice: make each unsatisfied literal hold by the end of the plan"]
    code, out, _ = run(capsys, "validate", str(domain), str(problem), str(plan), "--verbose")
    assert sum(line.startswith("  unsatisfied: ") for line in out.splitlines()) == 30 and "more" not in out


def test_a_task_with_a_syntax_error_exits_1_an_unreadable_plan_2(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    broken = tmp_path / "domain.pddl"
    broken.write_text("(define (domain x) (:action a")
    code, _, err = run(capsys, "validate", str(broken), str(ADL / "problem.pddl"), str(ADL / "valid.plan"))
    assert code == 1 and "domain.pddl:1:" in err  # a finding, as `check` reports it
    code, out, _ = run(capsys, "validate", str(ADL / "domain.pddl"), str(ADL / "problem.pddl"), str(tmp_path / "no"))
    assert code == 2 and "cannot read" in out
    code, _, err = run(capsys, "validate", str(ADL / "domain.pddl"))
    assert code == 2 and "needs DOMAIN PROBLEM PLAN" in err


def test_epsilon_option(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["validate", str(TEMPORAL / "domain.pddl"), str(TEMPORAL / "problem.pddl"), str(TEMPORAL / "epsilon.plan"),
            "--format", "json"]
    code, out, _ = run(capsys, *args)  # 0.0005 apart: one happening at VAL's -t 0.01 (within 0.001)
    assert code == 1 and json.loads(out)["files"][2]["reason"] == "epsilon"
    code, out, _ = run(capsys, *args, "--tolerance", "0.001")  # two happenings (0.0005 > 0.0001)
    assert code == 0 and json.loads(out)["files"][2]["value"] == 15.5
    code, out, _ = run(capsys, *args, "--tolerance", "0.001", "--epsilon", "0.001")  # but closer than epsilon
    assert code == 1 and "at least 0.001 apart" in json.loads(out)["files"][2]["message"]


def test_batch(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(OWN)
    listing = tmp_path / "list.tsv"
    listing.write_text("\n".join([
        "adl/domain.pddl\tadl/problem.pddl\tadl/valid.plan",
        "adl/domain.pddl\tadl/problem.pddl\tadl/not-open.plan",
        "just one field",
        "adl/domain.pddl\tmissing.pddl\tadl/valid.plan",
        "adl/domain.pddl\tadl/problem.pddl\tadl/missing.plan",
        "numeric/domain.pddl\tnumeric/problem.pddl\tnumeric/valid.plan",
    ]) + "\n")
    code, out, _ = run(capsys, "validate", "--batch", str(listing), "--format", "json")
    entries = [json.loads(line) for line in out.splitlines()]
    assert code == 2
    assert [e["batch_line"] for e in entries] == [1, 2, 3, 4, 5, 6]
    assert entries[1]["line"] == 1 and entries[1]["failed_step"] == 1  # the plan file's line
    assert [e["valid"] for e in entries] == [True, False, False, False, False, True]
    assert entries[2]["reason"] == "batch-line" and "expected domain" in entries[2]["error"]
    assert entries[3]["reason"] == "task" and "missing.pddl" in entries[3]["error"]
    assert entries[4]["reason"] == "unreadable"
    assert entries[5]["value"] == 4


def test_batch_text_and_unreadable_list(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(OWN)
    listing = tmp_path / "list.tsv"
    listing.write_text("adl/domain.pddl\tadl/problem.pddl\tadl/valid.plan\n")
    code, out, _ = run(capsys, "validate", "--batch", str(listing))
    assert code == 0 and "line 1: adl/valid.plan: valid, value 8" in out
    code, _, err = run(capsys, "validate", "--batch", str(tmp_path / "none.tsv"))
    assert code == 2 and "cannot read" in err


def test_lean_entry_point(capsys: pytest.CaptureFixture[str]) -> None:
    from pddltools.validate.cli import main as lean

    code = lean([str(ADL / "domain.pddl"), str(ADL / "problem.pddl"), str(ADL / "valid.plan"), "--format", "json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["files"][2]["valid"]


def test_files_in_the_wrong_order_are_named_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    """`validate PROBLEM DOMAIN PLAN`: the domain, read where a plan was expected, is V021, not a broken step."""
    code, out, _ = run(capsys, "validate", str(ADL / "problem.pddl"), str(ADL / "domain.pddl"), str(ADL / "valid.plan"))
    assert code == 1 and "error[V021]" in out and "is a domain file, not a plan" in out and "never closed" not in out
    assert "valid.plan: valid" in out


def test_a_problem_for_another_domain_is_a_warning(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    problem = tmp_path / "problem.pddl"
    problem.write_text((ADL / "problem.pddl").read_text().replace("(:domain adl-rooms)", "(:domain other)"))
    code, out, err = run(capsys, "validate", str(ADL / "domain.pddl"), str(problem), str(ADL / "valid.plan"))
    assert code == 0 and "warning[W301]" in err and "problem.pddl:2:" in err and "valid.plan: valid" in out
    code, out, _ = run(capsys, "validate", str(ADL / "domain.pddl"), str(problem), str(ADL / "valid.plan"),
                       "--format", "json")
    entry = json.loads(out)["files"][1]
    assert code == 0 and [d["code"] for d in entry["diagnostics"]] == ["W301"] and entry["ok"]
