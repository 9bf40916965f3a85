"""One exit status per kind of finding, whatever the command: a file with a syntax error, a domain with a
semantic error and an invalid plan are findings (1); a file that cannot be read is a usage error (2); a
clean input is 0. `pddltools.exit_codes.status_of` decides it from the registered codes."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.exit_codes import ExitCode, status_of

ROOT = Path(__file__).resolve().parent.parent
ADL = ROOT / "corpus" / "plans" / "adl"

SYNTAX = "(define (domain d)\n (:action a :parameters x))\n"
SEMANTIC = "(define (domain d)\n (:predicates (p))\n (:action a :parameters () :precondition (q) :effect (p)))\n"
RDDL_SYNTAX = "domain d {\n pvariables { p : {state-fluent, bool, default = false}; \n};\n"


@pytest.fixture()
def inputs(tmp_path: Path) -> dict[str, Path]:
    files = {"syntax": SYNTAX, "semantic": SEMANTIC, "rddl-syntax": RDDL_SYNTAX}
    made = {}
    for name, text in files.items():
        made[name] = tmp_path / (name + (".rddl" if name.startswith("rddl") else ".pddl"))
        made[name].write_text(text)
    made["missing"] = tmp_path / "missing.pddl"
    made["out"] = tmp_path / "out"
    return made


PDDL_COMMANDS = {
    "parse": lambda d, o: ["parse", d],
    "check": lambda d, o: ["check", d],
    "fmt": lambda d, o: ["fmt", d],
    "validate": lambda d, o: ["validate", d, ADL / "problem.pddl", ADL / "valid.plan"],
    "compile": lambda d, o: ["compile", d, ADL / "problem.pddl", "--target", "strips", "-o", o],
    "view": lambda d, o: ["view", d, ADL / "problem.pddl", ADL / "valid.plan", "-o", o / "page.html"],
}


@pytest.mark.parametrize("command", PDDL_COMMANDS)
@pytest.mark.parametrize(("kind", "status"), [("syntax", ExitCode.FINDINGS), ("missing", ExitCode.USAGE)])
def test_a_domain_with_a_syntax_error_or_unreadable_is_the_same_status_for_every_command(
        inputs: dict[str, Path], command: str, kind: str, status: ExitCode, capsys: pytest.CaptureFixture[str]) -> None:
    inputs["out"].mkdir()
    argv = [str(a) for a in PDDL_COMMANDS[command](inputs[kind], inputs["out"])]
    assert main(argv) == status, argv
    capsys.readouterr()


@pytest.mark.parametrize("command", ["check", "validate", "compile"])
def test_a_semantic_error_is_a_finding(inputs: dict[str, Path], command: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(a) for a in PDDL_COMMANDS[command](inputs["semantic"], inputs["out"])]
    assert main(argv) == ExitCode.FINDINGS, argv
    capsys.readouterr()


@pytest.mark.parametrize("command", ["validate", "view"])
def test_an_invalid_plan_is_a_finding_and_a_valid_one_ok(tmp_path: Path, command: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for plan, status in (("no-key.plan", ExitCode.FINDINGS), ("valid.plan", ExitCode.OK)):
        argv = [command, str(ADL / "domain.pddl"), str(ADL / "problem.pddl"), str(ADL / plan)]
        if command == "view":
            argv += ["-o", str(tmp_path / f"{plan}.html")]
        assert main(argv) == status, argv
    capsys.readouterr()


@pytest.mark.parametrize("command", [["rddl", "parse"], ["rddl", "check"], ["rddl", "fmt"], ["rddl", "simulate"]])
def test_rddl_commands_follow_the_same_rule(inputs: dict[str, Path], command: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, str(inputs["rddl-syntax"])]) == ExitCode.FINDINGS
    assert main([*command, str(inputs["rddl-syntax"].with_name("none.rddl"))]) == ExitCode.USAGE
    capsys.readouterr()


def test_the_status_comes_from_the_registry() -> None:
    from pddltools.diagnostics import error, warning

    assert status_of([]) == ExitCode.OK
    assert status_of([warning("W101", "a warning")]) == ExitCode.OK
    assert status_of([error("E103", "unexpected token")]) == ExitCode.FINDINGS
    assert status_of([error("E103", "unexpected token"), error("E001", "cannot read")]) == ExitCode.USAGE
    assert status_of([error("E804", "the output folder has files")]) == ExitCode.USAGE
