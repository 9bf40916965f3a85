"""benchmarks/rddl_parse.py still runs: pddltools alone, on the two files of corpus/rddl/split."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

from .conftest import OWN_CORPUS, REPO


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rddl_parse", REPO / "benchmarks" / "rddl_parse.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_pairs_domains_with_instances() -> None:
    pairs = _load().collection(OWN_CORPUS / "split")
    assert pairs == [(str(OWN_CORPUS / "split" / "domain.rddl"), str(OWN_CORPUS / "split" / "instance.rddl"))]


def test_the_benchmark_measures_pddltools_in_a_child(capsys: pytest.CaptureFixture[str]) -> None:
    assert _load().main(["--tools", "pddltools", "--root", str(OWN_CORPUS / "split")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1 domain/instance pairs in ")
    assert any(line.split()[:3] == ["pddltools", "1", "0"] for line in out.splitlines())
