"""Where Lark keeps an analysed grammar between runs, so that start-up stays short."""

from __future__ import annotations

import os
from pathlib import Path

import lark


def cache_file(tag: str) -> str | bool:
    """A file in the user's cache folder for grammar `tag`, else True (Lark's own temporary folder).

    Lark stores the grammar's hash inside the file, so a stale cache is rebuilt, never used.
    """
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "pddltools"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return True
    if not os.access(folder, os.W_OK):
        return True
    return str(folder / f"{tag}-lark{lark.__version__}.cache")
