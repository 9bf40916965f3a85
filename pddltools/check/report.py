"""`check`: every finding, the features used and the track verdicts for a domain and its problems."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pddltools.check.durative import check_durative_actions
from pddltools.check.facts import DomainFacts
from pddltools.check.features import FeatureSet, detect, object_functions
from pddltools.check.fluents import uninitialised_functions
from pddltools.check.informative import domain_information, unreachable_goals
from pddltools.check.memo import InitMemo
from pddltools.check.names import NameChecker
from pddltools.check.numeric import Fragment, numeric_fragment
from pddltools.check.pddlplus import check_pddlplus
from pddltools.check.reachability import contradictions, invariant_findings, reachability_findings
from pddltools.check.requirements import check_requirements
from pddltools.check.symbols import domain_symbols, problem_symbols
from pddltools.check.tracks import Fit, Verdict, verdicts, with_errors
from pddltools.diagnostics import Diagnostic, Error, InputError, Severity, Source, Span
from pddltools.pddl import ast
from pddltools.pddl.zero_ary import resolve_problem, resolve_zero_ary, zero_ary_functions
from pddltools.reading import read_source


@dataclass(frozen=True, repr=False)
class CheckReport:
    files: tuple[str, ...]
    findings: tuple[Diagnostic, ...]
    features: FeatureSet | None  # None when the domain could not be parsed
    tracks: dict[str, Verdict] = field(default_factory=dict)
    unreadable: bool = False  # a file could not be read at all (the CLI exits 2)
    numeric_fragment: Fragment | None = None  # the IPC-2023 numeric track's SNP/LNP, or None: not numeric

    @property
    def errors(self) -> list[Diagnostic]:
        return [f for f in self.findings if f.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [f for f in self.findings if f.severity is Severity.WARNING]

    @property
    def infos(self) -> list[Diagnostic]:
        return [f for f in self.findings if f.severity is Severity.INFO]

    @property
    def ok(self) -> bool:
        return not self.errors and not self.unreadable

    def __str__(self) -> str:
        """One line: the files, the findings counted, the tracks the task fits."""
        named = Path(self.files[0]).name if self.files else "nothing"
        if len(self.files) > 1:
            named += f" + {len(self.files) - 1} problem{'s' * (len(self.files) > 2)}"
        counts = self.summary()
        line = f"{named}: {counts['errors']} errors, {counts['warnings']} warnings, {counts['infos']} informative"
        if self.tracks:
            fitting = sum(1 for v in self.tracks.values() if v.fit is Fit.FITS)
            line += f"; fits {fitting} of {len(self.tracks)} tracks"
        return line

    def __repr__(self) -> str:
        return f"<CheckReport {self}>"

    def compile_files(self) -> tuple[str, str]:
        return (self.files[0] if self.files else "DOMAIN", self.files[1] if len(self.files) > 1 else "PROBLEM")

    def file_entries(self) -> list[dict[str, Any]]:
        """The envelope's `files`: the domain, then the problems, each with its findings (a lone problem
        whose domain was not found, E300, is a problem)."""
        from pddltools.envelope import placed

        alone = self.features is None and len(self.files) == 1 and any(f.code == "E300" for f in self.findings)
        kinds = ["problem" if alone else "domain", *("problem" for _ in self.files[1:])]
        return placed(list(zip(self.files, kinds, strict=True)), self.findings)

    def summary(self) -> dict[str, int]:
        return {"files": len(self.files), "errors": len(self.errors), "warnings": len(self.warnings),
                "infos": len(self.infos)}

    def to_json(self) -> dict[str, Any]:
        """What the check found beside the findings: the features used and the track verdicts."""
        features = self.features.uses if self.features is not None else ()
        return {
            "features": [use.feature.value for use in features],
            "numeric_fragment": self.numeric_fragment.value if self.numeric_fragment is not None else None,
            "feature_uses": [
                {"feature": use.feature.value, "file": use.span.file if use.span else None,
                 "line": use.span.line if use.span else None, "column": use.span.column if use.span else None}
                for use in features
            ],
            "tracks": {tid: v.fit.value for tid, v in self.tracks.items()},
            "track_details": {
                tid: {"verdict": v.fit.value, "explanation": v.explain(),
                      "compile": v.compile_command(*self.compile_files()),
                      "optional_used": [f.value for f in v.optional_used],
                      "to_compile": [f.value for f in v.to_compile],
                      "ruled_out_by": [f.value for f in v.ruled_out_by]}
                for tid, v in self.tracks.items()
            },
        }


def check(domain: ast.Domain, problems: Sequence[ast.Problem] = (), *, strict: bool = False,
          tracks: Iterable[str] | None = None, stand_ins: Mapping[str, str] | None = None,
          reachability: bool = True, invariants: bool = False, memo: InitMemo | None = None) -> CheckReport:
    """Check parsed files. Findings come in file order (domain first), each file top to bottom.
    `stand_ins`: actions that stand in for a construct of a language built on PDDL (HDDL's methods),
    named in findings by that construct's word. `reachability`: also the findings of relaxed reachability
    (`check.reachability`); HDDL's checker leaves them out, since methods, not goals, decide what an HTN
    plan reaches. `invariants`: also the mutex groups of the first problem (I413; the task is ground for
    them: `check --verbose` asks). `memo`: where the findings of the problems' :init sections are kept
    between checks of the same parsed sections (the language server's, `pddltools.check.memo`)."""
    zero_ary = zero_ary_functions(domain)  # `(> v 5)`: v a 0-ary function, not an object
    parsed = domain  # resolving builds a new domain each time: the memo knows the one parsed
    domain = resolve_zero_ary(domain, zero_ary)
    problems = [resolve_problem(problem, zero_ary) for problem in problems]
    findings: list[Diagnostic] = []
    symbols = domain_symbols(domain, strict=strict, stand_ins=stand_ins)
    findings += symbols.findings
    names = NameChecker(symbols)
    names.domain()
    findings += names.findings
    findings += check_durative_actions(domain)
    findings += check_pddlplus(domain)
    facts = DomainFacts.of(domain)
    findings += domain_information(domain, facts)
    functions = object_functions(domain)
    for problem in problems:
        table = problem_symbols(symbols, problem, facts.preferences, strict=strict)
        findings += table.findings
        problem_names = NameChecker(symbols, table)
        problem_names.problem_parts(memo, (parsed, strict) if memo is not None else ())
        findings += problem_names.findings
        findings += unreachable_goals(domain, problem, facts)
        findings += uninitialised_functions(domain, problem, facts, functions)
    # on a task with errors, reachability's findings would be guesses
    if reachability and not any(f.severity is Severity.ERROR for f in findings):
        findings += contradictions(domain, problems)
        findings += reachability_findings(domain, problems, facts, invariants=invariants)
    features = detect(domain, problems, changed=frozenset(facts.changed_functions))
    findings += check_requirements(domain, problems, features, strict=strict)
    files = tuple(_file_of(node) for node in (domain, *problems))
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return CheckReport(files, tuple(in_file_order(findings, files)), features,
                       verdicts(features, tracks, errors=errors,
                                maximises=any(p.metric is not None and p.metric.direction == "maximize"
                                              for p in problems)),
                       numeric_fragment=numeric_fragment(domain, problems, facts.changed_functions))


def check_files(domain_path: str | Path, problem_paths: Sequence[str | Path] = (), *, strict: bool = False,
                tracks: Iterable[str] | None = None, invariants: bool = False,
                ambiguous: Mapping[str, str] | None = None) -> CheckReport:
    """Read, parse and check files; syntax errors and unreadable files become findings too. Each file is
    read, and the domain checked, in its language (`pddltools.dialects`: HDDL for .hddl). `invariants`:
    also the mutex groups of a PDDL task (I413, as `check --verbose` shows them). `ambiguous`: problems
    (by path) whose domain was one of several candidates, with what was chosen: W300 at `(:domain NAME)`."""
    from pddltools import dialects

    findings: list[Diagnostic] = []
    unreadable = False
    parsed: list[object] = []
    paths = [domain_path, *problem_paths]
    for index, path in enumerate(paths):
        try:
            source: Source = read_source(path)
        except InputError as exc:
            findings += exc.diagnostics
            unreadable = True
            parsed.append(None)
            continue
        warnings: list[Diagnostic] = []
        node = None
        try:
            node = dialects.parse(source, "domain" if index == 0 else "problem", warnings)
        except Error as exc:
            findings += exc.diagnostics
        parsed.append(node)
        findings += warnings
        if index and ambiguous and str(path) in ambiguous:
            findings.append(Diagnostic("W300", Severity.WARNING, ambiguous[str(path)], domain_name_span(node)))
    domain = parsed[0]
    files = tuple(str(p) for p in paths)
    if domain is None:
        return CheckReport(files, tuple(findings), None, {}, unreadable)
    problems = [p for p in parsed[1:] if p is not None]
    report = dialects.check(domain, problems, strict=strict, tracks=tracks)
    if invariants and isinstance(domain, ast.Domain) and not report.errors and not findings:
        findings += invariant_findings(domain, [p for p in problems if isinstance(p, ast.Problem)])
    merged = in_file_order([*findings, *report.findings], files)
    # A problem that did not parse is an error of the task too, which check() never saw.
    errors = sum(1 for f in merged if f.severity is Severity.ERROR)
    tracks_seen = {tid: with_errors(v, errors) for tid, v in report.tracks.items()}
    return CheckReport(files, tuple(merged), report.features, tracks_seen, unreadable, report.numeric_fragment)


def check_problem_alone(problem_path: str | Path, missing_domain: str) -> CheckReport:
    """A problem whose domain was not found: its syntax checked, and `missing_domain` (what was looked for)
    reported at its `(:domain NAME)` as E300."""
    findings: list[Diagnostic] = []
    try:
        source = read_source(problem_path)
    except InputError as exc:
        return CheckReport((str(problem_path),), tuple(exc.diagnostics), None, {}, unreadable=True)
    from pddltools import dialects

    node = None
    try:
        node = dialects.parse(source, "problem", findings)  # in its language: a lone .hddl problem is read as HDDL
    except Error as exc:
        findings += exc.diagnostics
    findings.append(Diagnostic("E300", Severity.ERROR, missing_domain, domain_name_span(node) or Span(source, 0, 0)))
    return CheckReport((str(problem_path),), tuple(in_file_order(findings, [str(problem_path)])), None)


def domain_name_span(node: object) -> Span | None:
    """Where a parsed problem, in any language, names its domain (`(:domain NAME)`), as the parser kept it."""
    from pddltools import dialects

    if node is None:
        return None
    return next((p.domain_span for p in dialects.pddl_parts(node) if isinstance(p, ast.Problem)), None)


def _file_of(node: ast.Node) -> str:
    return node.span.file if node.span is not None else "<built>"


def in_file_order(findings: Iterable[Diagnostic], files: Sequence[str]) -> list[Diagnostic]:
    order = {name: index for index, name in enumerate(files)}

    def key(d: Diagnostic) -> tuple[int, int, int]:
        if d.span is None:
            return (len(order) + 1, 0, 0)
        return (order.get(d.span.file, len(order)), d.span.start, 0)

    return sorted(findings, key=key)
