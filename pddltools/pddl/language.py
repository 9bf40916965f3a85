"""PDDL as a `pddltools.syntax.Language`: what the language server and other tools use of its parser.

A language built on PDDL's grammar (HDDL, the PDDL dialects) is the same `PDDL` class given its own
`Syntax`: its parser, how a file's node is put together from its sections, its requirement warnings
and which nodes are its top-level sections. It overrides nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from pddltools.diagnostics import Diagnostic, Source, Span
from pddltools.pddl import ast
from pddltools.pddl.parser import (
    SYNTAX_ERRORS,
    BuildError,
    Parser,
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


@dataclass(frozen=True)
class Syntax:
    """A language on PDDL's grammar, as `PDDL` uses it.

    `parser_of(fast, compiled)`: its parser; `parse(source, warnings)`: a whole file; `assemble(header,
    span, values, warnings)`: a file's node from its sections' values (raising the parser's
    `BuildError` where the parser would refuse them); `requirement_warnings(node)`; `sections(node)`: a
    whole file's top-level sections in file order (None: the nodes of the parse itself)."""

    name: str
    parser_of: Callable[[bool, bool], Parser]
    parse: Callable[[Source, list[Diagnostic] | None], Any]
    assemble: Callable[[Header, Span, list[Any], list[Diagnostic]], Any]
    requirement_warnings: Callable[[Any], list[Diagnostic]]
    sections: Callable[[Any], tuple[Any, ...] | None]


def _assemble(header: Header, span: Span, items: list[Any], warnings: list[Diagnostic]) -> ast.Domain | ast.Problem:
    if header.kind == "domain":
        return assemble_domain(header.name, items, span)
    return assemble_problem(header.name, items, span, warnings, (span.start, span.start + 1))


def _sections(node: Any) -> tuple[Any, ...] | None:
    return (node.structures + node.processes + node.events) if isinstance(node, ast.Domain) else None


CORE = Syntax("pddl", _parser, lambda source, warnings: parse(source, warnings=warnings), _assemble,
              requirement_warnings, _sections)


class PDDL(Language):
    def __init__(self, syntax: Syntax = CORE) -> None:
        self.syntax = syntax
        self.name = syntax.name

    @property
    def _parser(self) -> Parser:
        variant = current_variant()
        return self._build(variant.fast, variant.compiled)

    def _build(self, fast: bool, compiled: bool = True) -> Parser:
        return self.syntax.parser_of(fast, compiled)

    def parse(self, source: Source, warnings: list[Diagnostic] | None = None) -> Any:
        return self.syntax.parse(source, warnings)

    @cached_property
    def _header(self) -> re.Pattern[str]:
        # From the grammar's own terminals: the white space and comments it ignores, and NAME.
        terminals = _terminals(self._build(True).grammar)
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
        grammar = self._build(True).grammar
        literal = {t.name: t.pattern.value for t in grammar.terminals if t.pattern.type == "str"}
        kinds = {r.expansion[0].name for r in grammar.rules
                 if r.origin.name in ("domain_section", "problem_section") and len(r.expansion) == 1}
        return frozenset(literal[r.expansion[1].name] for r in grammar.rules
                         if r.origin.name in kinds and len(r.expansion) > 1 and r.expansion[1].name in literal)

    def parse_section(self, source: Source, kind: str) -> SectionParse:
        return self._section(source, f"{kind}_section")

    def parse_sections(self, source: Source) -> SectionParse:
        found = self._section(source, "start")
        if found.value is None:
            return found
        nodes = self.syntax.sections(found.value)
        if nodes is None:
            nodes = found.nodes
        return SectionParse(found.value, nodes, found.warnings, found.errors)

    def _section(self, source: Source, rule: str) -> SectionParse:
        parser = self._parser
        try:
            value, warnings = parser.parse(source, start=rule)
        except SYNTAX_ERRORS as exc:
            return SectionParse(None, (), (), tuple(explain_section(source, exc, parser, rule)))
        return SectionParse(value, _nodes(value), tuple(warnings), ())

    def assemble(self, header: Header, span: Span, values: Sequence[object]
                 ) -> tuple[Any, list[Diagnostic]] | None:
        warnings: list[Diagnostic] = []
        try:
            node = self.syntax.assemble(header, span, list(values), warnings)
        except BuildError:
            return None  # the whole parse explains it
        return node, warnings + self.syntax.requirement_warnings(node)

    def ignored(self) -> tuple[str, ...]:
        return _terminals(self._build(True).grammar).ignored

    def trivia(self, source: Source) -> Trivia:
        """Of the text the parser reads: an in-package prelude is blanked out (`prelude`)."""
        from pddltools.pddl.prelude import without_prelude

        return trivia(self._token_pattern, without_prelude(source)[0].text)

    @cached_property
    def _token_pattern(self) -> TokenPattern:
        return lark_terminals(self._build(True).grammar, lowercase=True)

    def expected_terminals(self, source: Source, offset: int) -> set[str]:
        return self._build(True).expected_at(source, offset)

    def keywords(self) -> Mapping[str, str]:
        return self._keywords

    @cached_property
    def _keywords(self) -> dict[str, str]:
        return {t.name: t.pattern.value for t in self._build(True).grammar.terminals
                if t.pattern.type == "str" and _KEYWORD_SHAPE.fullmatch(t.pattern.value)}

    def soft_keywords(self) -> frozenset[str]:
        return frozenset(rule.expansion[0].name for rule in self._build(True).grammar.rules
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
