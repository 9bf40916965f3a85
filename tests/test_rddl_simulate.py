"""`pddltools rddl simulate FILE`: one file holding the domain and its instance needs no second name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pddltools.cli import main

COUNTERS = Path(__file__).resolve().parent.parent / "corpus" / "rddl" / "rddlsim" / "counters.rddl"


def test_simulate_takes_one_file_that_holds_domain_and_instance(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rddl", "simulate", str(COUNTERS), "--rounds", "3", "--seed", "1", "--format", "json"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["instance"] == "counters_inst" and len(alone["rewards"]) == 3
    assert main(["rddl", "simulate", str(COUNTERS), str(COUNTERS), "--rounds", "3", "--seed", "1",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == alone  # the same run as naming the file twice


def test_simulate_a_domain_alone_says_there_is_no_instance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = COUNTERS.read_text(encoding="utf-8")
    domain_only = tmp_path / "domain.rddl"
    domain_only.write_text(text[:text.index("non-fluents counters_nf")])
    assert main(["rddl", "simulate", str(domain_only)]) == 2
    assert "no instance" in capsys.readouterr().err
