"""mkdocs hooks: the pages' examples are run at build time, so that what the site shows is what pddltools
prints today and cannot go stale.

A page writes, on a line of its own,

- `<!-- run: pddltools ARGS -->`: the command is run (in-process, in a scratch folder per page that holds
  the repository's `corpus/`), and the line becomes a console block with the command and its output.
  `<!-- run 1: ... -->` says the command is expected to exit with 1; any other exit status (0 unless
  said), or a traceback, is a build warning, which `mkdocs build --strict` turns into a failure.
  Commands on one page share the folder, so a page can `compile` and then `unmap` what it wrote.
- `<!-- help: COMMAND -->`: the output of `pddltools COMMAND --help`.
- `<!-- codes -->`: the reference of every diagnostic code, from `pddltools.codes`.
- `<!-- schemas -->`: every command's JSON Schema, from `pddltools.schemas`.
- `<!-- include: PATH -->`: a Markdown file of the repository (its first heading dropped).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import re
import shlex
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOG = logging.getLogger("mkdocs.hooks.pddltools")
DIRECTIVE = re.compile(r"^<!-- (run(?: (\d+))?|help|codes|schemas|include)(?::\s*(.*?))? -->$", re.MULTILINE)
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if "<!-- " not in markdown:
        return markdown
    with tempfile.TemporaryDirectory(prefix="pddltools-docs-") as scratch:
        os.symlink(ROOT / "corpus", Path(scratch) / "corpus")

        def expand(match: re.Match[str]) -> str:
            kind, status, argument = match.group(1), match.group(2), (match.group(3) or "").strip()
            where = page.file.src_path
            if kind.startswith("run"):
                return _run(argument, int(status or 0), scratch, where)
            if kind == "help":
                return _run(f"pddltools {argument} --help", 0, scratch, where, show=False)
            if kind == "codes":
                return codes_reference()
            if kind == "schemas":
                return schemas_reference()
            return _include(argument)

        return DIRECTIVE.sub(expand, markdown)


def _run(command: str, expected: int, folder: str, where: str, show: bool = True) -> str:
    from pddltools.cli import main

    words = shlex.split(command)
    if not words or words[0] != "pddltools":
        LOG.warning("%s: a run directive must start with `pddltools`: %s", where, command)
        return ""
    output = io.StringIO()
    before, columns = os.getcwd(), os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"  # rich lays out tables for 100 columns, whatever the build's terminal
    try:
        os.chdir(folder)
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            try:
                status = main(words[1:])
            except SystemExit as stop:  # --help, argparse errors
                status = stop.code if isinstance(stop.code, int) else 1
    finally:
        os.chdir(before)
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    text = ANSI.sub("", output.getvalue()).replace(folder + os.sep, "")
    if status != expected or "Traceback" in text:
        LOG.warning("%s: `%s` exited with %s (the page expects %s):\n%s", where, command, status, expected, text)
    shown = f"$ {command}\n" if show else ""
    if show and status:
        text += f"$ echo $?\n{status}\n"
    return f"```console\n{shown}{text.rstrip()}\n```"


def _include(path: str) -> str:
    text = (ROOT / path).read_text(encoding="utf-8")
    # the page has its own title; the file's first heading would repeat it
    return re.sub(r"\A# .*\n", "", text)


# -------------------------------------------------------------------------------------------------
# The codes reference


def _markdown_text(text: str) -> str:
    """Prose from the registry as Markdown: `code` spans kept, and outside them the characters
    Markdown would read as markup (<tag>, *, _) escaped."""
    parts = text.split("`")
    for index in range(0, len(parts), 2):
        parts[index] = (parts[index].replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                        .replace("*", r"\*").replace("_", r"\_"))
    return "`".join(parts)


def codes_reference() -> str:
    from pddltools.codes import REGISTRY, command_line, shown

    out: list[str] = []
    areas: dict[str, list[str]] = {}
    for entry in REGISTRY.values():
        areas.setdefault(entry.area, []).append(entry.code)
    out.append("| area | codes |\n| --- | --- |")
    for area, codes in areas.items():
        out.append(f"| {area} | " + " ".join(f"[{c}](#{c.lower()})" for c in codes) + " |")
    current = None
    for entry in REGISTRY.values():
        if entry.area != current:
            current = entry.area
            out.append(f"\n## {current[0].upper()}{current[1:]}\n")
        out.append(f"### {entry.code}: {_markdown_text(entry.title)} {{ #{entry.code.lower()} }}\n")
        out.append(f"*{entry.severity.value}*. {_markdown_text(entry.explanation)}\n")
        if entry.example is None:
            continue
        for name, text in entry.example.files:
            language = "lisp" if name.endswith(".pddl") else "text"
            out.append(f'```{language} title="{name}"\n{shown(text).rstrip()}\n```\n')
        if entry.example.command:
            out.append(f"```console\n$ {command_line(entry.example)}\n```\n")
        out.append(f"**Fix:** {_markdown_text(entry.example.fix)}\n")
    return "\n".join(out)


# -------------------------------------------------------------------------------------------------
# The JSON Schemas


def schemas_reference() -> str:
    """Each command's schema, as `pddltools schema COMMAND` prints it."""
    import json

    from pddltools.schemas import COMMANDS, schema

    out: list[str] = []
    for command in COMMANDS:
        data = schema(command)
        anchor = command.replace(" ", "-")
        out.append(f"## {command} {{ #{anchor} }}\n")
        if "description" in data:
            out.append(_markdown_text(data["description"]) + "\n")
        out.append(f"```console\n$ pddltools schema {command}\n```\n")
        out.append(f"```json\n{json.dumps(data, indent=2)}\n```\n")
    return "\n".join(out)
