"""`pddltools lsp`: the language server, over stdio, built on pygls.

Diagnostics are published on open and save at once, and on change after a short pause in typing
(`DEBOUNCE` seconds: a burst of keystrokes costs one check, not one per key); they are computed in a
worker thread so that hover and completion keep answering meanwhile. After a change, a problem's
findings come in two rounds: all but relaxed reachability's at once (a tenth of a second on the largest
IPC problem), then, after `SETTLE` more seconds without typing, all of them (reachability grounds the
task: most of a second there). Parses are cached by document
version. Every handler is guarded: an unexpected exception is logged to the client and answered with
"nothing here", never allowed to stop the server.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from pddltools import __version__
from pddltools.dialects import language_server
from pddltools.lsp.actions import code_actions
from pddltools.lsp.completion import complete
from pddltools.lsp.diagnostics import publishable, slow_findings_left_out
from pddltools.lsp.formatting import Refused, formatted, range_changes
from pddltools.lsp.framing import serve_stdio
from pddltools.lsp.navigation import (
    hover_text,
    name_at,
    rddl_hover_text,
    rddl_name_at,
    rddl_references,
    references,
)
from pddltools.lsp.outline import document_symbols
from pddltools.lsp.positions import Positions
from pddltools.lsp.quickstart import Opening
from pddltools.lsp.rename import RenameRefused, highlights, places, rename
from pddltools.lsp.structure import LEGEND, folding_ranges, semantic_tokens, signature_help
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast

DEBOUNCE = 0.15  # seconds of quiet after a change before it is checked
SETTLE = 0.5  # seconds more of quiet before a changed problem's relaxed reachability is analysed
RENAME_FAILED = -32803  # the protocol's RequestFailed: the client shows the message
_R = TypeVar("_R")
log = logging.getLogger("pddltools.lsp")


class PDDLServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pddltools", __version__)
        self.store = Workspace()
        self.pending: dict[str, asyncio.Task[None]] = {}
        self._positions: tuple[tuple[str, int, int, str], Positions] | None = None

    @property
    def encoding(self) -> str:
        chosen = self.workspace.position_encoding
        return str(getattr(chosen, "value", chosen) or "utf-16")

    def positions(self, doc: Document) -> Positions:
        """The line index of the document's current text (built once per version: 30 ms on 1.6 MB)."""
        key = (doc.uri, doc.version, len(doc.text), self.encoding)
        cached = self._positions
        if cached is None or cached[0] != key:
            cached = self._positions = (key, Positions(doc.text, self.encoding))
        return cached[1]

    def report(self, where: str) -> None:
        self.window_log_message(lsp.LogMessageParams(type=lsp.MessageType.Error,
                                                     message=f"pddltools lsp: {where} failed:\n"
                                                     + traceback.format_exc()))

    # -- diagnostics -----------------------------------------------------------------------------
    def schedule(self, uri: str, delay: float, *, typing: bool = False) -> None:
        """Check `uri` after `delay` seconds; `typing`: in two rounds (see the module's docstring)."""
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._check(uri, delay, typing))

    async def _check(self, uri: str, delay: float, typing: bool = False) -> None:
        try:
            if delay:
                await asyncio.sleep(delay)
            doc = self.store.documents.get(uri)
            if doc is None:
                return
            encoding = self.encoding
            if typing:
                await self._publish(doc, encoding, slow=False)
                if not await asyncio.to_thread(slow_findings_left_out, self.store, doc):
                    return
                await asyncio.sleep(SETTLE)  # a keystroke meanwhile cancels this task (`schedule`)
            await self._publish(doc, encoding, slow=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            self.report(f"checking {uri}")
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def _publish(self, doc: Document, encoding: str, *, slow: bool) -> None:
        """Publish the document's diagnostics (`slow=False`: without relaxed reachability's), then those
        of its open problems if it is a domain: a changed domain changes their findings."""
        version, diagnostics = await asyncio.to_thread(publishable, self.store, doc, encoding, slow=slow)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=doc.uri, version=version, diagnostics=diagnostics))
        if doc.language != "pddl":
            return
        node = self.store.pddl(doc).node
        if not isinstance(node, ast.Domain):
            return
        for problem in await asyncio.to_thread(self.store.problems_of, node, doc.uri):
            version, diagnostics = await asyncio.to_thread(publishable, self.store, problem, encoding, slow=slow)
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=problem.uri, version=version, diagnostics=diagnostics))


server = PDDLServer()


def guarded(default: Any) -> Callable[[Callable[..., _R]], Callable[..., _R]]:
    """Answer `default` (and log the traceback to the client) when a handler fails."""

    def wrap(handler: Callable[..., _R]) -> Callable[..., _R]:
        @functools.wraps(handler)
        def run(ls: PDDLServer, params: Any) -> _R:
            try:
                return handler(ls, params)
            except JsonRpcException:
                raise  # an answer the client shows: a rename refused, and why
            except Exception:
                ls.report(handler.__name__)
                return default  # type: ignore[no-any-return]

        return run

    return wrap


def _document(ls: PDDLServer, uri: str) -> Document | None:
    return ls.store.documents.get(uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
@guarded(None)
def did_open(ls: PDDLServer, params: lsp.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.store.open(item.uri, item.text, item.version, item.language_id)
    ls.schedule(item.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
@guarded(None)
def did_change(ls: PDDLServer, params: lsp.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source  # pygls has applied the (incremental) changes
    if ls.store.change(uri, text, params.text_document.version) is not None:
        ls.schedule(uri, DEBOUNCE, typing=True)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
@guarded(None)
def did_save(ls: PDDLServer, params: lsp.DidSaveTextDocumentParams) -> None:
    if params.text_document.uri in ls.store.documents:
        ls.schedule(params.text_document.uri, 0)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
@guarded(None)
def did_close(ls: PDDLServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    task = ls.pending.pop(uri, None)
    if task is not None:
        task.cancel()
    ls.store.close(uri)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
@guarded(None)
def hover(ls: PDDLServer, params: lsp.HoverParams) -> lsp.Hover | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    positions = ls.positions(doc)
    extension = language_server(doc.language)
    if extension is not None:
        shown = extension.hover_markdown(ls.store, doc, positions.offset(params.position))
        if shown is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=shown[0]),
                         range=positions.span_range(shown[1]))
    if doc.language == "rddl":
        rddl = rddl_name_at(ls.store, doc, positions.offset(params.position))
        if rddl is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=rddl_hover_text(rddl)),
                         range=positions.span_range(rddl.use.span))
    found = name_at(ls.store, doc, positions.offset(params.position))
    if found is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=hover_text(found)),
                     range=positions.span_range(found.use.span))


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
@guarded(None)
def definition(ls: PDDLServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    offset = ls.positions(doc).offset(params.position)
    extension = language_server(doc.language)
    if extension is not None:
        declared = extension.definition(ls.store, doc, offset)
        return [_location(ls, doc, declared)] if declared is not None else None
    if doc.language == "rddl":
        rddl = rddl_name_at(ls.store, doc, offset)
        if rddl is None or rddl.declaration is None:
            return None
        return [_location(ls, doc, rddl.declaration.span)]
    found = name_at(ls.store, doc, offset)
    if found is None or found.symbol is None:
        return None
    return [_location(ls, doc, found.symbol.span)]


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
@guarded(None)
def find_references(ls: PDDLServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    offset = ls.positions(doc).offset(params.position)
    extension = language_server(doc.language)
    if extension is not None:
        spans = extension.all_references(ls.store, doc, offset, params.context.include_declaration)
        return [_location(ls, doc, span) for span in spans]
    if doc.language == "rddl":
        rddl = rddl_name_at(ls.store, doc, offset)
        if rddl is None:
            return None
        return [_location(ls, doc, span) for span in rddl_references(rddl, params.context.include_declaration)]
    found = name_at(ls.store, doc, offset)
    if found is None:
        return None
    spans = references(ls.store, doc, found, params.context.include_declaration)
    return [_location(ls, doc, span) for span in spans]


def _location(ls: PDDLServer, doc: Document, span: Any) -> lsp.Location:
    if span.file == doc.name:
        return lsp.Location(uri=doc.uri, range=ls.positions(doc).span_range(span))
    uri = ls.store.uri_of(span.file)
    opened = ls.store.documents.get(uri)
    text = opened.text if opened is not None else span.source.text
    return lsp.Location(uri=uri, range=Positions(text, ls.encoding).span_range(span))


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=["(", ":", "?", "-", " "]))
@guarded(None)
def completion(ls: PDDLServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    items = complete(ls.store, doc, ls.positions(doc).offset(params.position))
    return lsp.CompletionList(is_incomplete=False, items=items)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded(None)
def symbols(ls: PDDLServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    return document_symbols(ls.store, doc, ls.encoding)


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
@guarded(None)
def formatting(ls: PDDLServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    try:
        text = formatted(doc)
    except Refused as refusal:
        ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=str(refusal)))
        return None
    if text == doc.text:
        return []
    return [lsp.TextEdit(range=ls.positions(doc).whole(), new_text=text)]


@server.feature(lsp.TEXT_DOCUMENT_RANGE_FORMATTING)
@guarded(None)
def range_formatting(ls: PDDLServer, params: lsp.DocumentRangeFormattingParams) -> list[lsp.TextEdit] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    positions = ls.positions(doc)
    try:
        changes = range_changes(doc, positions.offset(params.range.start), positions.offset(params.range.end))
    except Refused as refusal:
        ls.window_show_message(lsp.ShowMessageParams(type=lsp.MessageType.Warning, message=str(refusal)))
        return None
    return [lsp.TextEdit(range=positions.range(c.start, c.end), new_text=c.text) for c in changes]


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded(None)
def prepare_rename(ls: PDDLServer, params: lsp.PrepareRenameParams) -> lsp.Range | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    positions = ls.positions(doc)
    found = places(ls.store, doc, positions.offset(params.position))
    return None if found is None else positions.span_range(found.at)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
@guarded(None)
def rename_symbol(ls: PDDLServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    try:
        spans = rename(ls.store, doc, ls.positions(doc).offset(params.position), params.new_name)
    except RenameRefused as refusal:
        raise JsonRpcException(str(refusal), RENAME_FAILED) from None
    changes: dict[str, list[lsp.TextEdit]] = {}
    for span in spans:
        location = _location(ls, doc, span)
        changes.setdefault(location.uri, []).append(lsp.TextEdit(range=location.range, new_text=params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@guarded(None)
def document_highlight(ls: PDDLServer, params: lsp.DocumentHighlightParams) -> list[lsp.DocumentHighlight] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    positions = ls.positions(doc)
    kind = lsp.DocumentHighlightKind
    return [lsp.DocumentHighlight(range=positions.span_range(span), kind=kind.Write if declares else kind.Read)
            for span, declares in highlights(ls.store, doc, positions.offset(params.position))]


@server.feature(lsp.TEXT_DOCUMENT_FOLDING_RANGE)
@guarded(None)
def folding(ls: PDDLServer, params: lsp.FoldingRangeParams) -> list[lsp.FoldingRange] | None:
    doc = _document(ls, params.text_document.uri)
    return None if doc is None else folding_ranges(doc, ls.positions(doc))


@server.feature(lsp.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
@guarded(None)
def semantic(ls: PDDLServer, params: lsp.SemanticTokensParams) -> lsp.SemanticTokens | None:
    doc = _document(ls, params.text_document.uri)
    return None if doc is None else semantic_tokens(ls.store, doc, ls.positions(doc))


@server.feature(lsp.TEXT_DOCUMENT_SIGNATURE_HELP, lsp.SignatureHelpOptions(trigger_characters=["(", " ", ","]))
@guarded(None)
def signature(ls: PDDLServer, params: lsp.SignatureHelpParams) -> lsp.SignatureHelp | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    return signature_help(ls.store, doc, ls.positions(doc).offset(params.position))


@server.feature(lsp.WORKSPACE_SYMBOL)
@guarded(None)
def workspace_symbols(ls: PDDLServer, params: lsp.WorkspaceSymbolParams) -> list[lsp.WorkspaceSymbol] | None:
    wanted = params.query.lower()
    out: list[lsp.WorkspaceSymbol] = []
    for doc in list(ls.store.documents.values()):
        stack: list[tuple[lsp.DocumentSymbol, str | None]] = [
            (symbol, None) for symbol in document_symbols(ls.store, doc, ls.encoding)]
        while stack:
            symbol, container = stack.pop()
            if _matches(wanted, symbol.name.lower()):
                out.append(lsp.WorkspaceSymbol(name=symbol.name, kind=symbol.kind, container_name=container,
                                               location=lsp.Location(uri=doc.uri, range=symbol.selection_range)))
            stack.extend((child, symbol.name) for child in symbol.children or ())
    return sorted(out, key=lambda s: (s.name, s.container_name or ""))


def _matches(query: str, name: str) -> bool:
    """Whether the query's characters come in `name` in order (`mvtr` finds `move-truck`), as editors match."""
    at = 0
    for char in query:
        at = name.find(char, at) + 1
        if at == 0:
            return False
    return True


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
@guarded(None)
def quick_fixes(ls: PDDLServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
    doc = _document(ls, params.text_document.uri)
    if doc is None:
        return None
    return code_actions(ls.store, doc, list(params.context.diagnostics), ls.encoding)


@server.command("pddltools.domainOf")
@guarded(None)
def domain_of(ls: PDDLServer, uri: str) -> str | None:
    """The URI of the domain an open problem is checked against (the editor's run-a-planner command)."""
    doc = _document(ls, uri)
    if doc is None:
        return None
    extension = language_server(doc.language)
    if extension is not None:
        domain = extension.domain_of(ls.store, doc)
        return ls.store.uri_of(domain.span.file) if domain is not None and domain.span is not None else None
    node = ls.store.pddl(doc).node
    if isinstance(node, ast.Domain):
        return doc.uri
    found = ls.store.domain_for(doc, node) if isinstance(node, ast.Problem) else None
    return found[0] if found is not None else None


def main(opening: Opening | None = None) -> int:
    """Serve stdio; `opening` is what `lsp.quickstart` read (and answered) before pygls was imported."""
    serve_stdio(server, opening=opening)  # pygls' start_io, with every frame checked (lsp/framing.py)
    return 0
