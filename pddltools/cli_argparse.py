"""argparse's side of the command line: the parser class the recorded declarations are replayed onto
(`pddltools.cli_record`), its help's width, and the parse that names the sub-command in its errors.
Imported only where argparse runs: `--help`, a usage error, a command line the reader declines."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, as wide as `shutil.get_terminal_size` says, read without importing `shutil` (with its
    compression modules): argparse makes a formatter for every option it is given (start-up)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    """`shutil.get_terminal_size().columns`: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser with `HelpFormatter` by default; its sub-commands' parsers are of this class too."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("formatter_class", HelpFormatter)
        super().__init__(**options)


def parse_command_line(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """`parser.parse_args(argv)`, except that an argument nobody takes is reported with the usage of the
    sub-command it was given to (argparse leaves those to the top-level parser, whose usage says
    nothing about the sub-command's options). Exits 2, as argparse does."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        _innermost(parser, argv).error("unrecognized arguments: " + " ".join(extra))
    return args


def _innermost(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the deepest sub-command named in `argv` (`rddl simulate` → simulate's)."""
    current = parser
    for word in argv:
        chosen = next((action.choices.get(word) for action in current._actions
                       if isinstance(action, argparse._SubParsersAction)), None)
        if isinstance(chosen, argparse.ArgumentParser):
            current = chosen
    return current
