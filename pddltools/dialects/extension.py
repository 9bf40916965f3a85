"""What the PDDL dialects that add effects (FOND's `oneof`, PPDDL's `probabilistic`) share: a parser on
PDDL's over their grammar, PDDL's requirement warnings less their own flags, a check that runs PDDL's
checker on a deterministic stand-in of the domain, and track verdicts that never call such a task fit for a
deterministic track.

Each dialect declares itself with a `Rules` (its name, flags, grammar, builder, its effect nodes and how
each stands in as PDDL) and gets back the registry's `Implementation`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, cast

from pddltools.check.features import Feature
from pddltools.check.report import CheckReport, check, in_file_order
from pddltools.check.tracks import TRACKS, Fit, Track, Verdict, verdict, with_errors
from pddltools.diagnostics import Diagnostic, Severity, Source, Span, warning
from pddltools.dialects import Dialect, Implementation
from pddltools.dialects.pddl import summary
from pddltools.pddl import ast
from pddltools.pddl.parser import Builder, Parser, PDDLLexer, requirement_warnings, run_parser
from pddltools.syntax.errors import ParseError
from pddltools.tree import Tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.dialects import Kind


@dataclass(frozen=True)
class DialectVerdict(Verdict):
    """A verdict whose reason is the dialect (or HDDL's order of methods), not (only) the features:
    `pddltools compile` makes no such task fit."""

    reason: str = ""

    def explain(self) -> str:
        if self.fit is Fit.INVALID or not self.reason:
            return super().explain()
        return self.reason

    def compile_command(self, domain: str = "DOMAIN", problem: str = "PROBLEM") -> str | None:
        return None  # `pddltools compile` reads deterministic PDDL


@dataclass(frozen=True)
class Rules:
    """A dialect of PDDL that adds effects.

    `dialect`: its declaration in the registry; `builder`: PDDL's builder plus its rules' callbacks;
    `lexers`: subclasses of PDDL's lexers, declared in its module (the parser's cache pickles them);
    `stand_in(node)`: for each of its own effect nodes, the deterministic PDDL effect that PDDL's checker
    reads instead (all outcomes at once: names, arity and types are checked in each); `findings(domain,
    problems)`: its own findings; `tracks`: its tracks (PDDL's `Track`s, judged on the task's features);
    `kind`: what the deterministic tracks' verdicts say the task is ("nondeterministic");
    `definitions(node)`: the PDDL domains and problems a parsed file of the dialect holds (a domain:
    itself; a PPDDL problem: its PDDL problem; mdpsim's files: a domain and problems);
    `declare(domain)`, `declare_problem(problem)`: the stand-ins with what the dialect declares implicitly
    (PPDDL's reward fluent, which starts at 0); `file_findings(node)`: findings about a parsed file as the
    dialect has it (MA-PDDL's private objects); `construct_at(node)`: where a parsed file first uses a
    construct of the dialect that is no node inside PDDL's (MA-PDDL's `:agent`), for W120; `uses_own(node)`:
    whether a parsed file uses a construct kept beside PDDL's nodes (a sensing action, a private group)."""

    dialect: Dialect
    builder: type[Builder]
    lexers: tuple[type[PDDLLexer], type[PDDLLexer]]  # its own (fast, grammar-only): fast paths are set on the class
    nodes: tuple[type, ...]
    stand_in: Callable[[Any], ast.Node]
    findings: Callable[[ast.Domain, Sequence[ast.Problem]], list[Diagnostic]]
    tracks: tuple[Track, ...]
    kind: str
    definitions: Callable[[Any], tuple[Any, ...]] = field(default=lambda node: (node,))
    declare: Callable[[ast.Domain], ast.Domain] = field(default=lambda domain: domain)
    declare_problem: Callable[[ast.Problem], ast.Problem] = field(default=lambda problem: problem)
    file_findings: Callable[[Any], list[Diagnostic]] = field(default=lambda node: [])
    construct_at: Callable[[Any], Span | None] = field(default=lambda node: None)
    uses_own: Callable[[Any], bool] = field(default=lambda node: False)

    @property
    def track_ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.tracks)


def implementation(rules: Rules, parse: Callable[[Source, Kind | None, list[Diagnostic] | None], Any] | None = None,
                   summarise: Callable[[Any], dict[str, Any]] = summary) -> Implementation:
    """The registry's implementation of the dialect `rules` declares."""
    return Implementation(parse or parser_function(rules), lambda node: owns(rules, node),
                          lambda domain, problems, strict, tracks: check_task(rules, domain, problems, strict, tracks),
                          summarise, rules.track_ids,
                          lambda node: undeclared(rules, node), lambda node: used(rules, node), rules.definitions)


def parser_function(rules: Rules) -> Callable[[Source, Kind | None, list[Diagnostic] | None], Any]:
    """A whole file parsed with the dialect's grammar; raises `ParseError`."""

    def parse(source: Source, kind: Kind | None, warnings: list[Diagnostic] | None) -> Any:
        source, result, build_warnings, prelude = run_parser(parser_of(rules), source, ParseError)
        expected_kind(result, kind, rules)
        if warnings is not None:
            warnings.extend([prelude] if prelude is not None else [])
            warnings.extend(build_warnings)
            for definition in rules.definitions(result):
                warnings.extend(dialect_requirement_warnings(rules.dialect, definition))
        return result

    return parse


def expected_kind(result: Any, kind: Kind | None, rules: Rules) -> None:
    nodes = rules.definitions(result) or (result,)  # a file of hidden states only is a problem
    if kind is None or any(isinstance(n, ast.Domain if kind == "domain" else ast.Problem) for n in nodes):
        return
    if kind == "problem" and not isinstance(nodes[0], ast.Domain):
        return
    node = nodes[0]
    from pddltools.diagnostics import error

    other = "problem" if kind == "domain" else "domain"
    raise ParseError([error("E110", f"expected a {kind} file, but this is a {other}: "
                            f"(define ({other} {node.name}) ...)", node.span)])


def parser_of(rules: Rules) -> Callable[[bool, bool], Parser]:
    # (mypy takes a plain class for unhashable where its metaclass is `type`: Builder was a Lark Transformer)
    return lambda fast, compiled: _parser(rules.dialect.name, rules.builder, rules.lexers, fast,  # type: ignore[arg-type]
                                          compiled)


@cache
def _parser(language: str, builder: type[Builder], lexers: tuple[type[PDDLLexer], type[PDDLLexer]], fast: bool,
            compiled: bool) -> Parser:
    return Parser(fast, compiled, language=language, builder=builder(), lexers=lexers)


def dialect_requirement_warnings(dialect: Dialect, node: ast.Domain | ast.Problem) -> list[Diagnostic]:
    """PDDL's warnings for unknown requirement flags, less those the dialect defines."""
    own = tuple(r for r in node.requirements if r.name not in dialect.requirements)
    return requirement_warnings(replace(node, requirements=own))


def declared(dialect: Dialect, node: ast.Domain | ast.Problem) -> bool:
    return any(r.name in dialect.requirements for r in node.requirements)


def uses(rules: Rules, node: Tree[Any]) -> Tree[Any] | None:
    """The first of the dialect's own nodes in `node`, or None (for a part the dialect's grammar left
    unbuilt: a PDDL+ process read by a dialect without processes is none of its own)."""
    if not hasattr(node, "walk"):
        return None
    for found in node.walk():
        if isinstance(found, rules.nodes):
            return cast("Tree[Any]", found)
    return None


def owns(rules: Rules, node: object) -> bool:
    """A domain (or problem) of this dialect: it is of the dialect's own kind of problem, declares one of its
    flags, or uses one of its nodes."""
    if not isinstance(node, ast.Domain | ast.Problem):
        inside = rules.definitions(node)
        return inside != (node,) and all(isinstance(n, ast.Domain | ast.Problem) for n in inside)
    if declared(rules.dialect, node):
        return True
    return any(uses(rules, s) is not None for s in node.structures) if isinstance(node, ast.Domain) else False


def deterministic(rules: Rules, node: ast.Node) -> Any:
    """`node` with each of the dialect's nodes replaced by its stand-in, all the way down."""
    if isinstance(node, rules.nodes):
        return deterministic(rules, rules.stand_in(node))
    return node.map_children(lambda child: deterministic(rules, child) if isinstance(child, ast.Node) else child)


def stand_in_domain(rules: Rules, domain: ast.Domain) -> ast.Domain:
    own = frozenset(rules.dialect.requirements)
    structures = tuple(deterministic(rules, s) if uses(rules, s) is not None else s for s in domain.structures)
    declared = rules.declare(domain)
    return replace(declared, structures=structures,
                   requirements=tuple(r for r in declared.requirements if r.name not in own))


def check_task(rules: Rules, domain: ast.Domain, problems: Sequence[object], strict: bool,
               tracks: Iterable[str] | None) -> CheckReport:
    """PDDL's checker on the deterministic stand-in, the dialect's own findings, and its track verdicts."""
    parsed = [domain, *(p for p in problems if rules.definitions(p))]
    inside = [n for node in parsed for n in rules.definitions(node)]
    domain = next(n for n in inside if isinstance(n, ast.Domain))
    own = [n for n in inside if isinstance(n, ast.Problem)]
    stand_ins = [replace(rules.declare_problem(p), requirements=tuple(
        r for r in p.requirements if r.name not in rules.dialect.requirements)) for p in own]
    report = check(stand_in_domain(rules, domain), stand_ins, strict=strict, tracks=())
    findings = [*report.findings, *rules.findings(domain, own),
                *(f for node in parsed for f in rules.file_findings(node))]
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    wanted = set(tracks) if tracks is not None else None
    used = [use.feature for use in report.features.uses] if report.features is not None else []
    found: dict[str, Verdict] = {}
    for track in TRACKS:
        if wanted is None or track.id in wanted:
            found[track.id] = DialectVerdict(track, Fit.UNFIT, (), (), (), reason=(
                f"{rules.kind} ({rules.dialect.title}): this track's planners take one outcome per action"))
    for track in rules.tracks:
        if wanted is None or track.id in wanted:
            found[track.id] = with_errors(verdict(track, used), errors)
    files = report.files
    return CheckReport(files, tuple(in_file_order(findings, files)), report.features, found,
                       numeric_fragment=report.numeric_fragment)


def dialect_track(id: str, title: str, core: Iterable[Feature], optional: Iterable[Feature], objective: str
                  ) -> Track:
    return Track(id, title, frozenset(core), frozenset(optional), objective)


def used(rules: Rules, node: Any) -> bool:
    """Whether a file the dialect's parser read is the dialect's: it declares it or uses its constructs."""
    if rules.uses_own(node):
        return True
    return any(declared(rules.dialect, d) or (isinstance(d, ast.Domain) and any(uses(rules, s) is not None
                                                                             for s in d.structures))
               for d in rules.definitions(node))


def undeclared(rules: Rules, node: Any) -> Diagnostic | None:
    """W120 for a parsed file of the dialect that does not declare it (see `missing_requirement`)."""
    at = rules.construct_at(node)
    for definition in rules.definitions(node):
        found = missing_requirement(rules, definition, at)
        if found is not None:
            return found
    return None


def missing_requirement(rules: Rules, node: ast.Domain | ast.Problem, at: Span | None = None) -> Diagnostic | None:
    """W120 at the first of the dialect's nodes in a domain that does not declare the dialect: one finding
    naming the dialect and the flag to add, however many such nodes the file has."""
    if not isinstance(node, ast.Domain) or not rules.dialect.requirements or declared(rules.dialect, node):
        return None  # a dialect with no flag (contingent PDDL's planners declare none) asks for none
    first = next((u for s in node.structures if (u := uses(rules, s)) is not None), None)
    if first is None and at is None:
        return None
    flag = rules.dialect.requirements[0]
    whole: Span | None = getattr(first, "span", None) or at or node.span
    span = (Span(whole.source, whole.start, whole.start + 1 + len(rules.dialect.constructs[0]))
            if whole is not None and first is not None else whole)
    construct = rules.dialect.constructs[0] if rules.dialect.constructs else "constructs"
    return warning("W120", f"this domain uses {construct}, which is {rules.dialect.title}'s, not PDDL's: add "
                   f"{flag} to its :requirements", span)
