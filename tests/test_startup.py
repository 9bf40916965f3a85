"""What a command imports before it does anything: start-up is paid on every run (timing belongs in
benchmarks/startup.py; these tests check the imports that decide it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import contextlib, io, json, sys
from pddltools.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    status = main(sys.argv[1:])
print(json.dumps({"status": status, "out": out.getvalue(), "modules": sorted(sys.modules)}))
"""


def run(*argv: str, entry: str = "pddltools.cli") -> dict[str, object]:
    probe = PROBE.replace("from pddltools.cli import main", f"from {entry} import main")
    done = subprocess.run([sys.executable, "-c", probe, *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=True)
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_version_names_the_parser_in_use_without_importing_the_parser_or_rich() -> None:
    from pddltools.syntax.frozen import speedups

    result = run("--version")
    assert result["status"] == 0
    expected = "compiled parser" if speedups is not None else "parser in pure Python"
    assert expected in str(result["out"])
    modules = result["modules"]
    assert isinstance(modules, list)
    assert "rich" not in modules and "pddltools.syntax" not in modules and "lark" not in modules


def test_the_entry_point_answers_version_without_the_command_line() -> None:
    """The console script's `--version` imports neither argparse nor `pddltools.cli`, and says what the
    command line's --version says; anything else goes to the command line."""
    result = run("--version", entry="pddltools.entry")
    assert result["status"] == 0 and result["out"] == run("--version")["out"]
    modules = result["modules"]
    assert isinstance(modules, list)
    assert "argparse" not in modules and "typing" not in modules
    ours = {m for m in modules if m.startswith("pddltools")}
    # the parser's compiled file only, found without importing pddltools.syntax
    assert ours - {"pddltools.syntax._speedups"} == {"pddltools", "pddltools.entry", "pddltools.version"}
    explained = run("explain", "E110", entry="pddltools.entry")
    assert explained["status"] == 0 and "E110" in str(explained["out"]) and "pddltools.cli" in explained["modules"]


def test_validating_a_sequential_plan_imports_neither_rich_nor_the_temporal_validators() -> None:
    adl = ROOT / "corpus" / "plans" / "adl"
    result = run("validate", str(adl / "domain.pddl"), str(adl / "problem.pddl"), str(adl / "valid.plan"))
    assert result["status"] == 0
    assert str(result["out"]) == f"{adl / 'valid.plan'}: valid, value 8 (length 8, cost 8)\n"
    modules = result["modules"]
    assert isinstance(modules, list)
    assert not [m for m in modules if m == "rich" or m.startswith("rich.")]
    assert "pddltools.validate.temporal" not in modules and "pddltools.validate.pddlplus" not in modules
