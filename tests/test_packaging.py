"""Packaging: the wheel carries every sub-package (pyproject lists them by hand, see the comment there),
and it builds without a C compiler."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "pddltools").rglob("__init__.py")
    }
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
    assert "pddltools.grammars" in listed


def test_the_package_builds_without_a_c_compiler(tmp_path: Path) -> None:
    """The compiled parser is optional: with a compiler that fails, the wheel still builds, holding the
    Python code and the grammars but no extension module (pddltools then runs its
    pure-Python hot paths)."""
    tree = tmp_path / "src"
    tree.mkdir()
    # A copy, not the checkout: an in-tree build would reuse objects compiled into the checkout's build/.
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.so", "*.egg-info")
    for name in ("pddltools", "grammars"):
        shutil.copytree(ROOT / name, tree / name, ignore=ignore)
    out = tmp_path / "wheels"
    env = {**os.environ, "CC": "/bin/false"}
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(out),
                           str(tree)], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("pddltools-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "pddltools/syntax/frozen.py" in names and "pddltools/grammars/pddl.lark" in names
    assert "pddltools/syntax/_speedups.pyi" in names
    # the JSON Schemas `pddltools schema` prints are package data, one per command and the shared envelope
    from pddltools.schemas import COMMANDS

    assert {f"pddltools/schemas/{c.replace(' ', '-')}.json" for c in COMMANDS} | {"pddltools/schemas/envelope.json"} \
        <= set(names)
    assert "pddltools/view/page.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]


def test_the_packaged_grammars_are_the_top_level_folder() -> None:
    """`pddltools.grammars` is the top-level `grammars/` folder through a symbolic link (one source of
    the syntax), and pyproject maps no package folder of its own: a `package-dir` entry other than the
    root makes setuptools install an editable checkout through an import hook that every start of the
    venv's Python pays for."""
    link = ROOT / "pddltools" / "grammars"
    assert link.is_symlink() and link.resolve() == (ROOT / "grammars").resolve()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["setuptools"]["package-dir"] == {"": "."}
    import pddltools.grammars

    assert {Path(p).resolve() for p in pddltools.grammars.__path__} == {(ROOT / "grammars").resolve()}
