"""Command-line options that several sub-commands share, so that they read the same everywhere.

Nothing here imports argparse as it is loaded (`pddltools.cli_record` reads an ordinary command line
without it); argparse's own side is `pddltools.cli_argparse`."""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse is imported where a type fails
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from pddltools.cli_record import Recorder

#: The largest count, seed or limit an option takes: far beyond any use, within a C long.
LARGEST = 10**15


def add_fmt_mode(parser: argparse.ArgumentParser | Recorder, layout: str, *, several: bool = False) -> None:
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


def type_error(message: str) -> argparse.ArgumentTypeError:
    """The error an argparse `type` raises: argparse is imported only when a type fails (the command line
    is then argparse's to report, `pddltools.cli_record`)."""
    import argparse

    return argparse.ArgumentTypeError(message)


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
            raise type_error(f"{what}: {text[:40]!r} is out of range") from None
        except ValueError:
            raise type_error(f"{what} must be a {'whole ' if whole else ''}number, "
                                             f"not {text[:40]!r}") from None
        if whole and not (isinstance(exact, int) or exact.denominator == 1):
            raise type_error(f"{what} must be a whole number, not {text[:40]!r}")
        if above is not None and exact <= above:
            raise type_error(f"{what} must be above {above:g}, not {text[:40]}")
        if low is not None and exact < low:
            raise type_error(f"{what} must be at least {low:g}, not {text[:40]}")
        if high is not None and exact > high:
            raise type_error(f"{what} must be at most {high:g}, not {text[:40]}")
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
