"""`pddltools parse` and `pddltools fmt` as a user runs them: output, JSON, exit codes, no tracebacks."""

from __future__ import annotations

import io
import json
import re
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
    assert data["summary"]["parsed"] == 2 and data["summary"]["failed"] == 1
    by_name = {Path(f["path"]).name: f for f in data["files"]}
    assert by_name["domain.pddl"]["kind"] == "domain"
    assert by_name["domain.pddl"]["counts"]["actions"] == 1
    assert by_name["p1.pddl"]["domain"] == "hello"
    assert by_name["bad.pddl"]["ok"] is False and by_name["domain.pddl"]["ok"] is True
    error = by_name["bad.pddl"]["diagnostics"][0]
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


@pytest.mark.parametrize(("original", "formatted"), [
    ("; my notes\n(define   (domain d))   ; the end\n", "; my notes\n(define (domain d)) ; the end\n"),
    # IPC-1998's Lisp form, which the parser skips (W104): kept as it stands
    ('(in-package "PDDL")\n(define   (domain d))\n', '(in-package "PDDL")\n(define (domain d))\n'),
])
def test_fmt_write_keeps_comments(tmp_path: Path, original: str, formatted: str) -> None:
    path = tmp_path / "c.pddl"
    path.write_text(original)
    assert main(["fmt", "--write", str(path)]) == 0
    assert path.read_text() == formatted
    assert main(["fmt", "--check", str(path)]) == 0


def test_drop_comments_is_gone(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["fmt", "--write", "--drop-comments", "x.pddl"])
    assert exit_.value.code == 2 and "--drop-comments" in capsys.readouterr().err


def test_console_script_runs_from_any_folder(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-c", "from pddltools.cli import main; raise SystemExit(main(['--help']))"],
                         capture_output=True, text=True, cwd=tmp_path, check=False)
    assert run.returncode == 0
    assert "parse" in run.stdout and "fmt" in run.stdout


def test_parse_ends_with_a_summary_line_and_draws_no_bar_off_a_terminal(
        files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (files / "bad.pddl").write_text("(define (domain x)\n  (:action a :parameters x))\n")
    assert main(["parse", str(files)]) == 1
    printed = capsys.readouterr()
    assert len(printed.out.splitlines()) == 2  # one line per parsed file, nothing else on stdout
    last = printed.err.splitlines()[-1]
    assert re.fullmatch(r"3 files in \d+\.\d s: 1 domain, 1 problem, 1 failed", last), last
    assert "\x1b" not in printed.err and "━" not in printed.err  # captured output is no terminal
    assert main(["parse", "--format", "json", str(files)]) == 1
    summary = json.loads(capsys.readouterr().out)["summary"]
    assert isinstance(summary["seconds"], float) and summary["files"] == 3


def test_the_progress_bar_is_drawn_on_a_terminal() -> None:
    from rich.console import Console

    from pddltools.progress import progress_bar

    screen = io.StringIO()
    with progress_bar(Console(file=screen, force_terminal=True, width=80)) as progress:
        task = progress.add_task("parsing", total=4)
        progress.advance(task, 2)
        progress.refresh()
    assert "parsing" in screen.getvalue() and "2/4" in screen.getvalue()
    quiet = io.StringIO()
    with progress_bar(Console(file=quiet, force_terminal=False)) as progress:
        progress.advance(progress.add_task("parsing", total=4), 2)
        progress.refresh()
    assert quiet.getvalue() == ""


def test_big_counts_are_said_in_words() -> None:
    from pddltools.progress import in_words

    assert in_words(48408) == "48,408"
    assert in_words(3 * 10**300 + 12345) == "about 3 \u00d7 10^300"  # a times sign
    assert in_words(96 * 10**20) == "about 1 \u00d7 10^22"


def test_fmt_check_takes_several_files_and_names_each_unformatted_one(
        files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    domain, problem = files / "domain.pddl", files / "sub" / "p1.pddl"
    assert main(["fmt", "--write", str(problem)]) == 0
    assert main(["fmt", "--check", str(problem)]) == 0
    assert main(["fmt", "--check", str(domain), str(problem)]) == 1
    err = capsys.readouterr().err
    assert f"{domain} is not formatted" in err and str(problem) not in err


def test_fmt_of_several_files_prints_each_under_its_name(files: Path, capsys: pytest.CaptureFixture[str]) -> None:
    domain, problem = files / "domain.pddl", files / "sub" / "p1.pddl"
    before = domain.read_text(), problem.read_text()
    assert main(["fmt", str(domain), str(problem)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"; ==> {domain} <==\n(define (domain hello)")
    assert f"; ==> {problem} <==\n(define (problem hi)" in out
    assert (domain.read_text(), problem.read_text()) == before  # printing writes nothing


def test_fmt_write_of_several_files_keeps_their_comments(tmp_path: Path) -> None:
    plain, commented = tmp_path / "a.pddl", tmp_path / "b.pddl"
    plain.write_text("(define   (domain a))\n")
    commented.write_text("; my notes\n\n(define (domain b)\n (:predicates (p) ; why\n))\n")
    assert main(["fmt", "--write", str(plain), str(commented)]) == 0
    assert plain.read_text() == "(define (domain a))\n"
    assert commented.read_text() == "; my notes\n\n(define (domain b)\n  (:predicates\n    (p) ; why\n  ))\n"


def test_fmt_reports_a_comment_it_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "d.pddl"
    path.write_text("(define (domain d)\n  (:predicates (on ?x ; upper\n ?y)))\n")
    assert main(["fmt", "--format", "json", str(path)]) == 0
    entry = json.loads(capsys.readouterr().out)["files"][0]
    assert [d["code"] for d in entry["diagnostics"]] == ["W121"]
    assert entry["text"] == "(define (domain d)\n  (:predicates\n    ; upper\n    (on ?x ?y)))\n"


def test_an_unknown_option_shows_the_sub_commands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["fmt", "--bogus", "x.pddl"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: pddltools fmt ") and "unrecognized arguments: --bogus" in err
    with pytest.raises(SystemExit):
        main(["rddl", "simulate", "--bogus", "a.rddl"])
    assert capsys.readouterr().err.startswith("usage: pddltools rddl simulate ")


def test_python_dash_m_pddltools_runs_the_command_under_its_own_name(files: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "pddltools", "parse", str(files / "domain.pddl")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout.startswith(f"{files / 'domain.pddl'}: domain hello")
    usage = subprocess.run([sys.executable, "-m", "pddltools", "fmt"], capture_output=True, text=True, check=False)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: python -m pddltools fmt ")


def test_python_dash_m_validate_shows_its_own_usage() -> None:
    run = subprocess.run([sys.executable, "-m", "pddltools.validate", "--help"], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0
    assert run.stdout.startswith("usage: python -m pddltools.validate [-h]")
    assert "validate validate" not in run.stdout
