"""RDDL as a `pddltools.syntax.Language`: what the language server and other tools use of its parser.

An RDDL file is a sequence of blocks (domain, non-fluents, instance) with no file header: a section is
a block, parsed as a text of its own, and a file is its blocks in order. `header` reads the opening
of a block (its kind and name), `block_ranges` where each top-level block of a text starts and ends;
both are read off the grammar: its ignored terminals (white space, comments, which may hold braces),
NAME, and the rules of the three blocks (`KEYWORD NAME "{" ... "}"`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from lark.lexer import PatternStr

from pddltools.diagnostics import Diagnostic, Source, Span, error
from pddltools.rddl import ast
from pddltools.rddl.parser import _parser, parse
from pddltools.syntax.errors import ParseError
from pddltools.syntax.language import Header, Language, SectionParse
from pddltools.syntax.lexing import TokenPattern, Trivia, lark_terminals, trivia

_KEYWORD_SHAPE = re.compile(r"[:a-zA-Z#][\w\-]*")


@dataclass(frozen=True)
class _Shapes:
    """The patterns `header` and `block_ranges` read, built from the grammar."""

    header: re.Pattern[str]  # white space, then a block's opening
    scan: re.Pattern[str]  # ignored text, a block's opening, a brace
    blank: re.Pattern[str]  # white space and comments


class RDDL(Language):
    name = "rddl"

    def parse(self, source: Source, warnings: list[Diagnostic] | None = None) -> ast.RDDLFile:
        return parse(source)

    def header(self, text: str) -> Header | None:
        """The opening of the block `text` starts with (after white space and comments): its kind (the
        block's keyword: `domain`, `non-fluents`, `instance`) and name; `end` is after its '{'."""
        m = self._shapes.header.match(text)
        if m is None:
            return None
        return Header(m.group("kind"), m.group("name"), m.start("kind"), m.end())

    def block_ranges(self, text: str) -> tuple[tuple[int, int], ...] | None:
        """(start, end) of each top-level block of `text`, in order: a block runs from its keyword to
        where the next one starts (or the end of the text). None when `text` holds no block, or
        something other than white space and comments comes before the first, or a '}' closes
        nothing."""
        shapes = self._shapes
        starts: list[int] = []
        depth = 0
        for m in shapes.scan.finditer(text):
            if m.lastgroup == "head":
                if depth == 0:
                    starts.append(m.start("kind"))
                depth += 1
            elif m.lastgroup == "open":
                depth += 1
            elif m.lastgroup == "close":
                depth -= 1
                if depth < 0:
                    return None
        if not starts or not shapes.blank.fullmatch(text, 0, starts[0]):
            return None
        return tuple(zip(starts, [*starts[1:], len(text)], strict=True))

    @cached_property
    def _shapes(self) -> _Shapes:
        lark = _parser("fast").lark
        patterns = {t.name: t.pattern for t in lark.terminals}
        literal = {name: p.value for name, p in patterns.items() if isinstance(p, PatternStr)}
        ignored = "|".join(f"(?:{p})" for p in self.ignored())
        ws = f"(?:{ignored})*"
        # the block rules' shortest expansion: KEYWORD NAME "{" "}" (a block with no sections)
        shortest = min((r.expansion for r in lark.rules if r.expansion
                        and literal.get(r.expansion[0].name) in self.section_keywords()), key=len)
        name = patterns[shortest[1].name].to_regexp()
        o, c = (re.escape(literal[shortest[i].name]) for i in (2, -1))
        kinds = "|".join(re.escape(k) for k in sorted(self.section_keywords(), key=lambda k: (-len(k), k)))
        head = rf"(?P<kind>{kinds})(?:{ignored})+(?P<name>{name}){ws}{o}"
        return _Shapes(re.compile(ws + head), re.compile(rf"{ignored}|(?P<head>{head})|(?P<open>{o})|(?P<close>{c})"),
                       re.compile(ws))

    def section_keywords(self) -> frozenset[str]:
        return self._section_keywords

    @cached_property
    def _section_keywords(self) -> frozenset[str]:
        # the first word of each kind of block: `domain`, `non-fluents`, `instance`
        lark = _parser("fast").lark
        literal = {t.name: t.pattern.value for t in lark.terminals if isinstance(t.pattern, PatternStr)}
        blocks = {r.expansion[0].name for r in lark.rules if r.origin.name == "_block" and len(r.expansion) == 1}
        return frozenset(literal[r.expansion[0].name] for r in lark.rules
                         if r.origin.name in blocks and r.expansion and r.expansion[0].name in literal)

    def parse_section(self, source: Source, kind: str) -> SectionParse:
        """One block of kind `kind` (a `Header.kind`): `value` and `nodes` are the block's node. Another
        block after it, or one of another kind, is an error (R100) located at its keyword."""
        found = self.parse_sections(source)
        if found.errors:
            return found
        blocks = found.nodes
        ranges = self.block_ranges(source.text) or ()
        kinds = [header.kind if (header := self.header(source.text[start:end])) else None for start, end in ranges]
        if len(blocks) == 1 and kinds == [kind]:
            return SectionParse(blocks[0], blocks, (), ())
        at = ranges[1][0] if kinds[:1] == [kind] and len(ranges) > 1 else (ranges[0][0] if ranges else 0)
        what = "the end of the text" if kinds[:1] == [kind] else f"{'an' if kind[:1] in 'aeiou' else 'a'} {kind} block"
        words = source.text[at:].split(None, 1)
        return SectionParse(None, (), (), (error(
            "R100", f"expected {what}, found '{words[0] if words else ''}'",
            Span(source, at, at + (len(words[0]) if words else 0))),))

    def parse_sections(self, source: Source) -> SectionParse:
        try:
            found = parse(source)
        except ParseError as exc:
            return SectionParse(None, (), (), tuple(exc.diagnostics))
        return SectionParse(found, found.blocks, (), ())

    def assemble(self, header: Header, span: Span, values: Sequence[object]
                 ) -> tuple[ast.RDDLFile, list[Diagnostic]] | None:
        # the values of `parse_section` (a block) or of `parse_sections` (a file of blocks)
        blocks = [b for v in values for b in (v.blocks if isinstance(v, ast.RDDLFile) else (v,))
                  if isinstance(b, ast.Domain | ast.NonFluents | ast.Instance)]
        return ast.RDDLFile(tuple(blocks), span=span), []

    def trivia(self, source: Source) -> Trivia:
        return trivia(self._terminals, source.text)

    @cached_property
    def _terminals(self) -> TokenPattern:
        return lark_terminals(_parser("fast").lark, lowercase=False)

    def ignored(self) -> tuple[str, ...]:
        lark = _parser("fast").lark
        patterns = {t.name: t.pattern for t in lark.terminals}
        return tuple(patterns[name].to_regexp() for name in sorted(lark.lexer_conf.ignore))

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
