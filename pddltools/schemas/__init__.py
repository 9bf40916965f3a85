"""The JSON Schemas of the commands' `--format json` output, and `pddltools schema COMMAND`.

Each command's file (`parse.json`, `rddl-check.json`, ...) states what it adds to the envelope; the
shared definitions (the envelope, a file entry, a diagnostic, a plan's entry) live once in
`envelope.json` and are merged into every schema handed out, so that each printed schema stands alone.
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from typing import Any

from pddltools.exit_codes import ExitCode

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

#: The commands with a schema, as typed on the command line (`validate-batch`: one line of --batch).
COMMANDS = ("parse", "check", "validate", "validate-batch", "compile", "unmap", "ground", "test", "fmt", "view", "run",
            "learn", "score",
            "select", "report", "rddl parse", "rddl check", "rddl fmt", "rddl simulate", "rddl serve", "rddl client",
            "rddl score", "ppddl simulate", "ppddl serve", "ppddl client", "ppddl score", "explain")
_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _read(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
    return data


def schema(command: str) -> dict[str, Any]:
    """The whole schema of `command`'s JSON output (a name from COMMANDS)."""
    if command not in COMMANDS:
        raise KeyError(command)
    own = _read(command.replace(" ", "-") + ".json")
    shared = _read("envelope.json")["$defs"]
    return {"$schema": _DIALECT, **own, "$defs": {**shared, **own.get("$defs", {})}}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("schema", description="Print the JSON Schema (draft 2020-12) that a command's "
                              "--format json output follows: the envelope every command shares and the "
                              "command's own fields.")
    p.add_argument("name", nargs="*", metavar="COMMAND",
                   help=f"one of: {', '.join(COMMANDS)} (none: list them)")
    p.set_defaults(func=run_schema)


def run_schema(args: argparse.Namespace) -> int:
    if not args.name:
        sys.stdout.write("".join(f"{name}\n" for name in COMMANDS))
        return ExitCode.OK
    name = " ".join(args.name)  # `schema rddl check` and `schema "rddl check"` alike
    if name not in COMMANDS:
        sys.stderr.write(f"pddltools schema: no schema for {name!r}; one of: {', '.join(COMMANDS)}\n")
        return ExitCode.USAGE
    sys.stdout.write(json.dumps(schema(name), indent=2) + "\n")
    return ExitCode.OK
