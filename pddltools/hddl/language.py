"""HDDL as a `pddltools.syntax.Language`: PDDL's implementation given HDDL's `Syntax` (its parser, how a
file is assembled from its sections, its requirement flags, its sections in file order)."""

from __future__ import annotations

from typing import Any

from pddltools.diagnostics import Diagnostic, Source, Span
from pddltools.hddl import ast
from pddltools.hddl.parser import _parser, assemble_htn_domain, assemble_htn_problem, hddl_requirement_warnings, parse
from pddltools.pddl.language import PDDL, Syntax
from pddltools.syntax.language import Header


def _assemble(header: Header, span: Span, items: list[Any], warnings: list[Diagnostic]
              ) -> ast.HTNDomain | ast.HTNProblem:
    if header.kind == "domain":
        return assemble_htn_domain(header.name, items, span)
    return assemble_htn_problem(header.name, items, span, warnings, (span.start, span.start + 1))


def _sections(node: Any) -> tuple[Any, ...] | None:
    if not isinstance(node, ast.HTNDomain):
        return None
    parts: list[Any] = [*node.tasks, *node.methods, *node.domain.structures]
    parts.sort(key=lambda n: n.span.start if n.span is not None else 0)  # in file order
    return tuple(parts)


def _parse(source: Source, warnings: list[Diagnostic] | None) -> ast.HTNDomain | ast.HTNProblem:
    return parse(source, warnings=warnings)


SYNTAX = Syntax("hddl", _parser, _parse, _assemble, hddl_requirement_warnings, _sections)
LANGUAGE = PDDL(SYNTAX)
