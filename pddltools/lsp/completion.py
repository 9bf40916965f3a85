"""Completion: the keywords the grammar accepts at the cursor, and the names in scope there.

Keywords come from the LALR parser itself: the text before the cursor is replayed on the parser's
tables (`FastParser.expected_at`) and every literal terminal it would shift is offered. Sections the
document's parse had to cut (broken ones) are blanked in that text first, so that an error higher up
does not silence completion lower down. Words that the grammar also accepts as names (`at`, `start`,
`domain`) are offered as keywords only where no name could stand.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from lark.lexer import PatternStr
from lsprotocol import types as lsp

from pddltools.diagnostics import Source
from pddltools.lsp.navigation import signature
from pddltools.lsp.pddl_index import Symbol, enclosing_scope
from pddltools.lsp.recovery import blank, sections
from pddltools.lsp.workspace import Document, Workspace
from pddltools.rddl import ast as rast

_WORD = re.compile(r"[^\s()]*$")
_RDDL_WORD = re.compile(r"[\w\-?@$']*$")
_KEYWORD_SHAPE = re.compile(r"[:a-zA-Z#][\w\-]*")
_VARIABLE = re.compile(r"\?[^\s()]+")


@cache
def _grammar(language: str) -> tuple[Any, dict[str, str], frozenset[str]]:
    """The parser, its literal terminals (name -> text), and the terminals that may also be names."""
    if language == "pddl":
        from pddltools.pddl.parser import _parser

        parser: Any = _parser(True)
    else:
        from pddltools.rddl.parser import _parser as _rddl_parser

        parser = _rddl_parser("fast")
    lark = parser.lark
    literals = {t.name: t.pattern.value for t in lark.terminals
                if isinstance(t.pattern, PatternStr) and _KEYWORD_SHAPE.fullmatch(t.pattern.value)}
    soft = frozenset(rule.expansion[0].name for rule in lark.rules
                     if rule.origin.name == "name" and len(rule.expansion) == 1)
    return parser, literals, soft


def expected_terminals(language: str, text: str, name: str, offset: int) -> set[str]:
    """The terminals the parser would shift at `offset` of `text` (empty when the text before it is broken)."""
    parser, _, _ = _grammar(language)
    source = Source(text, name)
    driver = parser.driver if language == "pddl" else (parser.driver[0] if parser.driver else None)
    if driver is None:
        return set()
    start = "start"
    with parser.lock:  # the builder's callbacks run during the replay and need their source
        parser.builder.source = source
        if language == "pddl":
            parser.builder.warnings = []
        try:
            found: set[str] = driver.expected_at(source, start, offset)
        except Exception:  # a replay that fails is no reason to fail completion
            found = set()
    return found


def keywords(language: str, expected: set[str]) -> list[str]:
    _, literals, soft = _grammar(language)
    names_allowed = "NAME" in expected
    return sorted(literals[t] for t in expected if t in literals and not (names_allowed and t in soft))


def complete(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    if doc.language == "rddl":
        return _complete_rddl(workspace, doc, offset)
    return _complete_pddl(workspace, doc, offset)


def _complete_pddl(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    text = doc.text
    prefix = _WORD.search(text, 0, offset)
    start = prefix.start() if prefix else offset
    typed = text[start:offset].lower()
    parsed = workspace.pddl(doc)
    replay = text
    for section in parsed.cut:  # broken sections above the cursor would stop the replay
        if section.end < start or (section.end == start < len(text)):
            replay = blank(replay, section.start, section.end)
    expected = expected_terminals("pddl", replay, doc.name, start)
    items = [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Keyword) for k in keywords("pddl", expected)]
    before = text[:start].rstrip()
    previous = before[-1:] if before else ""
    table = workspace.table(doc)
    if "VARIABLE" in expected or typed.startswith("?"):
        items += _variables(workspace, doc, offset)
    if "NAME" in expected:
        if previous == "(":
            groups: list[tuple[dict[str, Symbol], lsp.CompletionItemKind]] = [
                (table.predicates, lsp.CompletionItemKind.Function),
                (table.functions, lsp.CompletionItemKind.Field)]
        elif before.endswith(" -") or before.endswith("\t-") or previous == "-":
            groups = [(table.types, lsp.CompletionItemKind.Class)]
        else:
            groups = [(table.objects, lsp.CompletionItemKind.Constant)]
        for symbols, kind in groups:
            items += [lsp.CompletionItem(label=name, kind=kind, detail=signature(symbol, table))
                      for name, symbol in symbols.items()]
    return [item for item in items if item.label.lower().startswith(typed)]


def _variables(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    """The variables bound around the cursor: from the AST when the action parses, else the
    `?names` written so far in the cursor's section (it is being typed, and may not parse)."""
    node = workspace.pddl(doc).node
    found: dict[str, str] = {}
    if node is not None:
        for typed in enclosing_scope(node, offset):
            found.setdefault(typed.name, f"{typed.name} - {typed.type}" if typed.type is not None else typed.name)
    if not found:
        around = [s for s in sections(doc.text) if s.start <= offset <= s.end]
        if around:
            for match in _VARIABLE.finditer(doc.text, around[-1].start, offset):
                if match.end() < offset:
                    found.setdefault(match.group().lower(), match.group().lower())
    return [lsp.CompletionItem(label=name, kind=lsp.CompletionItemKind.Variable, detail=detail)
            for name, detail in found.items()]


def _complete_rddl(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    text = doc.text
    prefix = _RDDL_WORD.search(text, 0, offset)
    start = prefix.start() if prefix else offset
    typed = text[start:offset]
    expected = expected_terminals("rddl", text, doc.name, start)
    items = [lsp.CompletionItem(label=k, kind=lsp.CompletionItemKind.Keyword) for k in keywords("rddl", expected)]
    node = workspace.rddl(doc).node
    if node is not None and (expected & {"NAME", "PRIMED_NAME"} or not expected):
        for block in node.blocks:
            if isinstance(block, rast.Domain):
                items += [lsp.CompletionItem(label=p.name, kind=lsp.CompletionItemKind.Field,
                                             detail=f"{p.kind}, {p.range}" + (f" ({', '.join(p.params)})"
                                                                              if p.params else ""))
                          for p in block.pvariables]
                items += [lsp.CompletionItem(label=t.name, kind=lsp.CompletionItemKind.Class) for t in block.types]
    return [item for item in items if item.label.startswith(typed)]
