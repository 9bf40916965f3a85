"""The HTN plan verifier on hand-written plans: each check's fault, located on its plan line, and the
validate command's text, JSON and exit codes for HDDL."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.hddl.verify import HTNTask, verify_plan
from pddltools.schemas import schema

PLANS = Path(__file__).resolve().parents[2] / "corpus" / "hddl" / "plans"
WALK, ERRANDS = PLANS / "walk", PLANS / "errands"
STEPS = "==>\n0 (move a b)\n1 (move b c)\n"


@pytest.fixture(scope="module")
def walk() -> HTNTask:
    return HTNTask.load(WALK / "domain.hddl", WALK / "problem.hddl")


def verdict(htn: HTNTask, text: str, tmp_path: Path) -> tuple[bool, list[tuple[str, int, int, str]]]:
    plan = tmp_path / "plan.txt"
    plan.write_text(text, encoding="utf-8")
    report = verify_plan(htn, plan)
    return report.valid, [(d.code, d.span.line, d.span.column, d.message) if d.span else (d.code, 0, 0, d.message)
                          for d in report.diagnostics]


@pytest.mark.parametrize(("plan", "code", "line", "column", "words"), [
    (STEPS + "root 2 3\n2 go b -> m-go 0\n2 go c -> m-go 1\n", "V102", 6, 1, "task id 2 is used twice"),
    (STEPS + "root 2 3\n2 go b -> m-go 0 2\n3 go c -> m-go 1\n", "V102", 5, 18, "lists itself"),
    (STEPS + "root 2 3\n2 go b -> m-go 0\n3 go c -> m-go 0\n", "V102", 6, 16, "already lists"),
    ("==>\n0 (go b)\n1 (move b c)\nroot 2 3\n2 go b -> m-go 0\n3 go c -> m-go 1\n", "V103", 2, 4,
     "compound task"),
    (STEPS + "root 2 3\n2 move a b -> m-go 0\n3 go c -> m-go 1\n", "V103", 5, 3, "is an action"),
    (STEPS + "root 2 3\n2 go t1 -> m-go 0\n3 go c -> m-go 1\n", "V104", 5, 6, "'t1' is not an object"),
    (STEPS + "root 2 3\n2 go b b -> m-go 0\n3 go c -> m-go 1\n", "V104", 5, 3, "takes 1 argument (?to), not 2"),
    (STEPS + "root 3 2\n2 go b -> m-go 0\n3 go c -> m-go 1\n", "V110", 4, 1, "listed in an order"),
    (STEPS + "root 2 3\n2 go c -> m-go 0\n3 go c -> m-go 1\n", "V111", 5, 11, "m-go"),
])
def test_each_hierarchy_fault_is_located(walk: HTNTask, tmp_path: Path, plan: str, code: str, line: int,
                                         column: int, words: str) -> None:
    valid, faults = verdict(walk, plan, tmp_path)
    assert not valid
    assert any(c == code and (ln, col) == (line, column) and words in m for c, ln, col, m in faults), faults


def test_a_primitive_step_is_checked_as_a_classical_step(walk: HTNTask, tmp_path: Path) -> None:
    valid, faults = verdict(walk, "==>\n0 (move a)\n1 (move b c)\nroot 2 3\n2 go b -> m-go 0\n3 go c -> m-go 1\n",
                            tmp_path)
    assert not valid and faults[0][:3] == ("V003", 2, 1)


def test_a_step_whose_precondition_fails_is_the_classical_verdict(walk: HTNTask, tmp_path: Path) -> None:
    # the hierarchy fits (m-go binds ?from by its subtask), but the second move starts at a, not c
    plan = tmp_path / "plan.txt"
    plan.write_text("==>\n0 (move a b)\n1 (move a c)\nroot 2 3\n2 go b -> m-go 0\n3 go c -> m-go 1\n")
    report = verify_plan(walk, plan)
    assert not report.valid and report.reason == "precondition" and report.failed_step == 2


def test_a_primitive_plan_without_root_line_needs_an_empty_initial_network(walk: HTNTask, tmp_path: Path) -> None:
    valid, faults = verdict(walk, STEPS + "<==\n", tmp_path)
    assert not valid and faults[0][:2] == ("V110", 1)


def test_a_method_without_subtasks_may_start_anywhere_its_order_allows(tmp_path: Path) -> None:
    errands = HTNTask.load(ERRANDS / "domain.hddl", ERRANDS / "problem.hddl")
    # get tea by m-get-have: (have tea) holds from the start, in every state of the unordered root
    assert verify_plan(errands, ERRANDS / "valid.plan").valid
    assert verify_plan(errands, ERRANDS / "valid-interleaved.plan").valid
    report = verify_plan(errands, ERRANDS / "method-precondition.plan")
    assert report.reason == "method-precondition" and [d.code for d in report.diagnostics] == ["V107"]


def test_validate_prints_the_verdict_and_exits_as_for_classical_plans(capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(WALK / "domain.hddl"), str(WALK / "problem.hddl")]
    assert main(["validate", *args, str(WALK / "valid.plan")]) == 0
    assert "valid, value 2 (length 2" in capsys.readouterr().out
    assert main(["validate", *args, str(WALK / "valid.swap.plan")]) == 1
    out = capsys.readouterr().out
    assert "valid.swap.plan: not a plan for this task (ordering)" in out and "[V108]" in out and "^" in out
    assert main(["validate", *args, str(WALK / "valid.plan"), "--trace"]) == 2
    assert main(["validate", *args, str(WALK / "missing.plan")]) == 2


def test_validate_json_is_the_envelope_of_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(WALK / "domain.hddl"), str(WALK / "problem.hddl")]
    assert main(["validate", *args, str(WALK / "valid.plan"), str(WALK / "valid.unknown-id.plan"),
                 "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, schema("validate"), cls=jsonschema.Draft202012Validator)
    assert data["summary"] == {"files": 4, "plans": 2, "valid": 1, "invalid": 1, "unjudged": 0}
    bad = data["files"][3]
    assert bad["ok"] is False and bad["diagnostics"][0]["code"] == "V102" and bad["diagnostics"][0]["line"] == 6


def test_a_domain_that_does_not_parse_is_a_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 1, as `parse` and `check` give for the same file (one status per finding, tests/test_exit_status.py)."""
    broken = tmp_path / "domain.hddl"
    broken.write_text("(define (domain walk)\n  (:task go :parameters (?to - place)\n")
    assert main(["validate", str(broken), str(WALK / "problem.hddl"), str(WALK / "valid.plan")]) == 1
    assert "domain.hddl:" in capsys.readouterr().err
