"""benchmarks/rddl_server.py still runs: one client, one round, and the simulator part on one instance."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from .conftest import REPO


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rddl_server", REPO / "benchmarks" / "rddl_server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.corpus
def test_the_benchmark_measures_turns_and_steps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyRDDLGym")
    module = _load()
    module.SIMULATOR_INSTANCES = module.SIMULATOR_INSTANCES[:1]
    out = tmp_path / "numbers.json"
    assert module.main(["--clients", "1", "--rounds", "1", "--sim-rounds", "1", "--json", str(out)]) == 0
    numbers = json.loads(out.read_text())
    (server,) = numbers["server"]
    assert server["clients"] == 1 and server["turns"] == 40 and server["turns_per_second"] > 0
    (simulator,) = numbers["simulator"]
    assert simulator["instance"] == "sysadmin_inst_mdp__1" and simulator["ratio"] > 0
    assert "turns/s" in capsys.readouterr().out
