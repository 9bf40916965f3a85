"""`pddltools check` as a user and a CI job run it: the report, JSON, GitHub annotations, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pddltools.check.tracks import TRACK_IDS
from pddltools.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "pddl"
HELLO = CORPUS / "examples" / "hello"
BAD = CORPUS / "check"


def findings(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every diagnostic of check's envelope, file by file."""
    return [d for f in data["files"] for d in f["diagnostics"]]


def run(*args: str | Path) -> tuple[int, str, str]:
    done = subprocess.run([sys.executable, "-m", "pddltools.cli", "check", *map(str, args)],
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def test_a_clean_task_exits_0_with_features_and_every_track(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(HELLO / "domain.pddl"), str(HELLO / "problem.pddl")]) == 0
    out = capsys.readouterr().out
    assert "Features used" in out and "action-costs" in out
    for track in TRACK_IDS:
        assert track in out
    assert "0 errors, 0 warnings" in out


def test_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--format", "json", str(HELLO / "domain.pddl"), str(HELLO / "problem.pddl")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(f["path"], f["kind"]) for f in data["files"]] == [(str(HELLO / "domain.pddl"), "domain"),
                                                                (str(HELLO / "problem.pddl"), "problem")]
    assert data["features"] == ["typing", "action-costs"]
    assert set(data["tracks"]) == set(TRACK_IDS)
    assert data["tracks"]["ipc2008-seq-sat"] == "fits"
    assert data["tracks"]["ipc2011-learning"] == "compilable"
    assert "--remove action-costs" in data["track_details"]["ipc2011-learning"]["compile"]
    finding = findings(data)[0]
    assert {"code", "severity", "message", "file", "line", "column"} <= set(finding)
    assert data["summary"]["errors"] == 0


def test_errors_exit_1_and_are_shown_with_a_caret(capsys: pytest.CaptureFixture[str]) -> None:
    domain = BAD / "undeclared-predicate" / "domain.pddl"
    assert main(["check", str(domain)]) == 1
    out = capsys.readouterr().out
    assert f"{domain}:6:19: error[E202]: predicate claer is not declared in :predicates (did you mean clear?)" in out
    assert "    :precondition (claer ?x)" in out and "^^^^^^^^^" in out


def test_several_errors_in_one_file_are_all_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    domain = tmp_path / "d.pddl"
    domain.write_text("""(define (domain d) (:requirements :strips)
  (:predicates (p ?x))
  (:action a :parameters (?x) :precondition (and (q ?x) (p ?y)) :effect (p ?x ?x)))""")
    assert main(["check", "--format", "json", str(domain)]) == 1
    codes = [(f["code"], f["line"]) for f in findings(json.loads(capsys.readouterr().out))
             if f["severity"] == "error"]
    assert codes == [("E202", 3), ("E205", 3), ("E206", 3)]


def test_strict_turns_an_undeclared_requirement_into_an_error() -> None:
    domain = BAD / "undeclared-requirement" / "domain.pddl"
    assert main(["check", str(domain)]) == 0
    assert main(["check", "--strict", str(domain)]) == 1


def test_track_narrows_the_verdicts(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", "--format", "json", "--track", "ipc2011-learning", "--track", "ipc2008-seq-opt",
          str(HELLO / "domain.pddl")])
    assert set(json.loads(capsys.readouterr().out)["tracks"]) == {"ipc2011-learning", "ipc2008-seq-opt"}


def test_github_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    domain = BAD / "wrong-arity" / "domain.pddl"
    assert main(["check", "--format", "github", str(domain)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert f"::error file={domain},line=6,col=19,title=E206::predicate clear takes 1 argument, but 2 are given" \
        in lines


def test_syntax_errors_of_every_file_are_reported_and_exit_1(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    problem = tmp_path / "p.pddl"
    problem.write_text("(define (problem p) (:domain hello-logistics) (:init (at t1 depot) (:goal (and)))")
    assert main(["check", "--format", "json", str(HELLO / "domain.pddl"), str(problem)]) == 1
    data = json.loads(capsys.readouterr().out)
    errors = [f for f in findings(data) if f["severity"] == "error"]
    assert [f["code"] for f in errors] == ["E107", "E103"]  # the unclosed (:init, and what follows it
    assert {f["file"] for f in errors} == {str(problem)}
    assert data["features"]  # the domain is still checked


def test_unreadable_input_exits_2_without_a_traceback(tmp_path: Path) -> None:
    code, out, err = run(tmp_path / "missing.pddl")
    assert code == 2 and "Traceback" not in out + err and "E001" in out
    binary = tmp_path / "b.pddl"
    binary.write_bytes(b"\x00\x01\x02")
    code, out, err = run(binary)
    assert code == 2 and "E002" in out and "Traceback" not in out + err


def test_usage_errors_exit_2() -> None:
    code, _, err = run()
    assert code == 2 and "DOMAIN" in err
    code, _, err = run("--track", "ipc2099", HELLO / "domain.pddl")
    assert code == 2 and "invalid choice" in err


def test_each_pairs_problems_with_their_domain_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "domain.pddl").write_text((HELLO / "domain.pddl").read_text())
    problem = tmp_path / "tasks" / "p1.pddl"
    problem.write_text((HELLO / "problem.pddl").read_text().replace("(at parcel depot)", "(at parcel nowhere)"))
    # The problem alone is given, as pre-commit gives changed files: its domain is found beside it.
    assert main(["check", "--each", str(problem), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    [report] = data["checks"]
    assert report["files"] == [str(tmp_path / "tasks" / "domain.pddl"), str(problem)]
    assert [f["code"] for f in findings(data) if f["severity"] == "error"] == ["E204"]


def test_the_pre_commit_hook_runs_check_each() -> None:
    hooks = (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text()
    assert "entry: pddltools check --each" in hooks and r"files: \.pddl$" in hooks


def _ferry(folder: Path, problems: int, domain_error: bool = False) -> Path:
    """A folder in the IPC layout: domain.pddl beside instances/ with `problems` instances."""
    (folder / "instances").mkdir(parents=True)
    domain = (HELLO / "domain.pddl").read_text()
    if domain_error:
        domain = domain.replace("(at ?t ?from)", "(at ?t ?from ?from)", 1)
        assert "?from ?from" in domain
    (folder / "domain.pddl").write_text(domain)
    for n in range(1, problems + 1):
        (folder / "instances" / f"instance-{n}.pddl").write_text((HELLO / "problem.pddl").read_text())
    return folder


def test_each_reports_a_domains_findings_once_for_all_its_problems(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = _ferry(tmp_path / "ferry", 3, domain_error=True)
    problems = [str(p) for p in sorted((folder / "instances").glob("*.pddl"))]
    assert main(["check", "--each", *problems, "--format", "github"]) == 1
    annotations = [line for line in capsys.readouterr().out.splitlines() if line.startswith("::error")]
    assert len(annotations) == 1 and f"file={folder / 'domain.pddl'}" in annotations[0]
    assert main(["check", "--each", *problems, "--format", "json"]) == 1
    [report] = json.loads(capsys.readouterr().out)["checks"]
    assert report["files"] == [str(folder / "domain.pddl"), *problems]
    assert report["pairs"] == [{"problem": p, "domain": str(folder / "domain.pddl"),
                                "found_by": "domain.pddl in the folder above"} for p in problems]


def test_each_takes_a_folder_and_names_the_pair_of_each_block(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    _ferry(tmp_path / "a", 2)
    _ferry(tmp_path / "b", 1, domain_error=True)
    assert main(["check", "--each", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "elsewhere" not in out and "is a directory" not in out
    assert f"{tmp_path / 'a' / 'domain.pddl'} with 2 problems: instances/instance-1.pddl, " \
           "instances/instance-2.pddl" in out
    assert f"{tmp_path / 'b' / 'domain.pddl'} with 1 problem: instances/instance-1.pddl" in out
    assert out.count("Tracks") == 2  # one block per domain


def test_each_says_which_domain_is_missing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = tmp_path / "alone" / "p1.pddl"
    problem.parent.mkdir()
    problem.write_text("(define (problem p1) (:domain ferry)\n  (:objects a b) (:init) (:goal (and)))")
    assert main(["check", "--each", str(problem)]) == 1
    out = capsys.readouterr().out
    assert f"{problem}:1:31: error[E300]: no domain `ferry` found for this problem" in out
    assert "expected a domain file" not in out and "--domain FILE" in out
    # --domain says which
    assert main(["check", "--each", str(problem), "--domain", str(HELLO / "domain.pddl"), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    [report] = data["checks"]
    assert report["files"] == [str(HELLO / "domain.pddl"), str(problem)]
    assert [f["code"] for f in findings(data) if f["severity"] == "error"] == ["E301"]
    assert report["pairs"][0]["found_by"] == "given with --domain"


def test_each_warns_when_several_files_declare_the_domain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "one" / "tasks"
    folder.mkdir(parents=True)
    for name in ("logistics.pddl", "logistics-old.pddl"):
        (folder / name).write_text((HELLO / "domain.pddl").read_text())
    (folder / "p.pddl").write_text((HELLO / "problem.pddl").read_text())
    assert main(["check", "--each", str(folder / "p.pddl"), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    warning = next(f for f in findings(data) if f["code"] == "W300")
    assert warning["file"] == str(folder / "p.pddl") and warning["line"] == 2  # at (:domain hello-logistics)
    assert f"checked against {folder / 'logistics-old.pddl'}, not {folder / 'logistics.pddl'}" in warning["message"]


def test_each_with_relative_paths_finds_the_domain_above_and_checks_it_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _ferry(tmp_path / "ferry", 2)
    monkeypatch.chdir(folder / "instances")  # `..` of a bare file name is still found
    assert main(["check", "--each", "instance-1.pddl", "../domain.pddl", "instance-2.pddl", "--format", "json"]) == 0
    [report] = json.loads(capsys.readouterr().out)["checks"]
    assert report["files"] == ["../domain.pddl", "instance-1.pddl", "instance-2.pddl"]


def test_each_prints_features_and_tracks_in_two_lines_and_verbose_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    """A pre-commit hook over many domains: each block is its findings and two lines, not a track table."""
    assert main(["check", "--each", str(HELLO)]) == 0
    compact = capsys.readouterr().out
    tracks = [line for line in compact.splitlines() if line.startswith("Tracks: fits ")]
    assert len(tracks) == 1 and "ipc2011-learning compilable" in tracks[0]
    assert "Features: typing, action-costs" in compact and "ipc2008-seq-sat" not in compact
    assert main(["check", "--each", str(HELLO), "--verbose"]) == 0
    full = capsys.readouterr().out
    assert "ipc2008-seq-sat" in full and "first at" in full and len(full.splitlines()) > 3 * len(compact.splitlines())
