"""The checker's findings: its codes (E2xx to E6xx, W2xx to W6xx, I4xx), read from the one registry.

Codes and their meanings live in `pddltools.codes` with every other tool's; this module picks the
checker's out of it and builds findings with each code's registered severity.
"""

from __future__ import annotations

from pddltools.code_ids import CodeId
from pddltools.codes import CHECK, REGISTRY, Code
from pddltools.diagnostics import Diagnostic, Severity, Span

__all__ = ["CODES", "Code", "finding"]

CODES: dict[str, Code] = {code: entry for code, entry in REGISTRY.items() if entry.area == CHECK}


def finding(code: CodeId, message: str, span: Span | None, *, severity: Severity | None = None,
            notes: tuple[tuple[str, Span | None], ...] = ()) -> Diagnostic:
    return Diagnostic(code, severity or CODES[code].severity, message, span, notes)
