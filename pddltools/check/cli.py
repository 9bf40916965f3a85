"""`pddltools check DOMAIN [PROBLEM ...]`: the report for people (rich), machines (JSON) and CI (GitHub).

`--each FILE ...` (what the pre-commit hook runs) checks every file given: each domain once, with the
problems given that are its (found by `pddltools.domain_finder`: the IPC layouts, then the files that
declare the problem's `:domain`), and a problem whose domain is not found alone, saying so (E300).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from pddltools import wording
from pddltools.check.numeric import Fragment
from pddltools.check.report import CheckReport, check_files, check_problem_alone
from pddltools.check.tracks import Fit
from pddltools.consoles import stderr_console, stdout_console
from pddltools.diagnostics import Diagnostic, Severity, render_github, render_rich
from pddltools.dialects import suffixes, track_ids
from pddltools.domain_finder import DomainFinder, Resolution
from pddltools.envelope import envelope, print_json
from pddltools.exit_codes import ExitCode
from pddltools.mapddl.agents import factored_agents
from pddltools.reading import pddl_files

TYPE_CHECKING = False  # typing's flag (mypy reads the name): argparse only for the annotations
if TYPE_CHECKING:
    import argparse

_HEADINGS = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "information"}
_TITLE_NAMES = 10  # problems named in a block's heading; the JSON's `pairs` lists them all
_FRAGMENT_TEXT = {Fragment.SIMPLE: "simple (SNP: fluents only increased or decreased by constants)",
                  Fragment.LINEAR: "linear (LNP: linear assignments and conditions)",
                  Fragment.NONLINEAR: "nonlinear (beyond the IPC-2023 numeric track's SNP and LNP)"}
_FIT_STYLE = {Fit.FITS: "green", Fit.COMPILABLE: "yellow", Fit.UNFIT: "red", Fit.INVALID: "red"}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "check",
        description="Check a domain and its problems: names, arity, types, requirements, functions, "
                    "durative actions; report the features used and a verdict per IPC track.")
    p.add_argument("domain", metavar="DOMAIN", nargs="?", help="the domain file")
    p.add_argument("problems", metavar="PROBLEM", nargs="*", help="problem files checked against DOMAIN")
    p.add_argument("--each", nargs="+", metavar="FILE", default=None,
                   help="check each file given (folders: the .pddl and .hddl files in them), each problem with its "
                        "domain and each domain once (for pre-commit)")
    p.add_argument("--domain", dest="force_domain", metavar="FILE",
                   help="with --each: the domain of every problem, instead of the one found for it")
    p.add_argument("--track", action="append", choices=track_ids(), metavar="TRACK",
                   help=f"only these track verdicts (repeatable): {', '.join(track_ids())}")
    p.add_argument("--strict", action="store_true",
                   help="a feature used without its requirement is an error, and so is what the language "
                        "forbids but planners read one agreed way (W215-W217)")
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.add_argument("--verbose", "-v", action="store_true", help="also show informative findings in text output")
    p.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    blocks: list[Block]
    if args.each is not None:
        if args.domain is not None:
            stderr_console().print("pddltools check: give either DOMAIN [PROBLEM ...] or --each FILE ...",
                                       markup=False)
            return ExitCode.USAGE
        blocks = pair_files(args.each, args.force_domain)
    elif args.force_domain is not None:
        stderr_console().print("pddltools check: --domain goes with --each; otherwise DOMAIN is the first file",
                                   markup=False)
        return ExitCode.USAGE
    elif args.domain is None:
        stderr_console().print("pddltools check: a DOMAIN file is required", markup=False)
        return ExitCode.USAGE
    else:
        agents = factored_agents([args.domain, *args.problems], suffixes())
        if isinstance(agents, str):
            stderr_console().print(f"pddltools check: {agents}", markup=False)
            return ExitCode.USAGE
        blocks = [Block(args.domain, list(args.problems), agents=agents)]
    reports = [block.check(strict=args.strict, tracks=args.track, invariants=args.verbose) for block in blocks]
    if args.format == "json":
        print_json(_envelope(blocks, reports, each=args.each is not None))
    elif args.format == "github":
        lines = render_github([f for r in reports for f in r.findings])
        if lines:
            sys.stdout.write(lines + "\n")
    else:
        out = stdout_console()
        for block, report in zip(blocks, reports, strict=True):
            if args.each is not None:
                out.print(f"[bold reverse] {escape(block.title())} [/]")
            render_report(report, out, verbose=args.verbose, compact=args.each is not None and not args.verbose)
            if args.each is not None:
                out.print()
    if any(r.unreadable for r in reports):
        return ExitCode.USAGE
    return ExitCode.OK if all(r.ok for r in reports) else ExitCode.FINDINGS


def _envelope(blocks: list[Block], reports: list[CheckReport], *, each: bool) -> dict[str, Any]:
    """check's envelope: one check's features and tracks beside `files`; with --each, `checks` lists each
    domain's (and each lone problem's) with its `files` and how each problem's domain was found (`pairs`)."""
    files = [entry for report in reports for entry in report.file_entries()]
    totals = {key: sum(r.summary()[key] for r in reports) for key in ("files", "errors", "warnings", "infos")}
    if not each:
        return envelope("check", files, totals, **reports[0].to_json())
    checks = [{"files": list(r.files), **r.to_json(), "pairs": b.pairs_json()}
              for b, r in zip(blocks, reports, strict=True)]
    return envelope("check", files, totals, checks=checks)


@dataclass
class Block:
    """One check of `--each`: a domain with the problems found to be its (its findings reported once), or a
    problem whose domain was not found."""

    domain: str | None
    problems: list[str] = field(default_factory=list)
    found: dict[str, Resolution] = field(default_factory=dict)  # how each problem's domain was found
    missing: Resolution | None = None  # set for a problem without a domain
    agents: dict[str, dict[str, Path]] | None = None  # set for a factored MA-PDDL task: each agent's files

    def check(self, *, strict: bool, tracks: Sequence[str] | None, invariants: bool = False) -> CheckReport:
        if self.agents is not None:
            from pddltools.mapddl.agents import check_agents

            return check_agents(self.agents, strict=strict, tracks=tracks)
        if self.missing is not None:
            return check_problem_alone(self.missing.problem, self.missing.missing())
        assert self.domain is not None
        ambiguous = {path: found.ambiguity() for path, found in self.found.items() if found.ambiguous}
        return check_files(self.domain, self.problems, strict=strict, tracks=tracks, invariants=invariants,
                           ambiguous=ambiguous)

    def title(self) -> str:
        if self.agents is not None:
            folder = next(iter(self.agents.values()))["domain"].parent
            return f"{folder}: a factored MA-PDDL task of {wording.count(len(self.agents), 'agent')}"
        if self.missing is not None:
            return f"{self.missing.problem}: no domain found"
        if not self.problems:
            return f"{self.domain}"
        base = Path(self.domain or ".").parent
        names = [os.path.relpath(p, base) if Path(p).is_relative_to(base) else p for p in self.problems]
        count = len(names)
        shown = ", ".join(names[:_TITLE_NAMES]) + (f" and {count - _TITLE_NAMES} more" if count > _TITLE_NAMES else "")
        return f"{self.domain} with {wording.count(count, 'problem')}: {shown}"

    def pairs_json(self) -> list[dict[str, Any]]:
        if self.agents is not None:
            return [{"problem": str(pair["problem"]), "domain": str(pair["domain"]), "found_by": "agent", "agent": a}
                    for a, pair in self.agents.items()]
        if self.missing is not None:
            return [{"problem": str(self.missing.problem), "domain": None, "found_by": None}]
        return [{"problem": p, "domain": self.domain, "found_by": self.found[p].rule if p in self.found else "given"}
                for p in self.problems]


def pair_files(files: Sequence[str], domain: str | None = None) -> list[Block]:
    """Domains, each with the problems among `files` that are its (found by `pddltools.domain_finder`, the
    files given searched first by name; `domain` forces one), and problems whose domain was not found.
    Folders stand for the .pddl files under them."""
    paths = list(dict.fromkeys(pddl_files(files, suffixes())))
    factored = _factored_folders(paths) if domain is None else []
    paths = [p for p in paths if not any(p in block_paths for block_paths, _ in factored)]
    finder = DomainFinder(forced=Path(domain) if domain is not None else None, given=paths)
    blocks: dict[str, Block] = {}  # by absolute path: a domain given and found is one block
    unpaired: list[Block] = [Block(str(next(iter(agents.values()))["domain"]), agents=agents)
                             for _, agents in factored]
    for path in paths:
        kind, _ = finder.kind(path)
        if kind != "problem":  # a domain, or a file to be told why it is neither
            blocks.setdefault(os.path.abspath(path), Block(str(path)))
            continue
        found = finder.find(path)
        if found.domain is None:
            unpaired.append(Block(None, missing=found))
            continue
        # named as the problem was: relative to the current folder when the problem's path is relative
        shown = str(found.domain) if path.is_absolute() or domain is not None else os.path.relpath(found.domain)
        block = blocks.setdefault(os.path.abspath(found.domain), Block(shown))
        block.problems.append(str(path))
        block.found[str(path)] = found
    return [*blocks.values(), *unpaired]


def _factored_folders(paths: Sequence[Path]) -> list[tuple[set[Path], dict[str, dict[str, Path]]]]:
    """The folders among `paths` whose files are a factored MA-PDDL task (every file named after its
    agent, each agent with a domain and a problem, more than one file): each checked as one task."""
    from pddltools.mapddl.factored import agent_files

    by_folder: dict[Path, list[Path]] = {}
    for path in paths:
        by_folder.setdefault(path.parent, []).append(path)
    found = []
    for folder_paths in by_folder.values():
        agents = agent_files(folder_paths) if len(folder_paths) > 2 else None
        if agents and all(len(pair) == 2 for pair in agents.values()):
            found.append((set(folder_paths), agents))
    return found


def render_report(report: CheckReport, out: Console, *, verbose: bool = False, compact: bool = False) -> None:
    """The findings by file and severity, then the features used and the track verdicts: each of those in
    full, or (`compact`, for `check --each` over many domains) on one line each."""
    by_file: dict[str | None, list[Diagnostic]] = {}
    for finding in report.findings:
        if finding.severity is Severity.INFO and not verbose:
            continue
        by_file.setdefault(finding.span.file if finding.span else None, []).append(finding)
    for file in [*report.files, *(f for f in by_file if f not in report.files)]:
        findings = by_file.get(file)
        if not findings:
            continue
        # Findings without a place (an unreadable file) are about the files checked: no heading of their own.
        if file is not None:
            out.print(f"[bold underline]{escape(file)}[/]")
        for severity in Severity:
            group = [f for f in findings if f.severity is severity]
            if group:
                out.print(f"[bold]{len(group)} {_HEADINGS[severity] if len(group) != 1 else severity.value}[/]")
                render_rich(group, out)
        out.print()
    if compact:
        _render_compact(report, out)
    elif report.features is not None:
        uses = report.features.uses
        if uses:
            out.print("[bold]Features used[/]")
            for use in uses:
                where = f"  [dim](first at {escape(str(use.span))})[/]" if use.span else ""
                out.print(f"  {use.feature.value}{where}")
        else:
            out.print("[bold]Features used[/]: STRIPS only")
        if report.numeric_fragment is not None:
            out.print(f"[bold]Numeric fragment[/]: {_FRAGMENT_TEXT[report.numeric_fragment]}")
    if report.tracks and not compact:
        out.print("[bold]Tracks[/]")
        width = max(len(t) for t in report.tracks)
        for tid, verdict in report.tracks.items():
            style = _FIT_STYLE[verdict.fit]
            line = f"  {tid:<{width}}  [{style}]{verdict.fit.value:<10}[/] {escape(verdict.explain())}"
            out.print(line)
            command = verdict.compile_command(*report.compile_files())
            if verdict.fit is Fit.COMPILABLE and command:
                out.print(f"  {'':<{width}}  [dim]{escape(command)}[/]")
    counts = (len(report.errors), len(report.warnings), len(report.infos))
    hidden = "" if verbose or not counts[2] else " (shown with --verbose)"
    if compact:
        hidden = " (--verbose shows them, the features' places and every track)" if counts[2] else ""
    out.print(f"{wording.count(counts[0], 'error')}, {wording.count(counts[1], 'warning')}, "
              f"{counts[2]} informative{hidden}")


def _render_compact(report: CheckReport, out: Console) -> None:
    """Features and tracks in two lines: the tracks the task fits counted, the others named with their
    verdict."""
    if report.features is not None:
        names = [use.feature.value for use in report.features.uses]
        out.print(f"[bold]Features[/]: {escape(', '.join(names)) if names else 'STRIPS only'}")
    if not report.tracks:
        return
    fitting = sum(1 for v in report.tracks.values() if v.fit is Fit.FITS)
    others = ", ".join(f"{tid} [{_FIT_STYLE[v.fit]}]{v.fit.value}[/]" for tid, v in report.tracks.items()
                       if v.fit is not Fit.FITS)
    out.print(f"[bold]Tracks[/]: fits {fitting} of {len(report.tracks)}" + (f"; {others}" if others else ""))
