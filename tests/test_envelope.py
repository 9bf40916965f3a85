"""A script written against the envelope: it knows only `tool`, `version`, `command`, `files[]` (`path`,
`kind`, `ok`, `diagnostics[]`) and `summary`, and reads parse, check, validate, rddl parse, rddl check,
compile and fmt alike (and rddl simulate, rddl score and explain), run as a user's script runs them (a
subprocess, its output through a pipe)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from pddltools import __version__
from pddltools.exit_codes import ExitCode

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


def failing_files(output: str) -> dict[str, list[str]]:
    """What a CI job wants from any pddltools command: each file that is not ok, with its error codes."""
    data: dict[str, Any] = json.loads(output)
    assert data["tool"] == "pddltools" and data["version"] == __version__
    assert isinstance(data["summary"], dict) and data["summary"]["files"] == len(data["files"])
    return {f["path"]: [d["code"] for d in f["diagnostics"] if d["severity"] == "error"]
            for f in data["files"] if not f["ok"]}


def pddltools(*argv: str | Path, cwd: Path = ROOT) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "pddltools.cli", *map(str, argv), "--format", "json"], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout


def test_one_script_reads_every_command(tmp_path: Path) -> None:
    bad_pddl = tmp_path / "bad.pddl"
    bad_pddl.write_text("(define (domain x)\n  (:action a :parameters x))\n")
    bad_rddl = CORPUS / "rddl" / "errors" / "missing_semicolon.rddl"
    adl = CORPUS / "plans" / "adl"
    compile_in = [CORPUS / "compile" / "unstratified-domain.pddl", CORPUS / "compile" / "unstratified-problem.pddl"]
    runs = {
        "parse": pddltools("parse", bad_pddl, CORPUS / "compile" / "costs-domain.pddl"),
        "check": pddltools("check", bad_pddl),
        "validate": pddltools("validate", adl / "domain.pddl", adl / "problem.pddl", adl / "valid.plan",
                              adl / "not-open.plan"),
        "rddl parse": pddltools("rddl", "parse", bad_rddl),
        "rddl check": pddltools("rddl", "check", bad_rddl),
        "compile": pddltools("compile", *compile_in, "--target", "strips", "-o", tmp_path / "out"),
        "fmt": pddltools("fmt", bad_pddl, CORPUS / "compile" / "costs-domain.pddl"),
    }
    for name, (code, output) in runs.items():
        assert json.loads(output)["command"] == name
        assert code == ExitCode.FINDINGS, name
        failing = failing_files(output)
        assert failing and all(codes for path, codes in failing.items() if path != str(adl / "not-open.plan")), name
    assert failing_files(runs["parse"][1]) == {str(bad_pddl): ["E103"]}
    assert failing_files(runs["fmt"][1]) == {str(bad_pddl): ["E103"]}
    assert list(failing_files(runs["validate"][1])) == [str(adl / "not-open.plan")]
    assert failing_files(runs["rddl check"][1]).keys() == {str(bad_rddl)}


def test_the_same_script_reads_the_simulator_the_scorer_and_explain(tmp_path: Path) -> None:
    bad_rddl = CORPUS / "rddl" / "errors" / "missing_semicolon.rddl"
    code, output = pddltools("rddl", "simulate", bad_rddl)
    assert code != ExitCode.OK and list(failing_files(output)) == [str(bad_rddl)]
    code, output = pddltools("rddl", "score", tmp_path / "missing.jsonl")
    assert code == ExitCode.USAGE and failing_files(output) == {str(tmp_path / "missing.jsonl"): ["E001"]}
    code, output = pddltools("explain", "R106")
    assert code == ExitCode.OK and failing_files(output) == {} and json.loads(output)["command"] == "explain"


def test_every_command_exits_with_the_enum(tmp_path: Path) -> None:
    """Usage or unreadable input is 2 for every command, findings 1, all well 0."""
    missing = tmp_path / "missing.pddl"
    adl = CORPUS / "plans" / "adl"
    assert pddltools("parse", missing)[0] == ExitCode.USAGE
    assert pddltools("check", missing)[0] == ExitCode.USAGE
    assert pddltools("validate", missing, adl / "problem.pddl", adl / "valid.plan")[0] == ExitCode.USAGE
    assert pddltools("fmt", missing)[0] == ExitCode.USAGE
    assert pddltools("rddl", "parse", tmp_path / "missing.rddl")[0] == ExitCode.USAGE
    assert pddltools("validate", adl / "domain.pddl", adl / "problem.pddl", adl / "valid.plan")[0] == ExitCode.OK
    assert pddltools("fmt", CORPUS / "compile" / "costs-domain.pddl")[0] == ExitCode.OK


def test_exit_statuses_are_named_once() -> None:
    """No command module defines its own exit-code numbers or returns a bare status: they use ExitCode."""
    defined = re.compile(r"^\s*(OK|FINDINGS|USAGE|FAILED)(, \w+)* = ", re.M)  # numbers or aliases of the enum
    bare = re.compile(r"^\s*return [0-9]+\s*$", re.M)
    commands = [ROOT / "pddltools" / "cli.py", ROOT / "pddltools" / "explain.py",
                *(ROOT / "pddltools").glob("*/cli.py"), ROOT / "pddltools" / "schemas" / "__init__.py"]
    for path in commands:
        text = path.read_text(encoding="utf-8")
        assert not defined.search(text), path
        assert not bare.search(text), path
    assert [int(code) for code in ExitCode][:4] == [0, 1, 2, 130]
    assert {ExitCode.HANGUP, ExitCode.TERMINATED} == {129, 143}
