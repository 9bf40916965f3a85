"""`pddltools rddl simulate|serve|client|score` end to end: output, JSON fields, exit codes."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pddltools.cli import main

from .conftest import CORPUS, OWN, REPO

SYSADMIN = CORPUS / "ippc-2011" / "sysadmin_mdp.rddl"
SYSADMIN_1 = CORPUS / "ippc-2011" / "sysadmin_inst_mdp__1.rddl"
COUNTERS = OWN / "counters.rddl"


def test_simulate_prints_rounds_mean_and_std(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rddl", "simulate", str(SYSADMIN), str(SYSADMIN_1), "--rounds", "4", "--policy", "noop"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:4]] == [f"round {n:>3}" for n in range(1, 5)]
    assert lines[4].startswith("sysadmin_inst_mdp__1: mean ") and "over 4 rounds (policy noop, seed 0" in lines[4]


def test_simulate_json_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    runs = []
    for _ in range(2):
        assert main(["rddl", "simulate", str(COUNTERS), str(COUNTERS), "--rounds", "5", "--seed", "3",
                     "--format", "json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    first = runs[0]
    assert {"instance", "policy", "rounds", "mean", "std", "rewards", "domain", "seed", "horizon"} <= set(first)
    assert first["instance"] == "counters_inst" and first["policy"] == "random" and first["rounds"] == 5
    assert len(first["rewards"]) == 5 and first["mean"] == pytest.approx(sum(first["rewards"]) / 5)
    assert runs[0] == runs[1]


def test_simulate_loads_a_policy_class(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "always_c1.py").write_text(
        "class RebootC1:\n"
        "    def __init__(self, space, seed):\n"
        "        self.space = space\n"
        "    def reset(self):\n"
        "        pass\n"
        "    def act(self, observation):\n"
        "        return {('reboot', ('c1',)): True}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert main(["rddl", "simulate", str(SYSADMIN), str(SYSADMIN_1), "--rounds", "2", "--policy",
                 "always_c1:RebootC1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["policy"] == "always_c1:RebootC1"


@pytest.mark.parametrize(("args", "code"), [
    (["--policy", "nonsense"], "R340"),
    (["--policy", "no_such_module:Policy"], "R340"),
])
def test_simulate_usage_errors(args: list[str], code: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rddl", "simulate", str(SYSADMIN), str(SYSADMIN_1), "--format", "json", *args]) == 2
    found = [d for f in json.loads(capsys.readouterr().out)["files"] for d in f["diagnostics"]]
    assert found[0]["code"] == code


def test_simulate_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["rddl", "simulate", str(tmp_path / "none.rddl"), str(SYSADMIN_1)]) == 2


def test_serve_client_score_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "results.jsonl"
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pddltools.cli import main; sys.exit(main())", "rddl", "serve",
         str(CORPUS / "ippc-2011"), "--port", "0", "--rounds", "2", "--log", str(log), "--format", "json"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        hello = json.loads(server.stdout.readline())
        assert hello["host"] == "127.0.0.1" and "sysadmin_inst_mdp__1" in hello["instances"]
        port = str(hello["port"])
        assert main(["rddl", "client", "127.0.0.1", port, "sysadmin_inst_mdp__1", "--policy", "random",
                     "--name", "planner", "--format", "json"]) == 0
        played = json.loads(capsys.readouterr().out)
        assert played["complete"] and played["rounds_used"] == 2 and played["client"] == "planner"
        assert main(["rddl", "client", "127.0.0.1", port, "sysadmin_inst_mdp__1", "--policy", "noop",
                     "--name", "noop"]) == 0
        assert "2 rounds, total reward" in capsys.readouterr().out
        assert main(["rddl", "client", "127.0.0.1", port, "no_such_instance"]) == 1
        capsys.readouterr()
    finally:
        server.send_signal(signal.SIGTERM)
        _, errors = server.communicate(timeout=20)
    assert server.returncode == 0
    assert "unknown instance 'no_such_instance'" in errors
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["event"] for r in records].count("round-end") == 4
    # the noop baseline comes from the log, the random one is run here from the folder the log names
    assert main(["rddl", "score", str(log), "--baseline-rounds", "5", "--format", "json"]) == 0
    scored = json.loads(capsys.readouterr().out)
    (planner,) = scored["clients"]
    assert planner["client"] == "planner" and set(planner) == {"client", "instances", "domains", "overall"}
    (row,) = planner["instances"]
    assert set(row) == {"instance", "domain", "mean", "rounds", "base", "best", "score"}
    assert 0.0 <= row["score"] <= 1.0 and planner["overall"] == row["score"]
    baseline = scored["baselines"]["sysadmin_inst_mdp__1"]
    assert baseline["noop_source"] == "log" and baseline["random_source"] == "simulated"
    assert main(["rddl", "score", str(log), "--baseline-rounds", "5"]) == 0
    assert "overall score" in capsys.readouterr().out


def test_score_formula(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "log.jsonl"
    rows = [("random", 10.0), ("noop", 20.0), ("a", 60.0), ("b", 40.0), ("c", 0.0)]
    log.write_text("".join(json.dumps({"event": "round-end", "client": c, "instance": "i1", "domain": "d",
                                       "reward": r}) + "\n" for c, r in rows))
    assert main(["rddl", "score", str(log), "--format", "json"]) == 0
    scores = {c["client"]: c["overall"] for c in json.loads(capsys.readouterr().out)["clients"]}
    assert scores == {"a": 1.0, "b": 0.5, "c": 0.0}


@pytest.mark.parametrize("content", [None, "not json\n", ""])
def test_score_bad_logs(content: str | None, tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    if content is not None:
        log.write_text(content)
    assert main(["rddl", "score", str(log), "--rddl"]) == 2


def test_a_killed_server_loses_no_finished_round(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "results.jsonl"
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pddltools.cli import main; sys.exit(main())", "rddl", "serve",
         str(CORPUS / "ippc-2014"), "--port", "0", "--rounds", "3", "--log", str(log), "--format", "json"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        port = str(json.loads(server.stdout.readline())["port"])
        assert main(["rddl", "client", "127.0.0.1", port, "wildfire_inst_mdp__1", "--format", "json"]) == 0
        told = json.loads(capsys.readouterr().out)
    finally:
        server.kill()  # SIGKILL: no chance to flush anything now
        server.wait(10)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["reward"] for r in records if r["event"] == "round-end"] == [r["reward"] for r in told["rounds"]]
    assert [r["total_reward"] for r in records if r["event"] == "session-end"] == [told["total_reward"]]


def test_a_bad_probability_is_located_and_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    model = CORPUS / "examples" / "sysadmin_complex.rddl"
    assert main(["rddl", "simulate", str(model), str(model), "--rounds", "1", "--format", "json"]) == 1
    (found,) = [d for f in json.loads(capsys.readouterr().out)["files"] for d in f["diagnostics"]]
    assert found["code"] == "R320" and found["message"].startswith("computing net-status-enum: Discrete")


def test_serve_leaves_out_what_it_cannot_parse_or_simulate(tmp_path: Path) -> None:
    for name in ("sysadmin_mdp.rddl", "sysadmin_inst_mdp__1.rddl"):
        (tmp_path / name).write_bytes((CORPUS / "ippc-2011" / name).read_bytes())
    (tmp_path / "broken.rddl").write_text("domain broken {\n")
    (tmp_path / "no_cpf.rddl").write_text(
        "domain no_cpf { pvariables { s : { state-fluent, bool, default = false }; }; reward = 0; }\n"
        "instance no_cpf_inst { domain = no_cpf; horizon = 2; }\n")
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pddltools.cli import main; sys.exit(main())", "rddl", "serve",
         str(tmp_path), "--port", "0", "--log", str(tmp_path / "log.jsonl"), "--format", "json"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        hello = json.loads(server.stdout.readline())
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
    assert hello["instances"] == ["sysadmin_inst_mdp__1"]
    broken, no_cpf = hello["skipped"]
    assert broken["file"] == str(tmp_path / "broken.rddl")
    assert no_cpf["code"] == "R314" and no_cpf["message"].startswith("instance no_cpf_inst is not served")
    assert server.returncode == 0
