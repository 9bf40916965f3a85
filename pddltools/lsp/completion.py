"""Completion: the keywords the grammar accepts at the cursor, and the names in scope there.

Keywords come from the LALR parser itself: the text before the cursor is replayed on the parser's
tables (`FastParser.expected_at`) and every literal terminal it would shift is offered. Sections the
document's parse had to cut (broken ones) are blanked in that text first, so that an error higher up
does not silence completion lower down. Words that the grammar also accepts as names (`at`, `start`,
`domain`) are offered as keywords only where no name could stand.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lsprotocol import types as lsp

from pddltools.diagnostics import Source
from pddltools.dialects import language_server
from pddltools.lsp.navigation import signature
from pddltools.lsp.pddl_index import Symbol, enclosing_scope
from pddltools.lsp.recovery import sections
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl.language import LANGUAGE as PDDL_LANGUAGE
from pddltools.rddl import ast as rast
from pddltools.syntax.language import Language

_RDDL_WORD = re.compile(r"[\w\-?@$']")
_VARIABLE = re.compile(r"\?[^\s()]+")


def _language(language: str) -> Language:
    if language == "pddl":
        return PDDL_LANGUAGE
    from pddltools.rddl.language import LANGUAGE as RDDL_LANGUAGE

    return RDDL_LANGUAGE


def expected_terminals(language: str, text: str, name: str, offset: int) -> set[str]:
    """The terminals the parser would shift at `offset` of `text` (empty when the text before it is broken)."""
    return _language(language).expected_terminals(Source(text, name), offset)


def keywords(language: str, expected: set[str]) -> list[str]:
    grammar = _language(language)
    literals, soft = grammar.keywords(), grammar.soft_keywords()
    names_allowed = "NAME" in expected
    return sorted(literals[t] for t in expected if t in literals and not (names_allowed and t in soft))


def complete(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    if doc.language == "rddl":
        return _complete_rddl(workspace, doc, offset)
    extension = language_server(doc.language)
    if extension is not None:
        return list(extension.complete(workspace, doc, offset))
    return _complete_pddl(workspace, doc, offset)


def _complete_pddl(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    text = doc.text
    start = _word_start(text, offset, lambda ch: not ch.isspace() and ch not in "()")
    typed = text[start:offset].lower()
    expected = expected_terminals("pddl", _replay_text(text, start), doc.name, start)
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


def _word_start(text: str, offset: int, in_word: Callable[[str], bool]) -> int:
    """Where the word the cursor ends starts (read backwards: a search for `word$` from the start of
    a large file would be quadratic)."""
    start = offset
    while start > 0 and in_word(text[start - 1]):
        start -= 1
    return start


def _replay_text(text: str, offset: int) -> str:
    """The text the parser replays to know what may come at `offset`: the file's header and the
    section the cursor is in. Sections above are blanked: they cannot change what the grammar allows
    here (top-level sections may come in any order), a broken one would stop the replay, and a
    5,000-line prefix would take far longer than a completion may."""
    header = PDDL_LANGUAGE.header(text)
    if header is None:
        return text
    around = [s for s in sections(text) if s.start < offset]
    if not around or around[-1].start <= header.end:
        return text
    begin, end = header.end, around[-1].start
    text = text[:begin] + " " * (end - begin) + text[end:]
    if offset - end > _LARGE_SECTION:
        text = _shorten_runs(text, end, offset)
    return text


_LARGE_SECTION = 20_000
_FORMS = re.compile(r";[^\n]*|[()]")


def _shorten_runs(text: str, start: int, offset: int) -> str:
    """`text` with long runs of complete forms before `offset` blanked, all but the last two of each.

    Inside a list (`:init`, `and`, `:predicates`) the grammar's state after `f1 ... fn` is its state
    after `fn-1 fn`, and no PDDL construct takes three forms in a row otherwise; so the replay of a
    100,000-fact :init needs only its last two facts."""
    runs: list[list[tuple[int, int]]] = [[]]  # per open form: its current run of complete child forms
    opened: list[int] = []
    blanks: list[tuple[int, int]] = []
    for match in _FORMS.finditer(text, start, offset):
        char = match.group()
        if char == "(":
            opened.append(match.start())
            runs.append([])
        elif char == ")" and opened:
            begin = opened.pop()
            blanks += runs.pop()[:-2]  # inside a form now complete, too
            run = runs[-1]
            if run and text[run[-1][1]:begin].strip():
                blanks += run[:-2]
                run.clear()
            run.append((begin, match.end()))
    for run in runs:
        blanks += run[:-2]
    pieces: list[str] = []
    at = 0
    for begin, end in sorted(blanks):
        pieces += [text[at:begin], " " * (end - begin)]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


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
    start = _word_start(text, offset, lambda ch: _RDDL_WORD.match(ch) is not None)
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
