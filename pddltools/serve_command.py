"""What `rddl serve` and `ppddl serve` print once their port is bound: one announcement, the same in form
for both protocols, so that whoever starts either server reads it the same way."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from pddltools.diagnostics import Diagnostic
from pddltools.envelope import envelope, print_json


def print_listening(output: str, command: str, files: Sequence[dict[str, Any]], read: int,
                    served: tuple[str, list[str]], skipped: Sequence[Diagnostic], address: tuple[str, int], log: str,
                    rounds: int, terms: str, **fields: Any) -> None:
    """The announcement of a server that listens at `address` and serves `served` (what it serves, in
    words, and their names) of the `read` files in `files`, `skipped` left out: with `output` json the
    envelope on one line (whoever started the server reads it with readline() and goes on), its fields
    `fields` after the rounds; else one line of text, the session's `terms` in its parentheses. Flushed at
    once either way."""
    noun, names = served
    host, port = address
    if output == "json":
        print_json(envelope(command, files, {"files": read, noun: len(names), "skipped": len(skipped)},
                            host=host, port=port, **{noun: names}, log=log, rounds=rounds, **fields,
                            skipped=[d.to_json() for d in skipped]), indent=None)
    else:
        sys.stdout.write(f"serving {len(names)} {noun} on {host}:{port} ({rounds} rounds, {terms}); results to {log}\n")
    sys.stdout.flush()
