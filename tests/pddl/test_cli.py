"""`pddltools parse` and `pddltools fmt` as a user runs them: output, JSON, exit codes, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pddltools.cli import main

DOMAIN = """(define (domain hello)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (at ?p - place) (road ?a ?b - place))
  (:action go
    :parameters (?a ?b - place)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (at ?b) (not (at ?a)))))
"""

PROBLEM = """(define (problem hi) (:domain hello)
  (:objects home work - place)
  (:init (at home) (road home work))
  (:goal (at work)))
"""


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "domain.pddl").write_text(DOMAIN)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "p1.pddl").write_text(PROBLEM)
    return tmp_path


def test_parse_summarises_every_file_of_a_folder(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(files)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{files / 'domain.pddl'}: domain hello: 2 requirements, 1 types, 2 predicates, 1 actions",
        f"{files / 'sub' / 'p1.pddl'}: problem hi (domain hello): 2 objects, 2 init, 1 goal atoms",
    ]


def test_parse_json(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (files / "bad.pddl").write_text("(define (domain x)\n  (:action a :parameters x))\n")
    assert main(["parse", "--format", "json", str(files)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["parsed"] == 2 and data["failed"] == 1
    by_name = {Path(f["file"]).name: f for f in data["files"]}
    assert by_name["domain.pddl"]["kind"] == "domain"
    assert by_name["domain.pddl"]["counts"]["actions"] == 1
    assert by_name["p1.pddl"]["domain"] == "hello"
    error = by_name["bad.pddl"]["errors"][0]
    assert (error["code"], error["line"], error["column"]) == ("E103", 2, 26)
    assert error["message"] == "expected a parameter list such as (?x - type) after ':parameters', found 'x'"


def test_parse_error_shows_the_line_and_a_caret(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pddl"
    bad.write_text("(define (domain x)\n  (:action a :parameters x))\n")
    run = subprocess.run([sys.executable, "-m", "pddltools.cli", "parse", str(bad)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert lines[0] == f"{bad}:2:26: error[E103]: expected a parameter list such as (?x - type) after " \
                       "':parameters', found 'x'"
    assert lines[1].endswith("(:action a :parameters x))")
    assert lines[2].index("^") == lines[1].index("x))")


def test_unreadable_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(tmp_path / "missing.pddl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "bin.pddl"
    binary.write_bytes(b"\x00\xff\x12")
    assert main(["parse", str(binary)]) == 2
    assert "binary file" in capsys.readouterr().err


def test_a_folder_without_pddl_files_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["parse", str(tmp_path)]) == 2


def test_unknown_requirement_is_a_warning_not_a_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.pddl"
    path.write_text("(define (domain d) (:requirements :strips :teleportation))")
    assert main(["parse", str(path)]) == 0
    err = capsys.readouterr().err
    assert "warning[W101]: unknown requirement :teleportation" in err


def test_fmt_prints_the_canonical_layout(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", str(files / "sub" / "p1.pddl")]) == 0
    assert capsys.readouterr().out == (
        "(define (problem hi)\n"
        "  (:domain hello)\n"
        "  (:objects\n"
        "    home work - place)\n"
        "  (:init\n"
        "    (at home)\n"
        "    (road home work))\n"
        "  (:goal (at work)))\n"
    )


def test_fmt_check_and_write(files: Path) -> None:
    path = files / "domain.pddl"
    assert main(["fmt", "--check", str(path)]) == 1
    assert main(["fmt", "--write", str(path)]) == 0
    assert main(["fmt", "--check", str(path)]) == 0
    assert "(:action go" in path.read_text()


def test_fmt_write_keeps_comments_unless_told(tmp_path: Path) -> None:
    path = tmp_path / "c.pddl"
    original = "; my notes\n(define (domain d))\n"
    path.write_text(original)
    assert main(["fmt", "--write", str(path)]) == 2
    assert path.read_text() == original
    assert main(["fmt", "--write", "--drop-comments", str(path)]) == 0
    assert path.read_text() == "(define (domain d))\n"


def test_console_script_runs_from_any_folder(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", "from pddltools.cli import main; raise SystemExit(main(['--help']))"],
                         capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.returncode == 0
    assert "parse" in run.stdout and "fmt" in run.stdout
