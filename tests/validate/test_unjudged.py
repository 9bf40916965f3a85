"""A plan the validator cannot judge is never "invalid": verdict `error`, reason `unsupported`, exit 2,
and a message and a V020 diagnostic naming the construct and where it is written."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.schemas import schema
from pddltools.semantics import GroundedTask
from pddltools.validate import validate_plan

# dx/dt = x²: no closed form the validator solves, and no --delta to approximate it
DOMAIN = """(define (domain grow)
  (:requirements :time :numeric-fluents)
  (:functions (x))
  (:action stop :parameters () :precondition (and) :effect (and))
  (:process grow :parameters () :precondition (and)
    :effect (increase (x) (* #t (* (x) (x))))))
"""
PROBLEM = """(define (problem p) (:domain grow)
  (:init (= (x) 1))
  (:goal (>= (x) 1)))
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str]:
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    (tmp_path / "problem.pddl").write_text(PROBLEM)
    (tmp_path / "plan.txt").write_text("0.5: (stop)\n")
    return str(tmp_path / "domain.pddl"), str(tmp_path / "problem.pddl"), str(tmp_path / "plan.txt")


def test_the_report_is_an_error_that_locates_the_construct() -> None:
    task = GroundedTask(parse_domain(DOMAIN, "domain.pddl"), parse_problem(PROBLEM, "problem.pddl"))
    report = validate_plan(task, "0.5: (stop)\n")
    assert (report.valid, report.verdict, report.reason) == (False, "error", "unsupported")
    assert report.message.startswith("cannot judge this plan: ")
    assert "not polynomial" in report.message and "(domain.pddl:6:33)" in report.message
    [diagnostic] = report.diagnostics
    assert diagnostic.code == "V020" and diagnostic.span is not None
    assert (diagnostic.span.file, diagnostic.span.line, diagnostic.span.column) == ("domain.pddl", 6, 33)
    assert diagnostic.span.text == "(* (x) (x))"


def test_text_output_exits_2_and_shows_the_place(files: tuple[str, str, str],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *files]) == 2
    out = capsys.readouterr().out
    assert "error (unsupported): cannot judge this plan" in out and "invalid" not in out
    assert "domain.pddl:6:33: error[V020]" in out and "^^^^^^^^^^^" in out


def test_json_follows_the_schema_and_counts_the_plan_unjudged(files: tuple[str, str, str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", *files, "--format", "json"]) == 2
    data = json.loads(capsys.readouterr().out)
    jsonschema.validate(data, schema("validate"), cls=jsonschema.Draft202012Validator)
    plan = data["files"][2]
    assert (plan["ok"], plan["valid"], plan["verdict"], plan["reason"]) == (False, False, "error", "unsupported")
    assert [(d["code"], d["line"], d["column"]) for d in plan["diagnostics"]] == [("V020", 6, 33)]
    assert plan["diagnostics"][0]["file"].endswith("domain.pddl")
    assert data["summary"] == {"files": 3, "plans": 1, "valid": 0, "invalid": 0, "unjudged": 1}


def test_the_schema_refuses_an_unsupported_plan_called_invalid(files: tuple[str, str, str],
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    main(["validate", *files, "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    data["files"][2]["verdict"] = "invalid"  # what this validator said before: a correct plan taken for a wrong one
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema("validate"), cls=jsonschema.Draft202012Validator)


def test_a_batch_line_that_cannot_be_judged_exits_2(files: tuple[str, str, str], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "list.tsv").write_text("\t".join(files) + "\n")
    assert main(["validate", "--batch", str(tmp_path / "list.tsv"), "--format", "json"]) == 2
    entry = json.loads(capsys.readouterr().out)
    assert (entry["verdict"], entry["reason"]) == ("error", "unsupported")


def test_view_writes_the_page_and_exits_as_validate(files: tuple[str, str, str], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "plan.html"
    assert main(["view", *files, "-o", str(page)]) == 2
    assert "error (unsupported)" in capsys.readouterr().out and page.is_file()
