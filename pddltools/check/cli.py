"""`pddltools check DOMAIN [PROBLEM ...]`: the report for people (rich), machines (JSON) and CI (GitHub).

`--each FILE ...` (what the pre-commit hook runs) checks every file given: a domain alone, a problem
with its domain, found by its `:domain` name among the files given and beside the problem.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from pddltools.check.report import CheckReport, check_files
from pddltools.check.tracks import TRACK_IDS, Fit
from pddltools.diagnostics import Diagnostic, InputError, Severity, read_source, render_github, render_rich

_HEADINGS = {Severity.ERROR: "errors", Severity.WARNING: "warnings", Severity.INFO: "information"}
_FIT_STYLE = {Fit.FITS: "green", Fit.COMPILABLE: "yellow", Fit.UNFIT: "red", Fit.INVALID: "red"}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser(
        "check", help="semantic checks, the features a task uses and the IPC tracks it fits",
        description="Check a domain and its problems: names, arity, types, requirements, functions, "
                    "durative actions; report the features used and a verdict per IPC track.")
    p.add_argument("domain", metavar="DOMAIN", nargs="?", help="the domain file")
    p.add_argument("problems", metavar="PROBLEM", nargs="*", help="problem files checked against DOMAIN")
    p.add_argument("--each", nargs="+", metavar="FILE", default=None,
                   help="check each file given, pairing problems with their domain (for pre-commit)")
    p.add_argument("--track", action="append", choices=TRACK_IDS, metavar="TRACK",
                   help=f"only these track verdicts (repeatable): {', '.join(TRACK_IDS)}")
    p.add_argument("--strict", action="store_true",
                   help="a feature used without its requirement is an error, and so is what the language "
                        "forbids but planners read one agreed way (W215-W217)")
    p.add_argument("--format", choices=("text", "json", "github"), default="text")
    p.add_argument("--verbose", "-v", action="store_true", help="also show informative findings in text output")
    p.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    if args.each is not None:
        if args.domain is not None:
            Console(stderr=True).print("pddltools check: give either DOMAIN [PROBLEM ...] or --each FILE ...",
                                       markup=False)
            return 2
        jobs = pair_files(args.each)
    elif args.domain is None:
        Console(stderr=True).print("pddltools check: a DOMAIN file is required", markup=False)
        return 2
    else:
        jobs = [(args.domain, list(args.problems))]
    reports = [check_files(domain, problems, strict=args.strict, tracks=args.track) for domain, problems in jobs]
    if args.format == "json":
        data: Any = reports[0].to_json() if args.each is None else [r.to_json() for r in reports]
        json.dump(data, sys.stdout, indent=2)
        sys.stdout.write("\n")
    elif args.format == "github":
        lines = render_github([f for r in reports for f in r.findings])
        if lines:
            sys.stdout.write(lines + "\n")
    else:
        out = Console(highlight=False, soft_wrap=True)
        for report in reports:
            render_report(report, out, verbose=args.verbose)
    if any(r.unreadable for r in reports):
        return 2
    return 0 if all(r.ok for r in reports) else 1


def pair_files(files: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Domains alone, and each problem with the domain its `:domain` names (among the files given, then
    the .pddl files beside the problem and in its parent folder). Unpaired problems are checked against
    nothing but still parsed, so that syntax errors show."""
    domains: dict[str, str] = {}
    problems: list[tuple[str, str | None]] = []
    jobs: list[tuple[str, list[str]]] = []
    for path in files:
        kind, name = _peek(path)
        if kind == "domain" and name is not None:
            domains.setdefault(name, path)
            jobs.append((path, []))
        elif kind == "problem":
            problems.append((path, name))
        else:
            jobs.append((path, []))  # unreadable or not PDDL: check_files reports why
    for path, domain_name in problems:
        domain = domains.get(domain_name or "") or _domain_beside(Path(path), domain_name)
        if domain is None:
            jobs.append((path, []))
        else:
            jobs.append((domain, [path]))
    return jobs


def _peek(path: str) -> tuple[str | None, str | None]:
    """Whether a file defines a domain or a problem, and the domain's name, read cheaply from its head."""
    try:
        text = read_source(path).text[:20000].lower()
    except InputError:
        return None, None
    import re

    domain = re.search(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", text)
    if domain:
        return "domain", domain.group(1)
    problem = re.search(r"\(\s*:domain\s+([^\s()]+)", text)
    if problem:
        return "problem", problem.group(1)
    return None, None


def _domain_beside(problem: Path, name: str | None) -> str | None:
    if name is None:
        return None
    for folder in (problem.parent, problem.parent.parent):
        for candidate in sorted(folder.glob("*.pddl")):
            if candidate != problem and _peek(str(candidate)) == ("domain", name):
                return str(candidate)
    return None


def render_report(report: CheckReport, out: Console, *, verbose: bool = False) -> None:
    by_file: dict[str | None, list[Diagnostic]] = {}
    for finding in report.findings:
        if finding.severity is Severity.INFO and not verbose:
            continue
        by_file.setdefault(finding.span.file if finding.span else None, []).append(finding)
    for file in [*report.files, *(f for f in by_file if f not in report.files)]:
        findings = by_file.get(file)
        if not findings:
            continue
        out.print(f"[bold underline]{escape(file or 'elsewhere')}[/]")
        for severity in Severity:
            group = [f for f in findings if f.severity is severity]
            if group:
                out.print(f"[bold]{len(group)} {_HEADINGS[severity] if len(group) != 1 else severity.value}[/]")
                render_rich(group, out)
        out.print()
    if report.features is not None:
        uses = report.features.uses
        if uses:
            out.print("[bold]Features used[/]")
            for use in uses:
                where = f"  [dim](first at {escape(str(use.span))})[/]" if use.span else ""
                out.print(f"  {use.feature.value}{where}")
        else:
            out.print("[bold]Features used[/]: STRIPS only")
    if report.tracks:
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
    out.print(f"{counts[0]} error{'s' * (counts[0] != 1)}, {counts[1]} warning{'s' * (counts[1] != 1)}, "
              f"{counts[2]} informative{hidden}")
