"""Compiling a PDDL+ task: a pass that would run refuses, naming itself and a process or event; a task no
pass touches keeps its processes and events (issue 18: they must never be dropped silently)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.pddl.parser import parse_domain_file

FEATURE = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "features" / "processes_events"
TASK = [str(FEATURE / "domain.pddl"), str(FEATURE / "problem.pddl")]


def test_a_pass_that_would_run_stops_at_the_first_process(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", *TASK, "--remove", "typing", "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "domain.pddl:12:3: error[E801]: the typing pass cannot handle PDDL+ processes and events" in err
    assert "process filling" in err
    assert not (tmp_path / "out" / "domain.pddl").exists()


def test_strict_targets_refuse_processes_and_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", *TASK, "--target", "typed-strips", "-o", str(tmp_path / "out")]) == 1
    assert "processes, events" in capsys.readouterr().err


def test_processes_and_events_pass_through_when_no_pass_runs(tmp_path: Path) -> None:
    assert main(["compile", *TASK, "--remove", "conditional-effects", "-o", str(tmp_path)]) == 0
    original, compiled = parse_domain_file(TASK[0]), parse_domain_file(tmp_path / "domain.pddl")
    assert compiled.processes == original.processes and compiled.events == original.events
    assert ":time" in {r.name for r in compiled.requirements}
