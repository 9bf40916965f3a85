"""Every command's `--format json` output on the bundled corpus (`corpus/`) validates against the JSON
Schema it publishes (`pddltools schema COMMAND`), and the schemas ship in the package."""

from __future__ import annotations

import csv
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pddltools import __version__
from pddltools.cli import main
from pddltools.schemas import COMMANDS, schema

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
PLANS = CORPUS / "plans"


def output(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    return code, json.loads(capsys.readouterr().out)


def conforms(command: str, data: Any) -> None:
    jsonschema.validate(data, schema(command), cls=jsonschema.Draft202012Validator)


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for command in COMMANDS:
        jsonschema.Draft202012Validator.check_schema(schema(command))


def test_schema_command_prints_each_schema_and_lists_them(capsys: pytest.CaptureFixture[str]) -> None:
    for command in COMMANDS:
        code, printed = output(capsys, "schema", *command.split())
        assert code == 0 and printed == schema(command)
    assert main(["schema"]) == 0
    assert capsys.readouterr().out.split("\n")[:-1] == list(COMMANDS)
    assert main(["schema", "nothing"]) == 2
    assert "rddl check" in capsys.readouterr().err


def test_a_schema_rejects_what_does_not_follow_it() -> None:
    good = {"tool": "pddltools", "version": __version__, "command": "parse", "summary": {
        "files": 1, "parsed": 1, "failed": 0, "seconds": 0.1}, "files": [
        {"path": "d.pddl", "kind": "domain", "ok": True, "diagnostics": [], "name": "d", "counts": {}}]}
    conforms("parse", good)
    for broken in ({**good, "tool": "val"}, {**good, "command": "check"},
                   {**good, "files": [{**good["files"][0], "diagnostics": [{"code": "E1"}]}]}):
        with pytest.raises(jsonschema.ValidationError):
            conforms("parse", broken)


@pytest.mark.parametrize("folder", ["pddl", "compile", "plans", "interop", "lsp"])
def test_parse(capsys: pytest.CaptureFixture[str], folder: str) -> None:
    _, data = output(capsys, "parse", str(CORPUS / folder), "--format", "json")
    conforms("parse", data)
    assert data["summary"]["files"] == len(data["files"]) > 0


def test_check_each_over_the_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    _, data = output(capsys, "check", "--each", str(CORPUS / "pddl"), str(CORPUS / "compile"), "--format", "json")
    conforms("check", data)
    assert any(not f["ok"] for f in data["files"]) and any(f["ok"] for f in data["files"])


def test_check_of_each_task(capsys: pytest.CaptureFixture[str]) -> None:
    for domain in sorted(CORPUS.glob("compile/*-domain.pddl")):
        _, data = output(capsys, "check", str(domain), str(domain).replace("-domain", "-problem"), "--format", "json")
        conforms("check", data)
        assert [f["kind"] for f in data["files"]] == ["domain", "problem"]


def tasks() -> Iterator[tuple[str, str, list[str]]]:
    """The plans of the corpus's manifest, by task."""
    grouped: dict[tuple[str, str], list[str]] = {}
    with (PLANS / "manifest.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            grouped.setdefault((row["domain"], row["problem"]), []).append(row["plan"])
    for (domain, problem), plans in grouped.items():
        yield str(PLANS / domain), str(PLANS / problem), [str(PLANS / p) for p in plans]


def test_validate_every_plan_of_the_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    verdicts = set()
    for domain, problem, plans in tasks():
        _, data = output(capsys, "validate", domain, problem, *plans, "--format", "json")
        conforms("validate", data)
        verdicts |= {f["verdict"] for f in data["files"] if f["kind"] == "plan"}
    assert verdicts == {"valid", "invalid", "error"}


def test_validate_trace_and_a_task_that_does_not_load(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    domain, problem, plans = next(tasks())
    _, data = output(capsys, "validate", domain, problem, plans[0], "--trace", "--format", "json")
    conforms("validate", data)
    assert "trace" in data["files"][2]
    broken = tmp_path / "domain.pddl"
    broken.write_text("(define (domain d) (:action a :parameters x))\n")
    code, data = output(capsys, "validate", str(broken), problem, plans[0], "--format", "json")
    conforms("validate", data)
    assert code == 1 and data["task_loaded"] is False and not data["files"][0]["ok"]  # a syntax error: a finding


def test_validate_batch_lines(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rows = [(domain, problem, plan) for domain, problem, plans in tasks() for plan in plans]
    listing = tmp_path / "batch.tsv"
    listing.write_text("".join("\t".join(row) + "\n" for row in rows) + "only\ttwo\n", encoding="utf-8")
    main(["validate", "--batch", str(listing), "--format", "json"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(rows) + 1
    for line in lines:
        conforms("validate-batch", json.loads(line))
    main(["validate", "--batch", str(tmp_path / "missing.tsv"), "--format", "json"])
    conforms("validate-batch", json.loads(capsys.readouterr().out))


def test_compile_and_unmap(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for domain in sorted(CORPUS.glob("compile/*-domain.pddl")):
        out = tmp_path / domain.stem
        _, data = output(capsys, "compile", str(domain), str(domain).replace("-domain", "-problem"),
                         "--target", "strips", "-o", str(out), "--format", "json")
        conforms("compile", data)
    (tmp_path / "plan").write_text("(drive a b)\n(drive b c)\n")
    code, data = output(capsys, "unmap", str(tmp_path / "costs-domain"), str(tmp_path / "plan"), "--format", "json")
    conforms("unmap", data)
    assert code == 0 and data["valid"] is True
    (tmp_path / "plan").write_text("(fly a b)\n")
    code, data = output(capsys, "unmap", str(tmp_path / "costs-domain"), str(tmp_path / "plan"), "--format", "json")
    conforms("unmap", data)
    assert code == 1 and not all(f["ok"] for f in data["files"])


def test_fmt(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in sorted((CORPUS / "pddl").rglob("*.pddl"))]
    for mode in ((), ("--check",)):
        _, data = output(capsys, "fmt", *files, *mode, "--format", "json")
        conforms("fmt", data)
        assert data["summary"]["failed"] == sum(1 for f in data["files"] if not f["ok"]) > 0


def test_view(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    domain, problem, plans = next(tasks())
    _, data = output(capsys, "view", domain, problem, plans[0], "-o", str(tmp_path / "p.html"), "--format", "json")
    conforms("view", data)
    assert data["output"] == str(tmp_path / "p.html")


@pytest.mark.parametrize("command", ["parse", "check"])
def test_rddl_parse_and_check(capsys: pytest.CaptureFixture[str], command: str) -> None:
    _, data = output(capsys, "rddl", command, str(CORPUS / "rddl"), "--format", "json")
    conforms(f"rddl {command}", data)
    assert any(not f["ok"] for f in data["files"]) and any(f["ok"] for f in data["files"])
    _, data = output(capsys, "rddl", command, str(CORPUS / "nowhere"), "--format", "json")
    conforms(f"rddl {command}", data)


def test_rddl_fmt(capsys: pytest.CaptureFixture[str]) -> None:
    for path in sorted((CORPUS / "rddl").rglob("*.rddl"))[:12]:
        for mode in ((), ("--check",)):
            _, data = output(capsys, "rddl", "fmt", str(path), *mode, "--format", "json")
            conforms("rddl fmt", data)
    _, data = output(capsys, "rddl", "fmt", str(CORPUS / "rddl"), "--format", "json")
    conforms("rddl fmt", data)


def test_score_and_select(capsys: pytest.CaptureFixture[str]) -> None:
    results = CORPUS / "score" / "results" / "line.jsonl"
    for rules in ("ipc2008-sat", "ipc2008-opt", "ipc2011-time"):
        _, data = output(capsys, "score", str(results), "--rules", rules, "--format", "json")
        conforms("score", data)
        assert set(data["planners"]) == {"A", "B"}
    _, data = output(capsys, "select", str(results), "--size", "4", "--min-solved", "2", "--format", "json")
    conforms("select", data)
    assert data["summary"]["domains"] == len(data["domains"]) == 1


def test_rddl_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    counters = CORPUS / "rddl" / "rddlsim" / "counters.rddl"
    code, data = output(capsys, "rddl", "simulate", str(counters), "--rounds", "2", "--format", "json")
    conforms("rddl simulate", data)
    assert code == 0 and [f["path"] for f in data["files"]] == [str(counters)] and len(data["rewards"]) == 2
    code, data = output(capsys, "rddl", "simulate", str(counters), "--policy", "nonsense", "--format", "json")
    conforms("rddl simulate", data)
    assert code == 2 and data["files"][-1]["path"] is None and data["files"][-1]["diagnostics"][0]["code"] == "R340"
    broken = CORPUS / "rddl" / "errors" / "missing_semicolon.rddl"
    code, data = output(capsys, "rddl", "simulate", str(broken), "--format", "json")
    conforms("rddl simulate", data)
    assert code != 0 and data["files"][0]["path"] == str(broken) and not data["files"][0]["ok"]
    assert "rewards" not in data


def test_rddl_serve_client_and_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "results.jsonl"
    folder = tmp_path / "served"
    folder.mkdir()
    (folder / "counters.rddl").write_bytes((CORPUS / "rddl" / "rddlsim" / "counters.rddl").read_bytes())
    (folder / "broken.rddl").write_text("domain broken {\n")
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from pddltools.cli import main; sys.exit(main())", "rddl", "serve",
         str(folder), "--port", "0", "--rounds", "2", "--log", str(log), "--format", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        hello = json.loads(server.stdout.readline())
        conforms("rddl serve", hello)
        assert hello["instances"] == ["counters_inst"]
        assert {f["path"]: f["ok"] for f in hello["files"]} == {str(folder / "broken.rddl"): False,
                                                                str(folder / "counters.rddl"): True}
        code, played = output(capsys, "rddl", "client", "127.0.0.1", str(hello["port"]), "counters_inst",
                              "--format", "json")
        conforms("rddl client", played)
        assert code == 0 and played["files"] == [] and played["complete"] is True
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(20)
    code, scored = output(capsys, "rddl", "score", str(log), "--baseline-rounds", "2", "--format", "json")
    conforms("rddl score", scored)  # the random baseline is run on the folder the log names: broken.rddl too
    assert code == 1 and {f["path"] for f in scored["files"]} == {str(log), str(folder / "broken.rddl")}
    code, scored = output(capsys, "rddl", "score", str(log), "--baseline-rounds", "2", "--rddl",
                          str(folder / "counters.rddl"), "--format", "json")
    conforms("rddl score", scored)
    assert code == 0
    assert scored["files"][0]["path"] == str(log) and scored["clients"][0]["client"] == "pddltools"
    code, data = output(capsys, "rddl", "score", str(tmp_path / "missing.jsonl"), "--format", "json")
    conforms("rddl score", data)
    assert code == 2 and data["files"][0]["diagnostics"][0]["code"] == "E001"
    code, data = output(capsys, "rddl", "client", "127.0.0.1", str(hello["port"]), "counters_inst", "--format", "json")
    conforms("rddl client", data)  # the server is gone: E003 in an entry without a path
    assert code == 2 and data["files"][0]["diagnostics"][0]["code"] == "E003"


def test_learn_and_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    planners = CORPUS / "score" / "planners"
    line = CORPUS / "score" / "line"
    code, data = output(
        capsys, "learn", str(line / "domain.pddl"), "--planner", "knowing",
        "--learner", f"{sys.executable} {planners / 'learn_line.py'} {{domain}} {{training}} {{dck}}",
        "--generator", f"{sys.executable} {planners / 'gen_line.py'} {{seed}} {{problem}}", "--seeds", "1-2",
        "--out", str(tmp_path / "learning"), "--db", str(tmp_path / "r.sqlite"), "--reproduce", "0",
        "--wall", "20", "--memory", "500", "--format", "json")
    conforms("learn", data)
    assert code == 0 and data["files"][0]["kind"] == "domain" and data["training_problems"] == 2
    report = tmp_path / "r.html"
    code, data = output(capsys, "report", str(CORPUS / "score" / "results" / "line.jsonl"), "--no-validate",
                        "-o", str(report), "--format", "json")
    conforms("report", data)
    assert code == 0 and data["output"] == str(report) and data["runs"] == data["summary"]["runs"] > 0


def test_explain(capsys: pytest.CaptureFixture[str]) -> None:
    _, entry = output(capsys, "explain", "R106", "--format", "json")
    conforms("explain", entry)
    assert entry["files"] == [] and entry["code"] == "R106"
    _, listed = output(capsys, "explain", "--format", "json")
    conforms("explain", listed)
    assert len(listed["codes"]) == listed["summary"]["codes"] > 100
    with pytest.raises(jsonschema.ValidationError):
        conforms("explain", {**entry, "codes": listed["codes"]})  # one entry or the list, not both
