"""PDDL as a `pddltools.syntax.Language`: what the language server and other tools use of its parser."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from lark.lexer import PatternStr

from pddltools.diagnostics import Diagnostic, Source, Span
from pddltools.pddl import ast
from pddltools.pddl.parser import (
    SYNTAX_ERRORS,
    _BuildError,
    _Parser,
    _parser,
    _terminals,
    assemble_domain,
    assemble_problem,
    parse,
    requirement_warnings,
)
from pddltools.pddl.syntax_errors import explain_section
from pddltools.syntax.language import Header, Language, SectionParse
from pddltools.syntax.lexing import TokenPattern, Trivia, lark_terminals, trivia
from pddltools.syntax.testing import current_variant

#: Keyword terminals worth offering to complete (operators such as `<=` are not typed that way).
_KEYWORD_SHAPE = re.compile(r"[:a-zA-Z#][\w\-]*")


class PDDL(Language):
    name = "pddl"

    @property
    def _parser(self) -> _Parser:
        variant = current_variant()
        return self._build(variant.fast, variant.compiled)

    def _build(self, fast: bool, compiled: bool = True) -> _Parser:
        """The parser of this grammar (a language built on PDDL's, HDDL, gives its own)."""
        return _parser(fast, compiled)

    def parse(self, source: Source, warnings: list[Diagnostic] | None = None) -> ast.Domain | ast.Problem:
        return parse(source, warnings=warnings)

    @cached_property
    def _header(self) -> re.Pattern[str]:
        # From the grammar's own terminals: the white space and comments it ignores, and NAME.
        terminals = _terminals(self._build(True).lark)
        ws = "(?:" + "|".join(f"(?:{p})" for p in terminals.ignored) + ")*"
        return re.compile(rf"{ws}\({ws}define{ws}\({ws}(domain|problem)(?:{ws})(?P<name>{terminals.name}){ws}\)",
                          re.IGNORECASE)

    def header(self, text: str) -> Header | None:
        m = self._header.match(text)
        if m is None:
            return None
        return Header(m.group(1).lower(), m.group("name").lower(), m.start() + text[m.start():].index("("), m.end())

    def section_keywords(self) -> frozenset[str]:
        return self._section_keywords

    @cached_property
    def _section_keywords(self) -> frozenset[str]:
        # the word after '(' in each alternative of the grammar's domain_section and problem_section
        lark = self._build(True).lark
        literal = {t.name: t.pattern.value for t in lark.terminals if isinstance(t.pattern, PatternStr)}
        kinds = {r.expansion[0].name for r in lark.rules
                 if r.origin.name in ("domain_section", "problem_section") and len(r.expansion) == 1}
        return frozenset(literal[r.expansion[1].name] for r in lark.rules
                         if r.origin.name in kinds and len(r.expansion) > 1 and r.expansion[1].name in literal)

    def parse_section(self, source: Source, kind: str) -> SectionParse:
        return self._section(source, f"{kind}_section")

    def parse_sections(self, source: Source) -> SectionParse:
        found = self._section(source, "start")
        node = found.value
        nodes = (node.structures + node.processes + node.events) if isinstance(node, ast.Domain) else found.nodes
        return SectionParse(node, nodes, found.warnings, found.errors)

    def _section(self, source: Source, rule: str) -> SectionParse:
        parser = self._parser
        try:
            value, warnings = parser.parse(source, start=rule)
        except SYNTAX_ERRORS as exc:
            return SectionParse(None, (), (), tuple(explain_section(source, exc, parser, rule)))
        return SectionParse(value, _nodes(value), tuple(warnings), ())

    def assemble(self, header: Header, span: Span, values: Sequence[object]
                 ) -> tuple[ast.Domain | ast.Problem, list[Diagnostic]] | None:
        warnings: list[Diagnostic] = []
        try:
            node = self._assemble(header, span, list(values), warnings)
        except _BuildError:
            return None  # the whole parse explains it
        return node, warnings + self._requirement_warnings(node)

    def _assemble(self, header: Header, span: Span, items: list[Any], warnings: list[Diagnostic]
                  ) -> ast.Domain | ast.Problem:
        """The file's node from its sections' values (a language built on PDDL's assembles its own)."""
        if header.kind == "domain":
            return assemble_domain(header.name, items, span)
        return assemble_problem(header.name, items, span, warnings, (span.start, span.start + 1))

    def _requirement_warnings(self, node: Any) -> list[Diagnostic]:
        return requirement_warnings(node)

    def ignored(self) -> tuple[str, ...]:
        return _terminals(_parser(True).lark).ignored

    def trivia(self, source: Source) -> Trivia:
        """Of the text the parser reads: an in-package prelude is blanked out (`prelude`)."""
        from pddltools.pddl.prelude import without_prelude

        return trivia(self._token_pattern, without_prelude(source)[0].text)

    @cached_property
    def _token_pattern(self) -> TokenPattern:
        return lark_terminals(self._build(True).lark, lowercase=True)

    def expected_terminals(self, source: Source, offset: int) -> set[str]:
        return self._build(True).expected_at(source, offset)

    def keywords(self) -> Mapping[str, str]:
        return self._keywords

    @cached_property
    def _keywords(self) -> dict[str, str]:
        return {t.name: t.pattern.value for t in self._build(True).lark.terminals
                if isinstance(t.pattern, PatternStr) and _KEYWORD_SHAPE.fullmatch(t.pattern.value)}

    def soft_keywords(self) -> frozenset[str]:
        return frozenset(rule.expansion[0].name for rule in self._build(True).lark.rules
                         if rule.origin.name == "name" and len(rule.expansion) == 1)


def _nodes(value: Any) -> tuple[ast.Node, ...]:
    """The AST nodes in a section's value: the node itself, or those of a (kind, value, start) section."""
    if isinstance(value, ast.Node):
        return (value,)
    if isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], str):
        inner = value[1]
        if isinstance(inner, ast.Node):
            return (inner,)
        if isinstance(inner, tuple):
            return tuple(n for n in inner if isinstance(n, ast.Node))
    return ()


LANGUAGE = PDDL()
