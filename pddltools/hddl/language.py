"""HDDL as a `pddltools.syntax.Language`: PDDL's implementation over the HDDL grammar and builder."""

from __future__ import annotations

from typing import Any

from pddltools.diagnostics import Diagnostic, Source, Span
from pddltools.hddl import ast
from pddltools.hddl.parser import _parser, assemble_htn_domain, assemble_htn_problem, hddl_requirement_warnings, parse
from pddltools.pddl.language import PDDL
from pddltools.pddl.parser import _Parser
from pddltools.syntax.language import Header, SectionParse


class HDDL(PDDL):
    name = "hddl"

    def _build(self, fast: bool, compiled: bool = True) -> _Parser:
        return _parser(fast, compiled)

    def parse(self, source: Source, warnings: list[Diagnostic] | None = None  # type: ignore[override]
              ) -> ast.HTNDomain | ast.HTNProblem:
        return parse(source, warnings=warnings)

    def parse_sections(self, source: Source) -> SectionParse:
        found = self._section(source, "start")
        node = found.value
        if isinstance(node, ast.HTNDomain):  # the file's sections in file order
            parts: list[Any] = [*node.tasks, *node.methods, *node.domain.structures]
            parts.sort(key=lambda n: n.span.start if n.span is not None else 0)
            return SectionParse(node, tuple(parts), found.warnings, found.errors)
        return found

    def _assemble(self, header: Header, span: Span, items: list[Any],  # type: ignore[override]
                  warnings: list[Diagnostic]) -> ast.HTNDomain | ast.HTNProblem:
        if header.kind == "domain":
            return assemble_htn_domain(header.name, items, span)
        return assemble_htn_problem(header.name, items, span, warnings, (span.start, span.start + 1))

    def _requirement_warnings(self, node: Any) -> list[Diagnostic]:
        return hddl_requirement_warnings(node)

LANGUAGE = HDDL()
