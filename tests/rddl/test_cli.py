"""`pddltools rddl parse|check|fmt` through the command line (`pddltools.cli.main`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pddltools.cli import main

from .conftest import OWN_CORPUS

GOOD = OWN_CORPUS / "constructs" / "objects.rddl"
SPLIT = OWN_CORPUS / "split"
ERRORS = OWN_CORPUS / "errors"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["rddl", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_reports_valid_files_with_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "parse", str(GOOD), str(SPLIT))
    assert code == 0
    assert out.strip() == "parsed 3 files (6 blocks): all valid RDDL"
    assert err == ""


def test_parse_json_lists_files_blocks_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "parse", "--format", "json", str(SPLIT / "instance.rddl"),
                       str(ERRORS / "missing_semicolon.rddl"))
    assert code == 1
    report = json.loads(out)
    first, second = report["files"]
    assert first == {"path": str(SPLIT / "instance.rddl"), "kind": "rddl", "ok": True, "diagnostics": [],
                     "borrowed": [],
                     "blocks": [{"kind": "non-fluents", "name": "nf_split"},
                                {"kind": "instance", "name": "split_1"}]}
    assert second["ok"] is False and second["blocks"] == []
    (diagnostic,) = second["diagnostics"]
    assert {k: diagnostic[k] for k in ("code", "severity", "line", "column", "message")} == {
        "code": "R100", "severity": "error", "line": 5, "column": 9, "message": "expected ';', found 'q'"}
    assert report["summary"] == {"files": 2, "valid": 1, "invalid": 1, "blocks": 2}


def test_parse_errors_show_file_line_column_and_caret(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "parse", str(ERRORS / "missing_semicolon.rddl"))
    assert code == 1
    assert f"{ERRORS / 'missing_semicolon.rddl'}:5:9: error[R100]: expected ';', found 'q'" in err
    assert "^" in err and "Traceback" not in err
    assert out.strip() == "parsed 1 file (0 blocks): 1 not valid RDDL"


def test_unreadable_or_missing_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "parse", str(ERRORS / "binary.rddl"))
    assert code == 2 and "E002" in err
    code, _, err = run(capsys, "check", str(tmp_path / "nowhere.rddl"))
    assert code == 2 and "no such file or folder" in err
    code, _, err = run(capsys, "parse", str(tmp_path))
    assert code == 2 and "no *.rddl files" in err


def test_check_finds_the_domain_beside_an_instance(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(SPLIT / "instance.rddl"))
    assert (code, out.strip()) == (
        0, f"checked 1 file: no problems found (using domain split_demo from {SPLIT / 'domain.rddl'})")
    code, out, _ = run(capsys, "check", "--format", "json", str(SPLIT / "instance.rddl"))
    assert json.loads(out)["files"][0]["borrowed"] == [
        {"kind": "domain", "name": "split_demo", "path": str(SPLIT / "domain.rddl")}]


def test_check_json_and_github_formats(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ERRORS / "wrong_arity.rddl")
    code, out, _ = run(capsys, "check", "--format", "json", path)
    assert code == 1
    report = json.loads(out)
    assert [d["code"] for d in report["files"][0]["diagnostics"]] == ["R203"]
    assert report["summary"] == {"files": 1, "with_errors": 1, "errors": 1, "warnings": 0}
    code, out, _ = run(capsys, "check", "--format", "github", path)
    assert code == 1
    assert out.strip() == f"::error file={path},line=11,col=18,title=R203::s takes 1 argument (t), not 2"


def test_warnings_alone_do_not_fail_a_check(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(ERRORS / "not_utf8.rddl"))
    assert code == 0 and "R001" in err
    assert out.strip() == "checked 1 file: 0 errors, 1 warning"


def test_fmt_prints_and_writes_only_when_asked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    original = "domain d { pvariables { p : {state-fluent, bool, default = false}; }; cpfs { p' = ~p; }; }"
    path = tmp_path / "d.rddl"
    path.write_text(original)
    code, formatted, _ = run(capsys, "fmt", str(path))
    assert code == 0
    assert formatted == ("domain d {\n    pvariables {\n"
                         "        p : { state-fluent, bool, default = false };\n"
                   "    };\n\n    cpfs {\n        p' = ~p;\n    };\n}\n")
    assert path.read_text() == original
    code, out, _ = run(capsys, "fmt", "--write", str(path))
    assert (code, out) == (0, "")
    assert path.read_text() == formatted
    code, out, _ = run(capsys, "fmt", "--format", "json", str(path))
    assert json.loads(out)["files"][0]["changed"] is False


def test_fmt_keeps_comments_and_checks_layout(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "c.rddl"
    original = "// a comment\ndomain d { cpfs { x' = 1; /* one */ }; }"
    path.write_text(original)
    code, _, _ = run(capsys, "fmt", "--check", str(path))
    assert code == 1
    code, _, _ = run(capsys, "fmt", "--write", str(path))
    assert code == 0
    assert path.read_text() == "// a comment\ndomain d {\n    cpfs {\n        x' = 1; /* one */\n    };\n}\n"
    code, _, _ = run(capsys, "fmt", "--check", str(path))
    assert code == 0


def test_fmt_of_invalid_input_changes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.rddl"
    path.write_text("domain d {")
    code, out, err = run(capsys, "fmt", "--write", str(path))
    assert code == 1 and out == "" and "R102" in err
    assert path.read_text() == "domain d {"


def test_deeply_nested_input_gives_a_diagnostic_not_a_traceback(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "deep.rddl"
    path.write_text("domain d { pvariables { p : {state-fluent, bool, default = false}; }; "
                    "cpfs { p' = " + "~" * 20_000 + "p; }; reward = 0; }")
    code, _, err = run(capsys, "check", str(path))
    assert code == 1 and "R106" in err and "Traceback" not in err
    code, _, err = run(capsys, "fmt", str(path))
    assert code == 1 and "R106" in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["rddl", "parse"])
    assert info.value.code == 2
    with pytest.raises(SystemExit) as info:
        main(["rddl", "fmt", str(GOOD), "--format", "yaml"])
    assert info.value.code == 2
