"""Command-line options that several sub-commands share, so that they read the same everywhere."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The largest count, seed or limit an option takes: far beyond any use, within a C long.
LARGEST = 10**15


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


def number_option(what: str, *, whole: bool = False, low: float | None = None, high: float | None = None,
           above: float | None = None) -> Callable[[str], Any]:
    """An argparse `type` for a numeric option: the text is read by the one bounded number reader
    (`read_number`: ASCII decimals, no `1_000`, no `1e100000000` computed for minutes), then checked
    against its range (`low` <= value <= `high`, value > `above`); anything else is a usage error
    (exit 2) naming the option's meaning. `whole`: an int, else a float."""
    def parse(text: str) -> Any:
        from pddltools.pddl.exact_numbers import NumberOutOfRange, read_number

        try:
            exact = read_number(text)
        except NumberOutOfRange:
            raise argparse.ArgumentTypeError(f"{what}: {text[:40]!r} is out of range") from None
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be a {'whole ' if whole else ''}number, "
                                             f"not {text[:40]!r}") from None
        if whole and not (isinstance(exact, int) or exact.denominator == 1):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text[:40]!r}")
        if above is not None and exact <= above:
            raise argparse.ArgumentTypeError(f"{what} must be above {above:g}, not {text[:40]}")
        if low is not None and exact < low:
            raise argparse.ArgumentTypeError(f"{what} must be at least {low:g}, not {text[:40]}")
        if high is not None and exact > high:
            raise argparse.ArgumentTypeError(f"{what} must be at most {high:g}, not {text[:40]}")
        return int(exact) if whole else float(exact)
    return parse


def add_server_options(parser: argparse.ArgumentParser, *, log: str, max_message: int) -> None:
    """Where a simulation server (`rddl serve`, `ppddl serve`) listens, where it logs its results, and the
    limits no client, nor a crowd of them, may exceed; `server_limits` reads the limits back."""
    count = number_option("the count", whole=True, low=1, high=LARGEST)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, loopback only)")
    parser.add_argument("--port", type=number_option("the port", whole=True, low=0, high=65535), default=2323,
                        help="0 picks a free port (printed)")
    parser.add_argument("--log", default=log, help="results log (JSON lines, appended)")
    parser.add_argument("--stall", type=number_option("the stall time", above=0, high=LARGEST), default=30.0,
                        help="seconds a message may take from its first byte (default 30, plus one per 16 KB)")
    parser.add_argument("--idle", type=number_option("the idle time", above=0, high=LARGEST), default=10.0,
                        help="seconds a new connection may take to send its session-request (default 10)")
    parser.add_argument("--max-connections", type=count, default=0, metavar="N",
                        help="connections open at once (default: what the open-file limit leaves room for, at "
                             "most 4096); past it the oldest that has not sent its session-request is closed")
    parser.add_argument("--max-message", type=count, default=max_message, metavar="BYTES",
                        help=f"the largest message accepted, in bytes (default {max_message >> 20} MiB)")


def add_server_address(parser: argparse.ArgumentParser) -> None:
    """HOST and PORT, the server a client (`rddl client`, `ppddl client`) connects to."""
    parser.add_argument("host", metavar="HOST")
    parser.add_argument("port", metavar="PORT", type=number_option("the port", whole=True, low=1, high=65535))


def server_limits(args: argparse.Namespace) -> dict[str, Any]:
    """The limits `add_server_options` took, as `pddltools.serving.Limits` names them."""
    return {"max_message": args.max_message, "stall": args.stall, "idle": args.idle,
            "max_connections": args.max_connections}
