"""A document's findings: syntax errors, then `pddltools check` / `pddltools rddl check`, as LSP diagnostics.

Severities map error → Error, warning → Warning, info → Hint: the checker's informative findings
(a static predicate, an unused parameter) are facts, not problems, and editors draw hints faintly.
"""

from __future__ import annotations

from collections.abc import Iterable

from lsprotocol import types as lsp

from pddltools.check import check
from pddltools.diagnostics import Diagnostic, Severity, Source, Span
from pddltools.dialects import language_server
from pddltools.lsp.pddl_index import word_span
from pddltools.lsp.positions import Positions
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast
from pddltools.rddl.typecheck import check as check_rddl

SOURCE = "pddltools"
_SEVERITY = {Severity.ERROR: lsp.DiagnosticSeverity.Error, Severity.WARNING: lsp.DiagnosticSeverity.Warning,
             Severity.INFO: lsp.DiagnosticSeverity.Hint}


def findings(workspace: Workspace, doc: Document, *, slow: bool = True) -> list[Diagnostic]:
    """Every finding about `doc`, located in it (or without a place); `slow=False` leaves out relaxed
    reachability's (`slow_findings_left_out` says whether that left anything out)."""
    if doc.language == "rddl":
        return _rddl_findings(workspace, doc)
    extension = language_server(doc.language, doc.text)
    if extension is not None:
        return list(extension.findings(workspace, doc))
    return _pddl_findings(workspace, doc, slow)


def slow_findings_left_out(workspace: Workspace, doc: Document) -> bool:
    """Whether `findings(..., slow=False)` may leave out findings of `doc` or, for a domain, of its open
    problems (relaxed reachability needs a problem): `doc` is a PDDL problem, or a domain with open problems."""
    if doc.language != "pddl" or language_server(doc.language, doc.text) is not None:
        return False
    node = workspace.pddl(doc).node
    if isinstance(node, ast.Domain):
        return bool(workspace.problems_of(node, doc.uri))
    return isinstance(node, ast.Problem)


def _pddl_findings(workspace: Workspace, doc: Document, slow: bool = True) -> list[Diagnostic]:
    parsed = workspace.pddl(doc)
    out = [*parsed.syntax, *parsed.warnings]
    node = parsed.node
    if node is None:
        return out
    unreliable = set(parsed.unreliable)
    if isinstance(node, ast.Domain):
        report = check(node, reachability=slow)
    else:
        found, resolution = workspace.domain_and_resolution(doc, node)
        where = word_span(node.span, node.domain, 1, 8)
        if found is None or not isinstance(found[1].node, ast.Domain):
            missing = resolution.missing() if resolution is not None else f"domain {node.domain} is not open"
            out.append(Diagnostic("L001", Severity.INFO, f"{missing}; only the problem's syntax is checked", where))
            return out
        # Which file the problem was checked against, always: a wrong pick shows as wrong findings.
        chosen = resolution.domain if resolution is not None and resolution.domain is not None else found[0]
        how = f" ({resolution.rule})" if resolution is not None and resolution.domain is not None else ""
        out.append(Diagnostic("L002", Severity.INFO, f"checked against {chosen}{how}", where))
        if resolution is not None and resolution.ambiguous:
            out.append(Diagnostic("L003", Severity.WARNING, resolution.ambiguity(), where))
        domain = found[1]
        unreliable |= domain.unreliable
        report = check(domain.node, [node], reachability=slow,  # type: ignore[arg-type]
                       memo=workspace.init_findings)
    out += [f for f in report.findings if f.code not in unreliable and _in(f, doc)]
    return out


def _rddl_findings(workspace: Workspace, doc: Document) -> list[Diagnostic]:
    parsed = workspace.rddl(doc)
    if parsed.node is None:
        return list(parsed.syntax)
    files = [parsed.node, *workspace.rddl_companions(doc, parsed.node)]
    try:
        found = check_rddl(files)
    except RecursionError:
        found = []
    return [*parsed.syntax, *(d for d in found if _in(d, doc))]


def _in(diagnostic: Diagnostic, doc: Document) -> bool:
    return diagnostic.span is None or diagnostic.span.file == doc.name


def to_lsp(diagnostics: Iterable[Diagnostic], doc: Document, positions: Positions,
           workspace: Workspace) -> list[lsp.Diagnostic]:
    elsewhere: dict[int, Positions] = {}

    def place(span: Span) -> lsp.Location:
        if span.file == doc.name:
            return lsp.Location(uri=doc.uri, range=positions.span_range(span))
        source: Source = span.source
        other = elsewhere.get(id(source))
        if other is None:
            other = elsewhere[id(source)] = Positions(source.text, positions.encoding)
        return lsp.Location(uri=workspace.uri_of(span.file), range=other.span_range(span))

    out: list[lsp.Diagnostic] = []
    for d in diagnostics:
        related = [lsp.DiagnosticRelatedInformation(location=place(span), message=message)
                   for message, span in d.notes if span is not None]
        out.append(lsp.Diagnostic(range=positions.span_range(d.span), message=d.message,
                                  severity=_SEVERITY[d.severity], code=d.code, source=SOURCE,
                                  related_information=related or None))
    return out


def publishable(workspace: Workspace, doc: Document, encoding: str = "utf-16", *,
                slow: bool = True) -> tuple[int, list[lsp.Diagnostic]]:
    """The document's version and its diagnostics, ready to publish (of a snapshot: the live document
    may change while they are computed); `slow=False`: without relaxed reachability's findings."""
    snapshot = Document(doc.uri, doc.text, doc.version, doc.language)
    positions = Positions(snapshot.text, encoding)
    return snapshot.version, to_lsp(findings(workspace, snapshot, slow=slow), snapshot, positions, workspace)
