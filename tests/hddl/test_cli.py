"""`parse`, `fmt` and `check` on HDDL files and folders, and the domain finder's .hddl pairing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.domain_finder import DomainFinder

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "corpus" / "hddl" / "examples"
CHECKS = ROOT / "corpus" / "hddl" / "check"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    status = main(argv)
    return status, json.loads(capsys.readouterr().out)


def test_parse_reads_hddl_folders(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _json(capsys, ["parse", "--format", "json", str(EXAMPLES)])
    assert status == 0 and out["summary"]["parsed"] == 4
    domain = next(f for f in out["files"] if f["name"] == "deliver")
    assert domain["kind"] == "domain" and domain["counts"]["tasks"] == 2 and domain["counts"]["methods"] == 3
    problem = next(f for f in out["files"] if f["name"] == "p01")
    assert problem["counts"]["subtasks"] == 1


def test_a_syntax_error_is_located_with_a_caret(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(ROOT / "corpus" / "hddl" / "bad" / "method-without-task.hddl")]) == 1
    err = capsys.readouterr().err
    assert "method-without-task.hddl:6:5: error[E103]: expected ':task'" in err and "^^^" in err
    assert "Traceback" not in err


def test_fmt_prints_hddl_that_is_then_formatted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _json(capsys, ["fmt", "--format", "json", str(EXAMPLES / "partial" / "domain.hddl")])
    assert status == 0 and out["files"][0]["kind"] == "hddl" and out["files"][0]["changed"]
    printed = tmp_path / "domain.hddl"
    printed.write_text(out["files"][0]["text"], encoding="utf-8")
    assert main(["fmt", "--check", str(printed)]) == 0
    assert "(:method m-meal" in printed.read_text(encoding="utf-8")


def test_check_reports_htn_tracks_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _json(capsys, ["check", "--format", "json", str(EXAMPLES / "partial" / "domain.hddl"),
                                 str(EXAMPLES / "partial" / "p01.hddl")])
    assert status == 0
    assert out["tracks"] == {"ipc2020-htn-total-order": "unfit", "ipc2020-htn-partial-order": "fits",
                             "ipc2023-htn-total-order": "unfit", "ipc2023-htn-partial-order": "fits"}
    assert "m-meal" in out["track_details"]["ipc2023-htn-total-order"]["explanation"]


def test_check_each_pairs_hddl_files_and_reports_errors(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _json(capsys, ["check", "--format", "json", "--track", "ipc2023-htn-total-order", "--each",
                                 str(CHECKS / "ordering-cycle")])
    assert status == 1
    (block,) = out["checks"]
    assert block["pairs"][0]["found_by"].startswith("domain.hddl beside the problem")
    codes = [d["code"] for f in out["files"] for d in f["diagnostics"]]
    assert "E907" in codes and block["tracks"] == {"ipc2023-htn-total-order": "invalid"}


def test_the_domain_finder_pairs_hddl_with_hddl(tmp_path: Path) -> None:
    for name in ("domain.pddl", "domain.hddl", "pfile01.hddl", "pfile02.hddl", "pfile02-domain.hddl"):
        shutil.copy(EXAMPLES / "deliver" / ("p01.hddl" if name.startswith("pfile") and "domain" not in name
                                            else "domain.hddl"), tmp_path / name)
    finder = DomainFinder()
    assert finder.find(tmp_path / "pfile01.hddl").domain == tmp_path / "domain.hddl"
    assert finder.find(tmp_path / "pfile02.hddl").domain == tmp_path / "pfile02-domain.hddl"
