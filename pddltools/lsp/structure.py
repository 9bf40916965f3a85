"""What an editor draws from a document's structure: folding ranges, semantic tokens and signature help.

All three read the parser's own token stream (`Language.trivia`: every token's place and the comments),
so that a half-typed document, which no longer parses, still folds and still shows the signature of the
atom being typed; the names are classified by the same indexes as references (`pddl_index`,
`hddl_index`, `rddl_index`) on the last tree that parsed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from lsprotocol import types as lsp

from pddltools.diagnostics import Source
from pddltools.dialects import language_server
from pddltools.lsp.positions import Positions
from pddltools.lsp.workspace import Document, Workspace
from pddltools.syntax import Trivia, UnexpectedCharacter
from pddltools.syntax.language import Language

#: The semantic token types this server sends, in the order of its legend.
TOKEN_TYPES = ("namespace", "type", "function", "property", "enumMember", "method", "parameter", "keyword",
               "comment", "number", "variable", "event")
TOKEN_MODIFIERS = ("declaration",)
LEGEND = lsp.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=list(TOKEN_MODIFIERS))
_KIND_TYPE = {"domain": "namespace", "type": "type", "predicate": "function", "function": "property",
              "object": "enumMember", "action": "method", "method": "method", "parameter": "parameter",
              "task": "event", "id": "variable", "pvariable": "property"}


def language(doc: Document) -> Language:
    return language_named(doc.language)


@cache
def language_named(name: str) -> Language:
    if name == "rddl":
        from pddltools.rddl.language import LANGUAGE as RDDL

        return RDDL
    from pddltools import dialects

    found = dialects.implementation(dialects.by_name(name) or dialects.CORE).language
    if found is not None:
        return found  # type: ignore[no-any-return]
    from pddltools.pddl.language import LANGUAGE as PDDL

    return PDDL


_scanned: dict[str, tuple[tuple[int, int], Trivia]] = {}  # by URI: (version, length) and the scan


def trivia(doc: Document) -> Trivia:
    """The document's comments and tokens (kept per version: folding, semantic tokens and signature help
    all ask); nothing where a character no token starts with stops the scan."""
    key = (doc.version, len(doc.text))
    cached = _scanned.get(doc.uri)
    if cached is not None and cached[0] == key:
        return cached[1]
    try:
        found = language(doc).trivia(Source(doc.text, doc.name))
    except UnexpectedCharacter:
        found = Trivia([], [])
    if len(_scanned) > 32:
        _scanned.clear()
    _scanned[doc.uri] = (key, found)
    return found


# -------------------------------------------------------------------------------------------------
# Folding


def folding_ranges(doc: Document, positions: Positions) -> list[lsp.FoldingRange]:
    """A range per bracket pair spanning lines (parentheses in PDDL and HDDL, braces in RDDL) and per
    run of two or more lines of comments."""
    opening, closing = ("{", "}") if doc.language == "rddl" else ("(", ")")
    found = trivia(doc)
    text = doc.text
    out: list[lsp.FoldingRange] = []
    stack: list[int] = []
    for start, end in found.tokens:
        token = text[start:end]
        if token == opening:
            stack.append(start)
        elif token == closing and stack:
            first, last = positions.position(stack.pop()).line, positions.position(start).line
            if last > first:
                out.append(lsp.FoldingRange(start_line=first, end_line=last))
    run: list[int] = []
    for start, end in found.comments:
        line, last_line = positions.position(start).line, positions.position(end).line
        if run and line == run[1] + 1:
            run[1] = last_line
        else:
            _comment_fold(run, out)
            run = [line, last_line]
    _comment_fold(run, out)
    return sorted(out, key=lambda r: (r.start_line, -r.end_line))


def _comment_fold(run: list[int], out: list[lsp.FoldingRange]) -> None:
    if run and run[1] > run[0]:
        out.append(lsp.FoldingRange(start_line=run[0], end_line=run[1], kind=lsp.FoldingRangeKind.Comment))


# -------------------------------------------------------------------------------------------------
# Semantic tokens


@dataclass(frozen=True)
class Mark:
    start: int
    end: int
    type: str
    declaration: bool = False


def semantic_tokens(workspace: Workspace, doc: Document, positions: Positions) -> lsp.SemanticTokens:
    marks = {m.start: m for m in _lexical(doc)}
    for mark in _names(workspace, doc):
        marks[mark.start] = mark  # a name's kind wins over the lexical guess
    data: list[int] = []
    line = column = 0
    for mark in sorted(marks.values(), key=lambda m: m.start):
        for start, end in _lines(doc.text, mark.start, mark.end):
            at, stop = positions.position(start), positions.position(end)
            if stop.character <= at.character:
                continue
            delta_line = at.line - line
            delta = at.character - column if delta_line == 0 else at.character
            data += [delta_line, delta, stop.character - at.character, TOKEN_TYPES.index(mark.type),
                     1 if mark.declaration else 0]
            line, column = at.line, at.character
    return lsp.SemanticTokens(data=data)


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """[start, end) cut at line ends (a block comment over several lines is one token per line)."""
    out = []
    while True:
        newline = text.find("\n", start, end)
        if newline < 0:
            out.append((start, end))
            return out
        out.append((start, newline))
        start = newline + 1


@cache
def _keywords(name: str) -> frozenset[str]:
    return frozenset(word.lower() for word in language_named(name).keywords().values())


def _lexical(doc: Document) -> list[Mark]:
    """Comments, numbers and keywords, from the token stream."""
    found = trivia(doc)
    text = doc.text
    keywords = _keywords(doc.language)
    marks = [Mark(start, end, "comment") for start, end in found.comments]
    for start, end in found.tokens:
        token = text[start:end]
        lowered = token.lower()
        if token[0].isdigit() or (token[0] in "-." and len(token) > 1 and token[1:2].isdigit()):
            marks.append(Mark(start, end, "number"))
        elif lowered in keywords and (token[0] == ":" or token[0].isalpha()):
            marks.append(Mark(start, end, "keyword"))
    return marks


def _names(workspace: Workspace, doc: Document) -> list[Mark]:
    if doc.language == "rddl":
        from pddltools.lsp.rddl_index import uses as rddl_uses

        rddl = workspace.rddl(doc).node
        if rddl is None:
            return []
        return [Mark(u.span.start, u.span.end, _KIND_TYPE.get(u.kind, "variable"), u.declaration)
                for u in rddl_uses(rddl) if u.span.file == doc.name]
    from pddltools.lsp.pddl_index import uses

    roots: list[Any] = []
    marks: list[Mark] = []
    extension = language_server(doc.language)  # HDDL: its tasks and methods, then its PDDL part
    if extension is not None:
        found = extension.semantic_parts(doc)
        if found is None:
            return []
        hierarchy, pddl_root = found
        marks += [Mark(u.span.start, u.span.end, _KIND_TYPE[u.kind], u.declaration) for u in hierarchy]
        roots.append(pddl_root)
    else:
        parsed = workspace.pddl(doc).node
        if parsed is None:
            return []
        roots.append(parsed)
    functions = frozenset(workspace.table(doc).functions) if doc.language == "pddl" else frozenset()
    for root in roots:
        marks += [Mark(u.span.start, u.span.end, _KIND_TYPE[u.kind], u.declaration) for u in uses(root, functions)
                  if u.span.file == doc.name]
    return marks


# -------------------------------------------------------------------------------------------------
# Signature help


def signature_help(workspace: Workspace, doc: Document, offset: int) -> lsp.SignatureHelp | None:
    """The signature of the predicate, function, action or task whose call holds the cursor, with the
    argument being typed; in RDDL, of the pvariable whose `name(` holds it."""
    found = trivia(doc)
    text = doc.text
    opening, separator = "(", None
    if doc.language == "rddl":
        separator = ","
    stack: list[tuple[int, list[int]]] = []  # index of each open parenthesis, and its tokens at its depth
    tokens = [t for t in found.tokens if t[0] < offset]
    for index, (start, end) in enumerate(tokens):
        token = text[start:end]
        if stack:
            stack[-1][1].append(index)
        if token == opening:
            stack.append((index, []))
        elif token == ")" and stack:
            stack.pop()
            if stack:
                stack[-1][1].append(index)
    if not stack:
        return None
    open_at, inside = stack[-1]
    if doc.language == "rddl":
        if open_at == 0:
            return None
        head = text[tokens[open_at - 1][0]:tokens[open_at - 1][1]]
        argument = sum(1 for i in inside if text[tokens[i][0]:tokens[i][1]] == separator)
        return _rddl_signature(workspace, doc, head, argument)
    if not inside:
        return None
    head = text[tokens[inside[0]][0]:tokens[inside[0]][1]].lower()
    argument = _arguments_before(text, tokens, inside[1:], offset)
    return _pddl_signature(workspace, doc, head, argument)


def _arguments_before(text: str, tokens: list[tuple[int, int]], inside: list[int], offset: int) -> int:
    """How many whole arguments come before the cursor (a nested group counts once)."""
    count = 0
    depth = 0
    for i in inside:
        token = text[tokens[i][0]:tokens[i][1]]
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            if depth == 0:
                count += 1
        elif depth == 0:
            count += 1
    if inside and tokens[inside[-1]][1] == offset and text[tokens[inside[-1]][0]:tokens[inside[-1]][1]] != ")":
        count -= 1  # the cursor is at the end of the argument being typed
    return max(count, 0)


def _pddl_signature(workspace: Workspace, doc: Document, head: str, argument: int) -> lsp.SignatureHelp | None:
    from pddltools.lsp.navigation import parameters_text

    parameters: tuple[Any, ...] | None = None
    kind = ""
    extension = language_server(doc.language)  # HDDL: its tasks' signatures, then its PDDL part's
    if extension is not None:
        found = extension.task_signature(workspace, doc, head)
        if found is None:
            return None
        table_domain, parameters, kind = found
    else:
        table = workspace.table(doc)
        table_domain = table.domain
        if table_domain is None:
            return None
    if parameters is None:
        for decl in table_domain.predicates:
            if decl.name == head:
                parameters, kind = decl.parameters, "predicate"
        for fdecl in table_domain.functions:
            if fdecl.name == head:
                parameters, kind = fdecl.parameters, "function"
        for structure in (*table_domain.structures, *table_domain.processes_and_events):
            if getattr(structure, "name", None) == head:
                parameters, kind = structure.parameters, "action"
    if parameters is None:
        return None
    label = f"({head}"
    infos: list[lsp.ParameterInformation] = []
    for parameter in parameters:
        piece = parameters_text((parameter,))
        start = len(label) + 1
        label += piece
        infos.append(lsp.ParameterInformation(label=(start, len(label))))
    label += ")"
    signature = lsp.SignatureInformation(label=label, documentation=kind, parameters=infos)
    active = min(argument, len(infos) - 1) if infos else None
    return lsp.SignatureHelp(signatures=[signature], active_signature=0, active_parameter=active)


def _rddl_signature(workspace: Workspace, doc: Document, head: str, argument: int) -> lsp.SignatureHelp | None:
    from pddltools.lsp.rddl_index import declarations
    from pddltools.rddl import ast as rast

    rddl = workspace.rddl(doc).node
    if rddl is None:
        return None
    files = [rddl, *workspace.rddl_companions(doc, rddl)]
    declared = declarations(files).get(("pvariable", head))
    if declared is None or not isinstance(declared.node, rast.PVariableDecl):
        return None
    decl = declared.node
    label = f"{head}("
    infos: list[lsp.ParameterInformation] = []
    for index, param in enumerate(decl.params):
        if index:
            label += ", "
        infos.append(lsp.ParameterInformation(label=(len(label), len(label) + len(param))))
        label += param
    label += f") : {{ {decl.kind}, {decl.range} }}"
    signature = lsp.SignatureInformation(label=label, parameters=infos)
    active = min(argument, len(infos) - 1) if infos else None
    return lsp.SignatureHelp(signatures=[signature], active_signature=0, active_parameter=active)
