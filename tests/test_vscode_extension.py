"""The VS Code extension in editors/vscode: its TextMate grammars are the ones generated from
grammars/*.lark (so highlighting cannot drift from the parser), and, where node and the extension's
npm packages are installed, its node tests pass (the commands' logic, and the server driven over stdio
through the JSON-RPC layer of vscode-languageclient). The Python install never needs node."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXTENSION = Path(__file__).resolve().parents[1] / "editors" / "vscode"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vscode_grammars", EXTENSION / "scripts" / "grammars.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("language", ["pddl", "hddl", "rddl"])
def test_the_grammars_are_the_ones_generated_from_the_lark_grammars(language: str) -> None:
    committed = (EXTENSION / "syntaxes" / f"{language}.tmLanguage.json").read_text(encoding="utf-8")
    assert committed == _generator().text(language), "run python editors/vscode/scripts/grammars.py"


def test_the_grammars_know_every_keyword() -> None:
    from pddltools.hddl.language import LANGUAGE as HDDL

    text = (EXTENSION / "syntaxes" / "hddl.tmLanguage.json").read_text(encoding="utf-8")
    for keyword in HDDL.keywords().values():
        bare = keyword.lstrip(":")
        assert bare in text, keyword


def test_the_extension_contributes_the_three_languages() -> None:
    import json

    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    languages = {entry["id"]: entry["extensions"] for entry in manifest["contributes"]["languages"]}
    assert languages["pddl"] == [".pddl"] and languages["hddl"] == [".hddl"] and languages["rddl"] == [".rddl"]
    assert {"onLanguage:pddl", "onLanguage:hddl", "onLanguage:rddl"} <= set(manifest["activationEvents"])


def test_the_node_tests_pass() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the extension's own tests need it")
    if not (EXTENSION / "node_modules" / "vscode-jsonrpc").is_dir():
        pytest.skip("the extension's npm packages are not installed (npm install in editors/vscode)")
    server = shutil.which("pddltools")
    if server is None:
        pytest.skip("no pddltools command on PATH for the node test to start")
    env = {**os.environ, "PDDLTOOLS": server, "PYTHONPATH": os.pathsep.join(sys.path)}
    if _stale(EXTENSION / "src", EXTENSION / "out"):
        tsc = EXTENSION / "node_modules" / "typescript" / "bin" / "tsc"
        subprocess.run([node, str(tsc), "-p", str(EXTENSION)], check=True, cwd=EXTENSION, timeout=120)
    result = subprocess.run([node, "--test", "test/"], cwd=EXTENSION, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "# fail 0" in result.stdout


def _stale(sources: Path, built: Path) -> bool:
    """Whether a TypeScript source is newer than what was compiled from it (or nothing was)."""
    newest = max(p.stat().st_mtime for p in sources.glob("*.ts"))
    outputs = list(built.glob("*.js"))
    return not outputs or min(p.stat().st_mtime for p in outputs) < newest
