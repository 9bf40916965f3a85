"""Command-line options that several sub-commands share, so that they read the same everywhere."""

from __future__ import annotations

import argparse
from collections.abc import Sequence


def add_fmt_mode(parser: argparse.ArgumentParser, layout: str, *, several: bool = False) -> None:
    """FILE (`several`: FILE ... into `files`) and --write | --check, for a formatter that prints
    `layout`."""
    if several:
        parser.add_argument("files", metavar="FILE", nargs="+")
    else:
        parser.add_argument("file", metavar="FILE")
    each = "each FILE" if several else "FILE"
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", "-w", action="store_true", help=f"rewrite {each} in place instead of printing")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if {each} is not in the {layout}")


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
