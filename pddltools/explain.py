"""`pddltools explain [CODE]`: what a diagnostic code means and how to mend it, as `rustc --explain` does.

Rich on a terminal, plain text on a pipe (so `pddltools explain E201 | less` has no escape codes), JSON
with --format json (the envelope every command prints, with no file read: the entry's fields, or the
list as `codes`, beside `files`). Without a code it lists every code with its one-line meaning.
"""

from __future__ import annotations

import sys
from dataclasses import asdict
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax

from pddltools.codes import REGISTRY, Code, command_line, lookup, near, render_text, shown
from pddltools.consoles import stderr_console, stdout_console
from pddltools.envelope import envelope, print_json
from pddltools.exit_codes import ExitCode

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

_STYLE = {"error": "bold red", "warning": "bold yellow", "info": "bold cyan"}


def register(sub: Any) -> None:
    p = sub.add_parser("explain", description="Explain a diagnostic code: what it means, a minimal input that "
                                   "triggers it, and how to fix it. Without CODE, list every code.")
    p.add_argument("code", nargs="?", metavar="CODE", help="a code such as E201 (case does not matter)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_explain)


def to_json(entry: Code) -> dict[str, Any]:
    data = asdict(entry)
    data["severity"] = entry.severity.value
    if entry.example is not None:
        data["example"]["files"] = [{"name": name, "text": text} for name, text in entry.example.files]
        data["example"]["command"] = command_line(entry.example) if entry.example.command else None
    return data


def cmd_explain(args: argparse.Namespace) -> int:
    out = stdout_console()
    if args.code is None:
        return _list_all(out, args.format)
    entry = lookup(args.code)
    if entry is None:
        err = stderr_console()
        hint = near(args.code)
        err.print(f"pddltools explain: {args.code} is not a pddltools diagnostic code"
                  + (f"; did you mean {', '.join(hint)}?" if hint else "")
                  + " (`pddltools explain` lists every code)", markup=False)
        return ExitCode.USAGE
    if args.format == "json":
        print_json(envelope("explain", [], {"files": 0, "codes": 1}, **to_json(entry)))
    elif out.is_terminal:
        _print_rich(entry, out)
    else:
        sys.stdout.write(render_text(entry))
    return ExitCode.OK


def _list_all(out: Console, form: str) -> int:
    if form == "json":
        codes = [{"code": e.code, "severity": e.severity.value, "area": e.area, "title": e.title}
                 for e in REGISTRY.values()]
        print_json(envelope("explain", [], {"files": 0, "codes": len(codes)}, codes=codes))
        return ExitCode.OK
    for entry in REGISTRY.values():
        line = f"{entry.code}  {entry.severity.value:<7}  {entry.title}"
        if out.is_terminal:
            out.print(f"[{_STYLE[entry.severity.value]}]{entry.code}[/]  {entry.severity.value:<7}  "
                      f"{escape(entry.title)}")
        else:
            sys.stdout.write(line + "\n")
    return ExitCode.OK


def _print_rich(entry: Code, out: Console) -> None:
    style = _STYLE[entry.severity.value]
    out.print(f"[{style}]{entry.code}[/] [dim]({entry.severity.value}, {escape(entry.area)})[/]: "
              f"[bold]{escape(entry.title)}[/]")
    out.print()
    out.print(escape(entry.explanation), soft_wrap=False)  # wrapped at the terminal's width
    if entry.example is None:
        return
    for name, text in entry.example.files:
        out.print()
        out.print(f"[dim]{escape(name)}[/]")
        lexer = "lisp" if name.endswith(".pddl") else "text"
        out.print(Syntax(shown(text).rstrip("\n"), lexer, theme="ansi_dark", line_numbers=True))
    if entry.example.command:
        out.print()
        out.print("[dim]$[/] " + escape(command_line(entry.example)))
    out.print()
    out.print(f"[bold green]Fix:[/] {escape(entry.example.fix)}")
