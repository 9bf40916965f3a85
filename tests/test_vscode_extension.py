"""The VS Code extension's own tests (editors/vscode: `npm test`), run where node and the extension's
node_modules are installed; elsewhere (CI, a Python-only checkout) they skip and say why. They drive the
real language server and command line of this checkout, through the JSON-RPC layer of
vscode-languageclient and the extension's command-line module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXTENSION = REPO / "editors" / "vscode"


def test_extension_node_tests_pass() -> None:
    npm = shutil.which("npm")
    if not shutil.which("node") or not npm:
        pytest.skip("node and npm are not installed: the extension's tests need them")
    if not (EXTENSION / "node_modules" / "vscode-languageclient").is_dir():
        pytest.skip("the extension's packages are not installed: run `npm ci` in editors/vscode")
    env = {**os.environ, "PDDLTOOLS_TEST_PYTHON": sys.executable}
    result = subprocess.run([npm, "test"], cwd=EXTENSION, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
    passed = next(int(line.split()[2]) for line in result.stdout.splitlines() if line.startswith("# pass"))
    assert passed >= 11, result.stdout[-2000:]
