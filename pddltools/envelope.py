"""The JSON every command that reads files prints with `--format json`: one envelope, built here.

    {"tool": "pddltools", "version": "0.2.0", "command": "check",
     "files": [{"path": ..., "kind": ..., "ok": ..., "diagnostics": [Diagnostic.to_json(), ...], ...}],
     <the command's own fields>, "summary": {...}}

A script reads `files[].ok` and `files[].diagnostics` the same way whatever the command; what only one
command knows (a plan's value, a task's track verdicts) sits beside them. The shape of each command's
output is published as a JSON Schema (`pddltools schema COMMAND`, `pddltools/schemas/`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

from pddltools import __version__

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from pddltools.diagnostics import Diagnostic


def file_entry(path: object, kind: str | None, diagnostics: Iterable[Diagnostic], *, ok: bool | None = None,
               **fields: Any) -> dict[str, Any]:
    """One element of `files`: `ok` is, unless given, "no diagnostic is an error"."""
    found = list(diagnostics)
    return {"path": None if path is None else str(path), "kind": kind,
            "ok": not any(d.is_error for d in found) if ok is None else ok,
            "diagnostics": [d.to_json() for d in found], **fields}


def placed(files: Sequence[tuple[str, str | None]], diagnostics: Iterable[Diagnostic]) -> list[dict[str, Any]]:
    """Entries for `files` (path, kind), each with the diagnostics found in it: by their span's file
    (however the path is spelt), else the file their message names, else the first file."""
    found: list[list[Diagnostic]] = [[] for _ in files]
    where = {os.path.abspath(path): index for index, (path, _) in enumerate(files)}
    for diagnostic in diagnostics:
        index = where.get(os.path.abspath(diagnostic.span.file), 0) if diagnostic.span else next(
            (i for i, (path, _) in enumerate(files) if path in diagnostic.message), 0)
        found[index].append(diagnostic)
    return [file_entry(path, kind, found[index]) for index, (path, kind) in enumerate(files)]


def envelope(command: str, files: Sequence[dict[str, Any]], summary: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """The whole output of `command`; `fields` are its own, placed between `files` and `summary`."""
    return {"tool": "pddltools", "version": __version__, "command": command, "files": list(files),
            **fields, "summary": summary}


def failure(command: str, diagnostics: Iterable[Diagnostic], **summary: Any) -> dict[str, Any]:
    """The envelope of a command stopped before it read any file (a folder without files, bad usage):
    the diagnostics sit in one entry without a path."""
    entry = file_entry(None, None, diagnostics, ok=False)
    return envelope(command, [entry], {"files": 0, **summary})


def print_json(data: dict[str, Any], *, indent: int | None = 2) -> None:
    """Write one JSON document (or, with `indent=None`, one JSON line) to stdout."""
    import json  # here: the commands import this module for their text output too (start-up)

    sys.stdout.write(json.dumps(data, indent=indent) + "\n")
