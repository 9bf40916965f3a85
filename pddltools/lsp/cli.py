"""`pddltools lsp`: start the language server on stdin/stdout (what editors run)."""

from __future__ import annotations

import argparse

from pddltools.exit_codes import ExitCode


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("lsp", description="Speak the Language Server Protocol on stdin/stdout: diagnostics, "
                              "hover, definitions, references, completion, symbols and formatting for PDDL, "
                              "HDDL and RDDL. Needs the lsp extra: pip install 'pddltools[lsp]'.")
    p.add_argument("--stdio", action="store_true", help="accepted for editors that pass it; stdio is the default")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from pddltools.lsp.server import main
    except ImportError as exc:
        import sys

        sys.stderr.write(f"pddltools lsp needs pygls and lsprotocol (pip install 'pddltools[lsp]'): {exc}\n")
        return ExitCode.USAGE
    return main()
