"""`pddltools lsp`: start the language server on stdin/stdout (what editors run)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pddltools.exit_codes import ExitCode

if TYPE_CHECKING:
    import argparse


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("lsp", description="Speak the Language Server Protocol on stdin/stdout: diagnostics, "
                              "hover, definitions, references, completion, symbols and formatting for PDDL, "
                              "HDDL and RDDL. Needs the lsp extra: pip install 'pddltools[lsp]'.")
    p.add_argument("--stdio", action="store_true", help="accepted for editors that pass it; stdio is the default")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return serve()


def serve() -> int:
    """Answer `initialize` before importing pygls (a second of CPU; `lsp.quickstart`), then serve.
    `pddltools lsp` as editors start it comes here from `pddltools.entry` without the command line."""
    import importlib.util
    import sys

    missing = [name for name in ("pygls", "lsprotocol") if importlib.util.find_spec(name) is None]
    if missing:
        return _needs_extra(f"No module named {missing[0]!r}")
    from pddltools.lsp.quickstart import open_session

    opening = open_session(sys.stdin.buffer, sys.stdout.buffer)
    from pddltools.codecache import AttrsCode, MethodCode

    try:  # the protocol's attrs classes and the server's dataclasses, their methods compiled once
        with AttrsCode("lsp-protocol"), MethodCode("lsp-server"):
            from pddltools.lsp.server import main
    except ImportError as exc:
        return _needs_extra(str(exc))
    return main(opening)


def _needs_extra(why: str) -> int:
    import sys

    sys.stderr.write(f"pddltools lsp needs pygls and lsprotocol (pip install 'pddltools[lsp]'): {why}\n")
    return ExitCode.USAGE
