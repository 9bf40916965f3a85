"""`pddltools rddl parse|check|fmt`: thin commands over `pddltools.rddl.loading` and the printer.

The `rddl` group itself, and its other commands (`pddltools.rddlsim.cli`), are in `pddltools.cli`'s table.

Exit codes (`ExitCode`): 0 all well, 1 a file is not valid RDDL or has errors, 2 bad usage or unreadable
input. Diagnostics go to stderr (rich) or, with `--format json|github`, to stdout for machines (json:
`pddltools.envelope`'s envelope).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from pddltools.cli_options import add_fmt_mode
from pddltools.consoles import stderr_console
from pddltools.diagnostics import Diagnostic, Error, render_github, render_rich
from pddltools.envelope import envelope, failure, file_entry, print_json
from pddltools.exit_codes import ExitCode
from pddltools.rddl import ast
from pddltools.rddl.loading import FileResult, check_paths, collect, parse_paths
from pddltools.rddl.printer import format_file
from pddltools.wording import count

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

FORMATS = ("text", "json", "github")


def register(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `parse`, `check` and `fmt` to the `rddl` group's sub-parsers."""
    parse = commands.add_parser("parse")
    parse.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders (every *.rddl below)")
    parse.add_argument("--format", choices=FORMATS, default="text")
    parse.set_defaults(func=run_parse)

    check = commands.add_parser("check")
    check.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders (every *.rddl below)")
    check.add_argument("--format", choices=FORMATS, default="text")
    check.set_defaults(func=run_check)

    fmt = commands.add_parser("fmt")
    add_fmt_mode(fmt, "standard layout")
    fmt.add_argument("--format", choices=FORMATS, default="text")
    fmt.set_defaults(func=run_fmt)


# ---------------------------------------------------------------------------------------------------


def _blocks(rddl: ast.RDDLFile | None) -> list[dict[str, str]]:
    if rddl is None:
        return []
    kinds = {ast.Domain: "domain", ast.NonFluents: "non-fluents", ast.Instance: "instance"}
    return [{"kind": kinds[type(b)], "name": b.name} for b in rddl.blocks]


def _exit_code(results: list[FileResult]) -> int:
    if any(r.unreadable for r in results):
        return ExitCode.USAGE
    return ExitCode.OK if all(r.ok for r in results) else ExitCode.FINDINGS


def _report(results: list[FileResult], output: str, command: str, summary: str, extra: dict[str, Any]) -> None:
    diagnostics = [d for r in results for d in r.diagnostics]
    if output == "json":
        files = [file_entry(r.path, "rddl", r.diagnostics, ok=r.ok, blocks=_blocks(r.rddl),
                            borrowed=[{"kind": kind, "name": name, "path": str(path)}
                                      for kind, name, path in r.borrowed]) for r in results]
        print_json(envelope(command, files, extra))
    elif output == "github":
        if diagnostics:
            print(render_github(diagnostics))
    else:
        render_rich(diagnostics, stderr_console())
        print(summary)


def _usage_error(exc: Error, output: str, command: str) -> int:
    _emit(list(exc.diagnostics), output, command)
    return ExitCode.USAGE


def _emit(diagnostics: list[Diagnostic], output: str, command: str, path: Path | None = None) -> None:
    """Diagnostics that stopped `command` before it had a result; in JSON, in the entry of `path` (or of
    no file: a usage error)."""
    if output == "json":
        if path is None:
            print_json(failure(command, diagnostics))
        else:
            entry = file_entry(path, "rddl", diagnostics, ok=False, changed=False, written=False, text=None)
            print_json(envelope(command, [entry], {"files": 1, "changed": 0, "failed": 1}))
    elif output == "github":
        print(render_github(diagnostics))
    else:
        render_rich(diagnostics, stderr_console())


def run_parse(args: argparse.Namespace) -> int:
    try:
        paths = collect(args.paths)
    except Error as exc:
        return _usage_error(exc, args.format, "rddl parse")
    results = parse_paths(paths)
    failed = sum(1 for r in results if not r.ok)
    blocks = sum(len(r.rddl.blocks) for r in results if r.rddl is not None)
    summary = (f"parsed {count(len(results), 'file')} ({count(blocks, 'block')}): "
               + ("all valid RDDL" if not failed else f"{failed} not valid RDDL"))
    _report(results, args.format, "rddl parse", summary, {"files": len(results), "valid": len(results) - failed,
                                             "invalid": failed, "blocks": blocks})
    return _exit_code(results)


def run_check(args: argparse.Namespace) -> int:
    try:
        paths = collect(args.paths)
    except Error as exc:
        return _usage_error(exc, args.format, "rddl check")
    results = check_paths(paths)
    errors = sum(1 for r in results for d in r.diagnostics if d.is_error)
    warnings = sum(1 for r in results for d in r.diagnostics if not d.is_error)
    bad = sum(1 for r in results if not r.ok)
    if errors or warnings:
        summary = (f"checked {count(len(results), 'file')}: {count(errors, 'error')}, "
                   f"{count(warnings, 'warning')}" + (f" in {count(bad, 'file')}" if bad else ""))
    else:
        summary = f"checked {count(len(results), 'file')}: no problems found"
    borrowed = sorted({(kind, name, str(path)) for r in results for kind, name, path in r.borrowed})
    if borrowed and args.format == "text":
        uses = "; ".join(f"{kind} {name} from {path}" for kind, name, path in borrowed)
        summary += f" (using {uses})"
    _report(results, args.format, "rddl check", summary, {"files": len(results), "with_errors": bad,
                                             "errors": errors, "warnings": warnings})
    return _exit_code(results)


def run_fmt(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if path.is_dir():
        from pddltools.diagnostics import error

        _emit([error("E001", f"{path} is a folder: fmt formats one file")], args.format, "rddl fmt", path)
        return ExitCode.USAGE
    (result,) = parse_paths([path])
    if result.rddl is None:
        _emit(result.diagnostics, args.format, "rddl fmt", path)
        return ExitCode.USAGE if result.unreadable else ExitCode.FINDINGS
    source = result.rddl.span.source if result.rddl.span else None
    try:
        if source is None:
            text = format_file(result.rddl)
        else:
            from pddltools.formatting import format_rddl_source

            moved: list[Diagnostic] = []
            text = format_rddl_source(source, result.rddl, moved)
            result.diagnostics.extend(moved)
    except RecursionError:
        from pddltools.diagnostics import error

        _emit([error("R106", f"{path}: expressions are nested too deeply to print")], args.format, "rddl fmt", path)
        return ExitCode.FINDINGS
    original = source.text if source is not None else ""
    changed = text != original
    if args.check:
        if args.format == "json":
            _fmt_json(path, result.diagnostics, changed=changed, written=False, text=None)
        elif changed:
            stderr_console().print(f"{path} is not in the standard layout (pddltools rddl fmt --write to fix)",
                            markup=False, soft_wrap=True)
        return ExitCode.FINDINGS if changed else ExitCode.OK
    if args.write and changed:
        path.write_text(text, encoding="utf-8")
    if args.format == "json":
        _fmt_json(path, result.diagnostics, changed=changed, written=bool(args.write and changed),
                  text=None if args.write else text)
    elif not args.write:
        sys.stdout.write(text)
    if result.diagnostics and args.format == "text":
        render_rich(result.diagnostics, stderr_console())
    return ExitCode.OK


def _fmt_json(path: Path, diagnostics: list[Diagnostic], *, changed: bool, written: bool, text: str | None) -> None:
    """`rddl fmt`'s envelope, shaped as PDDL `fmt`'s: one file, whether it changed, was written, its layout."""
    entry = file_entry(path, "rddl", diagnostics, changed=changed, written=written, text=text)
    print_json(envelope("rddl fmt", [entry], {"files": 1, "changed": int(changed), "failed": 0}))


