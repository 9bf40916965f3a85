"""The `pddltools` command's entry point (the console script and `python -m pddltools`).

`pddltools --version` is answered here, with nothing imported but the compiled parser's file: the command
line (`pddltools.cli`) costs typing and the exit codes' enum (and argparse, for `--help` and usage
errors), a quarter of what a bare Python takes to start. `pddltools lsp` as editors start it goes
straight to the language server, whose first reply an editor waits for. Everything else goes to
`pddltools.cli.main`, which answers `--version` the same way.
"""

from __future__ import annotations

import sys

from pddltools.version import version


def main(argv: list[str] | None = None, *, prog: str = "pddltools") -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:
        print(version())
        return 0
    if arguments in (["lsp"], ["lsp", "--stdio"]):  # as editors start the server: it answers at once
        from pddltools.lsp.cli import serve

        return serve()
    command = next((arg for arg in arguments if not arg.startswith("-")), None)
    if command is None:  # --help, or nothing: no command's modules to import
        from pddltools.cli import main as command_line

        return command_line(arguments, prog=prog)
    from pddltools.codecache import MethodCode

    # The command's dataclasses and patterns, compiled once (pddltools.codecache): those of the command
    # line's own modules, of the modules the command imports to register, and of those it imports as
    # it runs (the language registry, the plan reader's parts).
    named = command if command.isascii() and command.isalpha() else "other"  # part of a file's name
    with MethodCode(f"command-{named}") as cache:
        from pddltools.cli import is_command
        from pddltools.cli import main as command_line

        cache.keep = is_command(command)  # a mistyped command would leave a cache file behind
        return command_line(arguments, prog=prog)

