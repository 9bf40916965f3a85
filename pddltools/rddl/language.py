"""RDDL as a `pddltools.syntax.Language`: what the language server and other tools use of its parser.

An RDDL file is a sequence of blocks (domain, non-fluents, instance) with no file header: a section is
a block, parsed as a text of its own, and a file is its blocks in order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cached_property

from lark.lexer import PatternStr

from pddltools.diagnostics import Diagnostic, Source, Span
from pddltools.rddl import ast
from pddltools.rddl.parser import _parser, parse
from pddltools.syntax.errors import ParseError
from pddltools.syntax.language import Header, Language, SectionParse

_KEYWORD_SHAPE = re.compile(r"[:a-zA-Z#][\w\-]*")


class RDDL(Language):
    name = "rddl"

    def parse(self, source: Source, warnings: list[Diagnostic] | None = None) -> ast.RDDLFile:
        return parse(source)

    def header(self, text: str) -> Header | None:
        return None  # no header: the blocks follow one another

    def section_keywords(self) -> frozenset[str]:
        # the first word of each kind of block: `domain`, `non-fluents`, `instance`
        lark = _parser("fast").lark
        literal = {t.name: t.pattern.value for t in lark.terminals if isinstance(t.pattern, PatternStr)}
        blocks = {r.expansion[0].name for r in lark.rules if r.origin.name == "_block" and len(r.expansion) == 1}
        return frozenset(literal[r.expansion[0].name] for r in lark.rules
                         if r.origin.name in blocks and r.expansion and r.expansion[0].name in literal)

    def parse_section(self, source: Source, kind: str) -> SectionParse:
        return self.parse_sections(source)

    def parse_sections(self, source: Source) -> SectionParse:
        try:
            found = parse(source)
        except ParseError as exc:
            return SectionParse(None, (), (), tuple(exc.diagnostics))
        return SectionParse(found, found.blocks, (), ())

    def assemble(self, header: Header, span: Span, values: Sequence[object]
                 ) -> tuple[ast.RDDLFile, list[Diagnostic]] | None:
        blocks = [b for v in values if isinstance(v, ast.RDDLFile) for b in v.blocks]
        return ast.RDDLFile(tuple(blocks), span=span), []

    def expected_terminals(self, source: Source, offset: int) -> set[str]:
        return _parser("fast").expected_at(source, offset)

    def keywords(self) -> Mapping[str, str]:
        return self._keywords

    @cached_property
    def _keywords(self) -> dict[str, str]:
        return {t.name: t.pattern.value for t in _parser("fast").lark.terminals
                if isinstance(t.pattern, PatternStr) and _KEYWORD_SHAPE.fullmatch(t.pattern.value)}

    def soft_keywords(self) -> frozenset[str]:
        return frozenset(rule.expansion[0].name for rule in _parser("fast").lark.rules
                         if rule.origin.name == "name" and len(rule.expansion) == 1)


LANGUAGE = RDDL()
