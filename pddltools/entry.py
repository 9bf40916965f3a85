"""The `pddltools` command's entry point (the console script and `python -m pddltools`).

`pddltools --version` is answered here, with nothing imported but the compiled parser's file: the command
line (`pddltools.cli`) costs argparse, typing and the exit codes' enum, a quarter of what a bare Python
takes to start. `pddltools lsp` as editors start it goes straight to the language server, whose first
reply an editor waits for. Everything else goes to `pddltools.cli.main`, which answers `--version` the
same way.
"""

from __future__ import annotations

import sys

from pddltools import __version__


def main(argv: list[str] | None = None, *, prog: str = "pddltools") -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:
        print(version())
        return 0
    if arguments in (["lsp"], ["lsp", "--stdio"]):  # as editors start the server: it answers at once
        from pddltools.lsp.cli import serve

        return serve()
    from pddltools.cli import main as command_line

    return command_line(arguments, prog=prog)


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
