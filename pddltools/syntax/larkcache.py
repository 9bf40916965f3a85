"""Where Lark keeps an analysed grammar between runs, so that building a parser image stays short."""

from __future__ import annotations

import os
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path


@cache
def _grammars_digest() -> str:
    from pddltools.syntax.image import grammar_folder

    return grammars_digest(grammar_folder())


def grammars_digest(folder: Path) -> str:
    """A digest of every grammar the package ships. Lark's own check hashes only the grammar it is
    given, not the files that grammar imports (hddl.lark imports pddl.lark); and it counts the grammar
    folder among the options, so two installations (two virtual environments, say) would otherwise take
    turns rebuilding and rewriting one file, each with its own numbering of the parser's states."""
    import hashlib  # here: the fast paths' cache (`user_cache_file`) is read on every start, this rarely
    digest = hashlib.sha256(str(folder.resolve()).encode())  # Lark's check covers its import paths
    for grammar in sorted(folder.iterdir(), key=lambda g: g.name):
        if grammar.name.endswith(".lark"):
            digest.update(grammar.name.encode() + b"\0" + grammar.read_bytes())
    return digest.hexdigest()[:12]


def cache_file(tag: str) -> str | bool:
    """A file in the user's cache folder for grammar `tag`, else True (Lark's own temporary folder).

    Lark stores the grammar's hash inside the file, so a stale cache is rebuilt, never used; the file's
    name also carries a digest of all the package's grammars, for the imports Lark does not hash.
    """
    import lark

    where = user_cache_file(f"{tag}-{_grammars_digest()}-lark{lark.__version__}.cache")
    return True if where is None else where


def user_cache_file(name: str) -> str | None:
    """The path of file `name` in the user's cache folder (made if missing), or None where it cannot
    be written."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "pddltools")  # os.path, not pathlib: this runs on every start
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    return os.path.join(folder, name)
