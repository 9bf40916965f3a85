"""The `pddltools` command: one sub-command per job, each a thin layer over the Python API.

Exit codes are `pddltools.exit_codes.ExitCode` (0 ok, 1 findings, 2 usage or unreadable input, 130
interrupted); `--format json` prints `pddltools.envelope`'s envelope.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pddltools.cli_record import Recorder, TranslationsFoundOnce, read
from pddltools.exit_codes import ExitCode, worst
from pddltools.wording import count

# Imported where they are used, not here: `pddltools --version` and the commands of other packages
# would pay for rich's console and the parser on every start (`python -X importtime`).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any

    from rich.console import Console

    from pddltools.diagnostics import Diagnostic


def main(argv: Sequence[str] | None = None, *, prog: str = "pddltools") -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if _command(arguments) is None and "--version" in arguments and not {"-h", "--help"} & set(arguments):
        print(_version())  # without registering every command's package, as argparse would need
        return ExitCode.OK
    words = _words(arguments)
    if not words:  # --help, or nothing: no command's modules to import
        return _run(record(prog=prog), arguments)
    return _run(record(words[0], prog=prog, subcommand=words[1] if len(words) > 1 else None), arguments)


def _run(recording: Recorder, arguments: list[str]) -> int:
    """Read the command line from the commands' declarations; what the reader declines (help, a usage
    error, a form it does not know) argparse parses, from the same declarations."""
    args: Any = read(recording, arguments)
    if args is None or not hasattr(args, "func"):
        from pddltools.cli_argparse import parse_command_line

        with TranslationsFoundOnce():
            parser = recording.replay()
            args = parse_command_line(parser, arguments)
            if not hasattr(args, "func"):
                parser.print_help()
                return ExitCode.USAGE
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # `pddltools fmt big.pddl | head`
        return ExitCode.OK


def _version() -> str:
    from pddltools.version import version

    return version()


def build_parser(command: str | None = None, *, prog: str = "pddltools",
                 subcommand: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or (given the sub-command about to run, and in a group the group's
    command) just what that command needs, as argparse's parser."""
    return record(command, prog=prog, subcommand=subcommand).replay()


def record(command: str | None = None, *, prog: str = "pddltools", subcommand: str | None = None) -> Recorder:
    """The declarations of `build_parser`'s parser, recorded (`pddltools.cli_record`): read directly, or
    replayed onto argparse."""
    parser = Recorder(
        prog=prog,
        description="Language tooling for automated planning: PDDL and RDDL.",
    )
    # the text asked for at replay: it loads the compiled parser's file to say whether it is built, which
    # costs a command read without argparse importlib.util and contextlib, for a flag it is not given
    parser.add_argument("--version", action="version", version=_version)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")

    # `parse` and `fmt` live here; another command about to run has no use for their parsers (two
    # argument parsers: half a millisecond of a fresh process), an unknown word lists them among all
    if command is None or command in ("parse", "fmt") or not is_command(command):
        from pddltools.cli_options import add_fmt_mode

        p = sub.add_parser("parse", help="parse PDDL and HDDL files and folders, one summary line per file")
        p.add_argument("paths", nargs="+", metavar="PATH", help="files, or folders searched for *.pddl and *.hddl")
        p.add_argument("--format", choices=("text", "json"), default="text")
        p.set_defaults(func=cmd_parse)

        f = sub.add_parser("fmt", help="print PDDL and HDDL files in the canonical layout, check or rewrite them")
        add_fmt_mode(f, "canonical layout", several=True)
        f.add_argument("--format", choices=("text", "json"), default="text",
                       help="json: the envelope, each file's canonical layout in `text` (none with --check/--write)")
        f.set_defaults(func=cmd_fmt)

    if command not in ("parse", "fmt"):
        _register_commands(sub, command, subcommand)
    return parser


@dataclass(frozen=True)  # not a NamedTuple: namedtuple compiles its class afresh on every start
class Commands:
    """A module's commands: its `register(subparsers)` adds exactly `names` to the sub-parsers it is
    given, the top level's or, with `group`, those of that group (`pddltools rddl ...`). `helps` are the
    commands' one-line help, here and not in the modules, so that `pddltools --help` lists every command
    without importing a command's package."""

    module: str
    names: tuple[str, ...]
    helps: tuple[str, ...]
    group: str | None = None


#: Every command that lives in its own package, in one table. The table, not the packages, decides where
#: a command goes: no package imports another's CLI to add its commands (tests/test_cli_plugins.py).
#: Only the module of the command being run is imported, so that `pddltools validate --batch` does not
#: pay for importing the scorer, the language server and the simulator.
COMMAND_TABLE: tuple[Commands, ...] = (
    Commands("pddltools.check.cli", ("check",),
             ("semantic checks, the features a task uses and the IPC tracks it fits",)),
    Commands("pddltools.compile.cli", ("compile", "unmap"),
             ("compile optional features away (ADL, derived predicates, typing, costs)",
              "turn a plan of a compiled task into a plan of the original")),
    Commands("pddltools.analysis.cli", ("ground", "test"),
             ("the grounded task (reachable atoms and actions only) as STRIPS PDDL or Fast Downward SAS",
              "run a domain's test suite (SUITE.toml): plans valid with a value or failing at a step, problems "
              "relaxed-unsolvable, atoms reachable")),
    Commands("pddltools.validate.cli", ("validate",),
             ("validate plans against a domain and problem (as VAL does)",)),
    Commands("pddltools.view.cli", ("view",), ("write a validated plan as one self-contained HTML page",)),
    Commands("pddltools.score.cli", ("run", "learn", "score", "select", "report"),
             ("run planners over a problem set under limits; results into SQLite",
              "learning tracks: IPC-2011 (training set, learning, knowledge hash, reproduction check) or IPC-2023 "
              "(learn, then plan on the test tasks)",
              "score results with the IPC rules",
              "choose instances by the IPC-2014 method",
              "write one self-contained HTML report with plots")),
    Commands("pddltools.rddl.cli", ("parse", "check", "fmt"),
             ("check that files are RDDL; list their blocks",
              "parse and type-check; instances are checked against their domain (looked for beside them when "
              "not given)",
              "print a file in the standard layout (to stdout)"), group="rddl"),
    Commands("pddltools.rddlsim.cli", ("simulate", "serve", "client", "score"),
             ("run rounds of an instance offline under a policy",
              "serve every instance of the folders over the RDDLSim protocol",
              "play one session against an RDDLSim server",
              "IPPC scores from a results log"), group="rddl"),
    Commands("pddltools.ppddl.cli", ("simulate", "serve", "client", "score"),
             ("run rounds of a PPDDL problem offline under a policy, as mdpsim simulates it",
              "serve every problem of the files over mdpsim's protocol",
              "play one session against an mdpsim server",
              "IPPC scores (successes, mean reward, time) from a results log"), group="ppddl"),
    Commands("pddltools.lsp.cli", ("lsp",),
             ("the language server for PDDL, HDDL and RDDL (Language Server Protocol over stdio, for editors)",)),
    Commands("pddltools.explain", ("explain",), ("explain a diagnostic code (E201, R106 ...), or list every code",)),
    Commands("pddltools.schemas", ("schema",), ("print the JSON Schema of a command's --format json output",)),
)

#: The groups of commands, with their help lines.
GROUPS: dict[str, str] = {
    "rddl": "parse, type-check, format and simulate RDDL; serve and play the RDDLSim protocol",
    "ppddl": "simulate PPDDL as mdpsim does; serve and play mdpsim's protocol; IPPC scores",
}


class TableSubparsers:
    """The sub-parsers a module registers its commands into: each command's help line comes from
    `COMMAND_TABLE` (a module giving its own is refused, so the table stays the one place)."""

    def __init__(self, action: Any, entry: Commands) -> None:
        self._action = action
        self._helps = dict(zip(entry.names, entry.helps, strict=True))

    def add_parser(self, name: str, **options: Any) -> Any:
        """The sub-command's parser: a `Recorder` (or, given argparse's sub-parsers, argparse's parser)."""
        if "help" in options:
            raise TypeError(f"the help line of {name!r} belongs in pddltools.cli.COMMAND_TABLE")
        return self._action.add_parser(name, help=self._helps[name], **options)


def _register_commands(sub: Any, command: str | None = None, subcommand: str | None = None) -> None:
    """Register the commands the command line names (`command`, and within a group `subcommand`); for
    --help or an unknown name, every command by its help line alone, importing no command's package."""
    if command in GROUPS:
        wanted = [c for c in COMMAND_TABLE if c.group == command and subcommand in c.names]
        chosen = wanted or [c for c in COMMAND_TABLE if c.group == command]
    else:
        chosen = [c for c in COMMAND_TABLE if c.group is None and command in c.names]
    if not chosen:
        for entry in COMMAND_TABLE:
            if entry.group is None:
                for name, line in zip(entry.names, entry.helps, strict=True):
                    sub.add_parser(name, help=line, add_help=False)
        for group, line in GROUPS.items():
            sub.add_parser(group, help=line, add_help=False)
        return
    groups: dict[str, Any] = {}
    for entry in chosen:
        if entry.group is None:
            importlib.import_module(entry.module).register(TableSubparsers(sub, entry))
            continue
        if entry.group not in groups:
            parser = sub.add_parser(entry.group, help=GROUPS[entry.group])
            groups[entry.group] = parser.add_subparsers(dest=f"{entry.group}_command", required=True,
                                                        metavar="COMMAND")
        importlib.import_module(entry.module).register(TableSubparsers(groups[entry.group], entry))


def is_command(word: str) -> bool:
    """Whether `word` names a command or a group of commands of `COMMAND_TABLE`."""
    return any(word in c.names or word == c.group for c in COMMAND_TABLE)


def _words(argv: Sequence[str]) -> list[str]:
    """The arguments that are not options: the sub-command, then (in a group) the group's command."""
    return [arg for arg in argv if not arg.startswith("-")]


def _command(argv: Sequence[str]) -> str | None:
    """The sub-command named on the command line: the first argument that is not an option."""
    return next(iter(_words(argv)), None)


def _stderr() -> Console:
    from pddltools.consoles import stderr_console

    return stderr_console()


def _stdout() -> Console:
    from pddltools.consoles import stdout_console

    return stdout_console()


# -------------------------------------------------------------------------------------------------
# pddltools parse


def _summary_line(path: Path, info: dict[str, Any]) -> str:
    counts = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in info["counts"].items() if v)
    head = f"{info['kind']} {info['name']}"
    if info["kind"] == "problem" and "domain" in info:  # a contingent file of hidden states names none
        head += f" (domain {info['domain']})"
    return f"{path}: {head}: {counts or 'empty'}"


def cmd_parse(args: argparse.Namespace) -> int:
    from pddltools.envelope import envelope, print_json
    from pddltools.progress import progress_bar

    out, err = _stdout(), _stderr()
    results: list[dict[str, Any]] = []
    statuses: list[ExitCode] = []
    started = time.perf_counter()
    from pddltools.dialects import suffixes
    from pddltools.reading import pddl_files

    paths = list(pddl_files(args.paths, suffixes()))
    with progress_bar(err) as progress:
        bar = progress.add_task("parsing", total=len(paths))
        for path in paths:
            entry, status = _parse_one(path, args.format, out, err)
            results.append(entry)
            statuses.append(status)
            progress.advance(bar)
    seconds = time.perf_counter() - started
    if not results:
        err.print(f"pddltools parse: no {' or '.join(suffixes())} files found in " + ", ".join(args.paths),
                  markup=False)
        return ExitCode.USAGE
    failed = sum(1 for status in statuses if status is not ExitCode.OK)
    if args.format == "json":
        print_json(envelope("parse", results, {"files": len(results), "parsed": len(results) - failed,
                                               "failed": failed, "seconds": round(seconds, 3)}))
    else:
        err.print(_parse_summary(results, failed, seconds), markup=False)
    return worst(*statuses)


def _parse_one(path: Path, fmt: str, out: Console, err: Console) -> tuple[dict[str, Any], ExitCode]:
    """One file's entry of `parse`'s envelope (and its line, or its diagnostics, in text), and its status."""
    from pddltools import dialects
    from pddltools.diagnostics import Error, InputError, render_rich
    from pddltools.envelope import file_entry
    from pddltools.reading import read_source

    warnings: list[Diagnostic] = []
    try:
        node = dialects.parse(read_source(path), None, warnings)
    except Error as exc:
        if fmt == "text":
            render_rich([*warnings, *exc.diagnostics], err)
        status = ExitCode.USAGE if isinstance(exc, InputError) else ExitCode.FINDINGS
        return file_entry(path, None, [*exc.diagnostics, *warnings], ok=False, name=None), status
    info = dialects.summary(node)
    if fmt == "text":
        render_rich(warnings, err)
        out.print(_summary_line(path, info), markup=False)
    return file_entry(path, info.pop("kind"), warnings, ok=True, **info), ExitCode.OK


def _parse_summary(results: list[dict[str, Any]], failed: int, seconds: float) -> str:
    """`4850 files in 12.3 s: 272 domains, 4577 problems, 1 failed`."""
    kinds = [entry["kind"] for entry in results]
    parts = [count(n, kind) for kind in ("domain", "problem") if (n := kinds.count(kind))]
    parts.append(f"{failed} failed")
    files = count(len(results), "file")
    return f"{files} in {seconds:.1f} s: {', '.join(parts)}"


# -------------------------------------------------------------------------------------------------
# pddltools fmt


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print (several files: each after a `; ==> FILE <==` comment line), check or rewrite. Every comment
    and blank-line group is kept; a comment the layout had to move is reported (W121)."""
    from pathlib import Path

    from pddltools.diagnostics import Error, InputError, render_rich
    from pddltools.formatting import format_pddl
    from pddltools.reading import read_source

    err = _stderr()
    formatted: list[tuple[Path, str, str, list[Diagnostic]]] = []  # path, its text, its layout, the moves
    failures: list[dict[str, Any]] = []  # the envelope's entries of files that could not be formatted
    status = ExitCode.OK
    for path in map(Path, args.files):
        try:
            source = read_source(path)
            warnings: list[Diagnostic] = []
            layout = format_pddl(source, warnings)
            moved = [w for w in warnings if w.code == "W121"]
            formatted.append((path, source.text, layout, moved))
            if moved and args.format == "text":
                render_rich(moved, err)
        except Error as exc:
            if args.format == "text":
                render_rich(exc.diagnostics, err)
            failures.append({"path": str(path), "diagnostics": exc.diagnostics})
            status = worst(status, ExitCode.USAGE if isinstance(exc, InputError) else ExitCode.FINDINGS)
    changed = [(path, text, layout) for path, text, layout, _ in formatted if text != layout]
    written = False
    if args.check:
        if args.format == "text":
            for path, _, _ in changed:
                err.print(f"{path} is not formatted (run pddltools fmt --write {path})", markup=False)
        status = worst(status, ExitCode.FINDINGS if changed else ExitCode.OK)
    elif args.write:
        for path, _, layout in changed:
            path.write_text(layout, encoding="utf-8")
        written = True
    elif args.format == "text":
        for path, _, layout, _ in formatted:
            if len(args.files) > 1:
                sys.stdout.write(f"; ==> {path} <==\n")
            sys.stdout.write(layout)
    if args.format == "json":
        _fmt_json(formatted, failures, written=written, text=not (args.check or args.write))
    return status


def _fmt_json(formatted: list[tuple[Path, str, str, list[Diagnostic]]], failures: list[dict[str, Any]], *,
              written: bool, text: bool) -> None:
    """fmt's envelope: per file whether it `changed` (is not in the canonical layout), was `written`, and
    (when neither --check nor --write) its canonical layout as `text`."""
    from pddltools.envelope import envelope, file_entry, print_json

    files = [file_entry(path, _language(path), moved, changed=old != new, written=written and old != new,
                        text=new if text else None) for path, old, new, moved in formatted]
    files += [file_entry(f["path"], _language(f["path"]), f["diagnostics"], ok=False, changed=False, written=False,
                         text=None) for f in failures]
    changed = sum(1 for f in files if f["changed"])
    print_json(envelope("fmt", files, {"files": len(files), "changed": changed,
                                       "failed": len(failures)}))


def _language(path: str | Path) -> str:
    from pddltools import dialects

    return dialects.of_path(path).name



if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
