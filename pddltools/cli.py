"""The `pddltools` command: one sub-command per job, each a thin layer over the Python API.

Exit codes: 0 ok, 1 findings (a file does not parse, a check failed), 2 usage or unreadable input.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pddltools import __version__
from pddltools.cli_options import add_fmt_mode

# Imported where they are used, not here: `pddltools --version` and the commands of other packages
# would pay for rich's console and the parser on every start (`python -X importtime`).
if TYPE_CHECKING:
    from rich.console import Console

    from pddltools.pddl import ast


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if _command(arguments) is None and "--version" in arguments and not {"-h", "--help"} & set(arguments):
        print(_version())  # without registering every command's package, as argparse would need
        return 0
    parser = build_parser(_command(arguments))
    args = parser.parse_args(arguments)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `pddltools fmt big.pddl | head`
        return 0


def _version() -> str:
    from pddltools.frozen import speedups

    parser = ("compiled parser" if speedups is not None
              else "parser in pure Python: pddltools._speedups was not built (no C compiler at install time)")
    return f"pddltools {__version__} ({parser})"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (given the sub-command about to run) just what that command needs."""
    parser = argparse.ArgumentParser(
        prog="pddltools",
        description="Language tooling for automated planning: PDDL and RDDL.",
    )
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    p = sub.add_parser("parse", help="parse PDDL files and folders, one summary line per file")
    p.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders searched for *.pddl")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=cmd_parse)

    f = sub.add_parser("fmt", help="print a PDDL file in the canonical layout")
    add_fmt_mode(f, "canonical layout")
    f.set_defaults(func=cmd_fmt)

    if command not in ("parse", "fmt"):
        _register_optional(sub, command)
    return parser


#: Sub-commands that live in their own packages: the module that registers them, and their names. Only
#: the module of the command being run is imported, so that `pddltools validate --batch` does not pay
#: for importing the scorer, the language server and the simulator (tests/test_cli_plugins.py keeps
#: the names in step with what each module registers).
PLUGINS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pddltools.check.cli", ("check",)),
    ("pddltools.compile.cli", ("compile", "unmap")),
    ("pddltools.validate.cli", ("validate",)),
    ("pddltools.score.cli", ("run", "learn", "score", "select", "report")),
    ("pddltools.rddl.cli", ("rddl",)),
    ("pddltools.lsp.cli", ("lsp",)),
)


def _register_optional(sub: Any, command: str | None = None) -> None:
    """Register the plugin that provides `command`, or every plugin (for --help, or an unknown name)."""
    wanted = [module for module, names in PLUGINS if command in names]
    for module in wanted or [module for module, _ in PLUGINS]:
        importlib.import_module(module).register(sub)


def _command(argv: Sequence[str]) -> str | None:
    """The sub-command named on the command line: the first argument that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _stderr() -> Console:
    from rich.console import Console

    return Console(stderr=True, highlight=False, soft_wrap=True)


def _stdout() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


# -------------------------------------------------------------------------------------------------
# pddltools parse


def pddl_files(paths: Sequence[str]) -> Iterator[Path]:
    """The files named, and every *.pddl below the folders named, in a stable order."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() == ".pddl" and p.is_file())
        else:
            yield path


def summary(node: ast.Domain | ast.Problem) -> dict[str, Any]:
    from pddltools.pddl import ast

    if isinstance(node, ast.Domain):
        counts = {
            "requirements": len(node.requirements),
            "types": len(node.types),
            "constants": len(node.constants),
            "predicates": len(node.predicates),
            "functions": len(node.functions),
            "actions": len(node.actions),
            "durative_actions": len(node.durative_actions),
            "derived_predicates": len(node.derived_predicates),
        }
        return {"kind": "domain", "name": node.name, "counts": counts}
    counts = {
        "objects": len(node.objects),
        "init": len(node.init),
        "goal_atoms": sum(1 for n in node.goal.walk() if isinstance(n, ast.Atom)) if node.goal else 0,
    }
    return {"kind": "problem", "name": node.name, "domain": node.domain, "counts": counts}


def _summary_line(path: Path, info: dict[str, Any]) -> str:
    counts = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in info["counts"].items() if v)
    head = f"{info['kind']} {info['name']}"
    if info["kind"] == "problem":
        head += f" (domain {info['domain']})"
    return f"{path}: {head}: {counts or 'empty'}"


def cmd_parse(args: argparse.Namespace) -> int:
    from pddltools.diagnostics import Diagnostic, Error, InputError, read_source, render_rich
    from pddltools.pddl.parser import parse

    out, err = _stdout(), _stderr()
    results: list[dict[str, Any]] = []
    failed = unreadable = 0
    for path in pddl_files(args.paths):
        warnings: list[Diagnostic] = []
        entry: dict[str, Any] = {"file": str(path)}
        try:
            node = parse(read_source(path), warnings=warnings)
        except Error as exc:
            if isinstance(exc, InputError):
                unreadable += 1
            else:
                failed += 1
            entry.update(kind=None, name=None, errors=[d.to_json() for d in exc.diagnostics])
            if args.format == "text":
                render_rich([*warnings, *exc.diagnostics], err)
        else:
            entry.update(summary(node), errors=[])
            if args.format == "text":
                render_rich(warnings, err)
                out.print(_summary_line(path, entry), markup=False)
        entry["warnings"] = [w.to_json() for w in warnings]
        results.append(entry)
    if not results:
        err.print("pddltools parse: no .pddl files found in " + ", ".join(args.paths), markup=False)
        return 2
    if args.format == "json":
        json.dump({"files": results, "parsed": len(results) - failed - unreadable,
                   "failed": failed + unreadable}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif failed or unreadable:
        err.print(f"{failed + unreadable} of {len(results)} files failed", markup=False)
    if unreadable:
        return 2
    return 1 if failed else 0


# -------------------------------------------------------------------------------------------------
# pddltools fmt


def cmd_fmt(args: argparse.Namespace) -> int:
    from pddltools.diagnostics import Error, InputError, read_source, render_rich
    from pddltools.pddl.parser import parse

    err = _stderr()
    path = Path(args.file)
    try:
        source = read_source(path)
        node = parse(source)
    except Error as exc:
        render_rich(exc.diagnostics, err)
        return 2 if isinstance(exc, InputError) else 1
    formatted = str(node)
    if args.check:
        if source.text != formatted:
            err.print(f"{path} is not formatted (run pddltools fmt --write {path})", markup=False)
            return 1
        return 0
    if args.write:
        if _has_comments(source.text) and not args.drop_comments:
            err.print(f"{path} has comments, which the formatter does not keep; "
                      "pass --drop-comments to rewrite it anyway", markup=False)
            return 2
        if source.text != formatted:
            path.write_text(formatted, encoding="utf-8")
        return 0
    sys.stdout.write(formatted)
    return 0


def _has_comments(text: str) -> bool:
    return ";" in text


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
