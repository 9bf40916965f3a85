"""What `run` reads (folders, --domain, --batch lists, problems without a domain), what it refuses (replacing
stored runs), and its JSON fed unchanged to `score`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.schemas import schema
from pddltools.score.store import Store

CORPUS = Path(__file__).resolve().parents[2] / "corpus" / "score"
LINE = CORPUS / "line"
WALKER = f"walker={sys.executable} {CORPUS / 'planners' / 'walker.py'} {{problem}} {{plan}}"


def run(capsys: pytest.CaptureFixture[str], tmp: Path, *args: str) -> tuple[int, str, str]:
    code = main(["run", *args, "--planner", WALKER, "--db", str(tmp / "r.sqlite"), "--workdir", str(tmp / "runs"),
                 "--wall", "30", "--jobs", "2", "--no-validate"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def line_copy(tmp: Path, problems: tuple[int, ...]) -> Path:
    """The line domain in the IPC layout: domain.pddl beside instances/."""
    folder = tmp / "line"
    (folder / "instances").mkdir(parents=True)
    shutil.copy(LINE / "domain.pddl", folder / "domain.pddl")
    for n in problems:
        shutil.copy(LINE / f"line-0{n}.pddl", folder / "instances" / f"line-0{n}.pddl")
    return folder


def test_run_json_is_scored_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = line_copy(tmp_path, (1, 2, 3))
    code = main(["run", str(folder), "--planner", WALKER, "--db", str(tmp_path / "r.sqlite"),
                 "--workdir", str(tmp_path / "runs"), "--wall", "30", "--jobs", "2", "--format", "json"])
    output = capsys.readouterr().out
    assert code == 0
    ran = json.loads(output)
    jsonschema.validate(ran, schema("run"), cls=jsonschema.Draft202012Validator)  # the envelope and run's fields
    assert [Path(f["path"]).name for f in ran["files"]] == ["line-01.pddl", "line-02.pddl", "line-03.pddl"]
    assert [r["domain"] for r in ran["runs"]] == ["line"] * 3
    assert {r["domain_path"] for r in ran["runs"]} == {str((folder / "domain.pddl").resolve())}
    (tmp_path / "run.json").write_text(output)  # as `pddltools run ... --format json > run.json` leaves it
    assert main(["score", str(tmp_path / "run.json"), "--rules", "ipc2008-sat", "--format", "json"]) == 0
    from_json = json.loads(capsys.readouterr().out)
    assert main(["score", str(tmp_path / "r.sqlite"), "--rules", "ipc2008-sat", "--format", "json"]) == 0
    from_db = json.loads(capsys.readouterr().out)
    assert {**from_json, "files": None} == {**from_db, "files": None}  # the scores; the files read differ
    assert from_json["planners"]["walker"]["solved"] == 3 and from_json["domains"] == ["line"]


def test_run_piped_into_score(tmp_path: Path) -> None:
    """`pddltools run ... --format json | pddltools score - ...`, two processes and a pipe."""
    folder = line_copy(tmp_path, (1, 2))
    command = [sys.executable, "-m", "pddltools.cli"]
    runner = subprocess.Popen([*command, "run", str(folder), "--planner", WALKER, "--db", str(tmp_path / "r.sqlite"),
                               "--workdir", str(tmp_path / "runs"), "--wall", "30", "--no-validate",
                               "--format", "json"], stdout=subprocess.PIPE)
    scorer = subprocess.run([*command, "score", "-", "--rules", "ipc2008-sat", "--no-validate", "--format", "csv"],
                            stdin=runner.stdout, capture_output=True, text=True, timeout=120)
    assert runner.stdout is not None
    runner.stdout.close()
    assert runner.wait(timeout=120) == 0 and scorer.returncode == 0, scorer.stderr
    assert scorer.stdout.splitlines() == ["rank,planner,total,solved,line", "1,walker,2.0000,2,2.0000"]


def test_a_problem_without_a_domain_is_reported_and_the_rest_run(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = line_copy(tmp_path, (1, 2))
    # (deep enough that line/domain.pddl is not in a folder beside theirs, where it would be found by name)
    stray = tmp_path / "stray" / "deep" / "lonely.pddl"
    stray.parent.mkdir(parents=True)
    stray.write_text((LINE / "line-03.pddl").read_text())
    other = tmp_path / "other" / "deep" / "lonely-too.pddl"
    other.parent.mkdir(parents=True)
    other.write_text((LINE / "line-04.pddl").read_text())
    code, _, err = run(capsys, tmp_path, str(stray), str(folder), str(other), str(tmp_path / "missing"))
    assert code == 1
    assert f"{stray}: no domain `line` found for this problem" in err
    assert f"{other}: no domain `line` found for this problem" in err
    assert f"no such file or folder: {tmp_path / 'missing'}" in err
    assert "3 problems not run" in err
    with Store.open(tmp_path / "r.sqlite") as store:
        assert sorted(r.problem for r in store.runs()) == ["line-01", "line-02"]


def test_domain_forces_the_domain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stray = tmp_path / "p" / "line-05.pddl"
    stray.parent.mkdir()
    stray.write_text((LINE / "line-05.pddl").read_text())
    code, _, _ = run(capsys, tmp_path, str(stray), "--domain", str(LINE / "domain.pddl"))
    assert code == 0
    with Store.open(tmp_path / "r.sqlite") as store:
        [stored] = store.runs()
    assert stored.domain_path == str((LINE / "domain.pddl").resolve()) and stored.status == "solved"


def test_a_batch_list_like_validates(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(LINE.parent)
    batch = tmp_path / "pairs.tsv"
    batch.write_text("# domain\tproblem\tplan\n"
                     "line/domain.pddl\tline/line-01.pddl\tline/line-01.plan\n"
                     "line/domain.pddl\tline/line-02.pddl\n"
                     "\n"
                     "line/domain.pddl line/line-03.pddl\n"
                     "line/domain.pddl\tline/line-99.pddl\n")
    code, _, err = run(capsys, tmp_path, "--batch", str(batch))
    assert code == 1
    assert f"{batch}:5:1: error[S023]: expected domain<TAB>problem" in err
    assert f"{batch}:6:18: error[S021]: no such problem file: line/line-99.pddl" in err
    with Store.open(tmp_path / "r.sqlite") as store:
        assert sorted(r.problem for r in store.runs()) == ["line-01", "line-02"]


def test_stored_runs_are_not_replaced_without_resume_or_overwrite(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = line_copy(tmp_path, (1, 2))
    assert run(capsys, tmp_path, str(folder))[0] == 0
    with Store.open(tmp_path / "r.sqlite") as store:
        first = {r.problem: r.finished_at for r in store.runs()}
    code, _, err = run(capsys, tmp_path, str(folder))
    assert code == 2
    assert "2 of these runs are already in" in err and "--resume" in err and "--overwrite" in err
    with Store.open(tmp_path / "r.sqlite") as store:
        assert {r.problem: r.finished_at for r in store.runs()} == first  # untouched
    code, out, _ = run(capsys, tmp_path, str(folder), "--resume")
    assert code == 0 and "0 runs into" in out and "2 already there" in out
    code, out, _ = run(capsys, tmp_path, str(folder), "--overwrite")
    assert code == 0 and "2 runs into" in out
    with Store.open(tmp_path / "r.sqlite") as store:
        again = {r.problem: r.finished_at for r in store.runs()}
    assert again.keys() == first.keys() and all(again[k] > first[k] for k in first)


def test_score_names_a_missing_plan_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "runs.jsonl"
    results.write_text(json.dumps({"planner": "A", "domain": str(LINE / "domain.pddl"),
                                   "problem": str(LINE / "line-01.pddl"), "plan": "nowhere/line-01.plan",
                                   "time": 1.0, "status": "solved", "config": "baseline"}) + "\n")
    assert main(["score", str(results), "--rules", "ipc2008-sat", "--no-validate"]) == 2
    err = capsys.readouterr().err
    assert f"{results}:1:1: error[S044]: cannot read the plan file {tmp_path / 'nowhere' / 'line-01.plan'}" in err


def test_score_takes_a_domain_name_with_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    results = tmp_path / "runs.jsonl"
    rows = [{"planner": "A", "domain": "my-line", "domain_path": str(LINE / "domain.pddl"),
             "problem": str(LINE / f"line-0{n}.pddl"), "plan": None,
             "plan_text": (LINE / f"line-0{n}.plan").read_text(),
             "wall": 1.0, "status": "solved", "config": "baseline"} for n in (1, 2)]
    results.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["score", str(results), "--rules", "ipc2008-sat", "--no-validate", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["domains"] == ["my-line"] and data["planners"]["A"]["solved"] == 2


def test_runs_of_a_domains_folder_are_grouped_by_the_folder_above(tmp_path: Path) -> None:
    from pddltools.score.store import domain_name

    assert domain_name(tmp_path / "cyber-security" / "domains" / "domain-10.pddl") == "cyber-security"
    assert domain_name(tmp_path / "gripper" / "domain.pddl") == "gripper"


@pytest.mark.parametrize(("answer", "replaced"), [("y", True), ("n", False)])
def test_at_a_terminal_run_asks_before_replacing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 answer: str, replaced: bool) -> None:
    import os
    import pty
    import select

    folder = line_copy(tmp_path, (1,))
    assert run(capsys, tmp_path, str(folder))[0] == 0
    with Store.open(tmp_path / "r.sqlite") as store:
        [before] = store.runs()
    controller, terminal = pty.openpty()  # stdin and stderr a terminal, as for a person at a shell
    command = [sys.executable, "-m", "pddltools.cli", "run", str(folder), "--planner", WALKER, "--db",
               str(tmp_path / "r.sqlite"), "--workdir", str(tmp_path / "runs"), "--wall", "30", "--no-validate"]
    with subprocess.Popen(command, stdin=terminal, stderr=terminal, stdout=subprocess.PIPE) as child:
        os.close(terminal)
        seen = b""
        while b"[y/N]" not in seen:
            ready, _, _ = select.select([controller], [], [], 60)
            assert ready, f"no question asked: {seen!r}"
            seen += os.read(controller, 1024)
        os.write(controller, answer.encode() + b"\n")
        code = child.wait(timeout=60)
    os.close(controller)
    assert b"1 of these runs are already in" in seen
    with Store.open(tmp_path / "r.sqlite") as store:
        [after] = store.runs()
    assert code == (0 if replaced else 2) and (after.finished_at > before.finished_at) == replaced
