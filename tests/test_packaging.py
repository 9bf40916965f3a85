"""The wheel must carry every sub-package: pyproject lists them by hand (see the comment there)."""

from __future__ import annotations

import tomllib
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
