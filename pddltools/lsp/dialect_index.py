"""The PDDL dialects (FOND, PPDDL, contingent PDDL, MA-PDDL) in the language server: findings, outline and
formatting of a .pddl document whose text names a dialect (`pddltools.dialects.language_server`).

A document is read through the registry (`dialects.parse`, cached by version), so a FOND domain gets
FOND's reading, not PDDL's errors at each `oneof`; a domain is checked alone (`dialects.check`), a
problem for its syntax (L001 says so). Names, hover and completion stay PDDL's.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from pddltools import dialects
from pddltools.diagnostics import Diagnostic, Error, Severity, Source
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast


@dataclass(frozen=True)
class DialectParsed:
    node: Any  # None when the document does not parse
    syntax: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]


_lock = threading.Lock()
_cache: dict[str, tuple[int, DialectParsed]] = {}


def parsed(doc: Document) -> DialectParsed:
    with _lock:
        hit = _cache.get(doc.uri)
        if hit is not None and hit[0] == doc.version:
            return hit[1]
    warnings: list[Diagnostic] = []
    try:
        result = DialectParsed(dialects.parse(Source(doc.text, doc.name), None, warnings), (), tuple(warnings))
    except Error as exc:
        result = DialectParsed(None, tuple(exc.diagnostics), tuple(warnings))
    with _lock:
        _cache[doc.uri] = (doc.version, result)
    return result


def findings(workspace: Workspace, doc: Document) -> list[Diagnostic]:
    result = parsed(doc)
    out = [*result.syntax, *result.warnings]
    if result.node is None:
        return out
    parts = dialects.pddl_parts(result.node)
    if any(isinstance(p, ast.Domain) for p in parts):
        report = dialects.check(result.node)
        return out + [f for f in report.findings if f.span is None or f.span.file == doc.name]
    where = parts[0].span if parts and parts[0].span is not None else None
    title = dialects.of_node(result.node).title
    out.append(Diagnostic("L001", Severity.INFO, f"the domain of a {title} problem is not looked for: only the "
                          "problem's syntax is checked", where))
    return out


def outline_node(doc: Document) -> ast.Domain | ast.Problem | None:
    """The document's PDDL part (a FOND domain is a PDDL domain with `oneof` effects)."""
    node = parsed(doc).node
    if node is None:
        return None
    return next((p for p in dialects.pddl_parts(node) if isinstance(p, ast.Domain | ast.Problem)), None)


def formatted(doc: Document) -> str | None:
    """The document in the printer's layout; None when it does not parse or has comments (not kept)."""
    node = parsed(doc).node
    if node is None or ";" in doc.text:
        return None
    return str(node)
