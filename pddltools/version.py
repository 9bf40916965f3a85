"""What `pddltools --version` says: the release and whether the compiled parser part loads, found
without importing the parser (the entry point and the command line both answer `--version`)."""

from __future__ import annotations

from pddltools import __version__


def version() -> str:
    """`pddltools 0.2.0 (compiled parser)`, or why the parser runs in pure Python."""
    parser = ("compiled parser" if speedups_built()
              else "parser in pure Python: pddltools.syntax._speedups was not built (no C compiler at install time)")
    return f"pddltools {__version__} ({parser})"


def speedups_built() -> bool:
    """Whether the compiled parser loads, found beside the package rather than imported through
    `pddltools.syntax`, whose import pulls in the parser's tables, the diagnostics and Lark."""
    import importlib.machinery
    import importlib.util
    import os

    folder = os.path.join(os.path.dirname(__file__), "syntax")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.join(folder, f"_speedups{suffix}")
        if not os.path.isfile(path):
            continue
        spec = importlib.util.spec_from_file_location("pddltools.syntax._speedups", path)
        if spec is None or spec.loader is None:
            continue
        try:
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
        except ImportError:
            return False
        return True
    return False
