#!/usr/bin/env bash
# Create benchmarks/.venv (git-ignored) with the reference parsers of benchmarks/requirements.txt.
# Usage: bash benchmarks/setup.sh [PYTHON]   (default: python3; the reference tools need Python >= 3.11)
# Re-running it updates the venv in place. pddltools itself is not installed there: benchmarks/parse.py
# runs pddltools with the interpreter that runs the harness, on the checkout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${1:-python3}"
venv="$here/.venv"

"$python" - <<'PY'
import sys
if sys.version_info < (3, 11):
    sys.exit(f"benchmarks need Python >= 3.11 (pypddl requires it), got {sys.version.split()[0]}")
PY

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
"$venv/bin/python" -m pip install --quiet -r "$here/requirements.txt"
"$venv/bin/python" -m pip check
"$venv/bin/python" - <<'PY'
from importlib.metadata import version
for name in ("fast-downward.translate", "pypddl", "pddl", "tarski", "unified-planning",
             "pyRDDLGym", "pyrddl", "rddlrepository"):
    print(f"{name} {version(name)}")
PY
echo "benchmarks/.venv ready: python benchmarks/parse.py --help"
