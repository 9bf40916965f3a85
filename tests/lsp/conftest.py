"""A real LSP client (pytest-lsp) driving `pddltools lsp` as a subprocess, and helpers to talk to it."""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from pddltools.diagnostics import Source
from pddltools.reading import read_source

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO / "corpus" / "lsp"
SHARED = REPO.parent / "shared" / "corpus"


def parsed_corpus_texts(folder: str, pattern: str, parse: Callable[[Source], object],
                        errors: type[Exception], step: int, max_size: int | None = None) -> list[str]:
    """Every `step`-th file of the shared corpus' `folder` (below `max_size` bytes) that `parse` takes,
    as text; the test is skipped where the corpus is not there."""
    root = SHARED / folder
    if not root.is_dir():
        pytest.skip("the shared corpus is not there")
    paths = [p for p in sorted(root.rglob(pattern)) if max_size is None or p.stat().st_size < max_size][::step]
    texts = []
    for path in paths:
        text = read_source(path).text
        try:
            parse(Source(text, str(path)))
        except errors:
            continue
        texts.append(text)
    return texts


def server_command() -> list[str]:
    installed = shutil.which("pddltools")
    return [installed, "lsp"] if installed else [sys.executable, "-m", "pddltools.cli", "lsp"]


#: the document version each URI's last diagnostics were published for (None: the server gave none)
published_version: dict[str, int | None] = {}


def record_publish(client: LanguageClient, params: lsp.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    published_version[params.uri] = params.version


def versioned_client() -> LanguageClient:
    """pytest-lsp's test client, keeping the version of each publish as well: a check of an earlier
    version may still be on its way when a change is sent, and a test must not take it for the change's."""
    client = LanguageClient(converter_factory=default_converter)
    register_lsp_features(client, {**DEFAULT_CLIENT_FEATURES, lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: record_publish})
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=server_command(), client_factory=versioned_client),
                    scope="module")
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=CORPUS.as_uri()))
    yield
    await lsp_client.shutdown_session()


_versions: dict[str, int] = {}


async def open_document(client: LanguageClient, path: Path, text: str | None = None,
                        language: str | None = None, timeout: float = 30) -> Sequence[lsp.Diagnostic]:
    """Open `path` (with `text` instead of its content, if given) and return its first diagnostics."""
    uri = path.resolve().as_uri()
    client.diagnostics.pop(uri, None)
    version = _versions[uri] = _versions.get(uri, 0) + 1
    content = text if text is not None else path.read_text(encoding="utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id=language or ("rddl" if path.suffix == ".rddl" else "pddl"), version=version,
        text=content)))
    return await diagnostics_of(client, uri, timeout, version=version)


async def change_document(client: LanguageClient, path: Path, text: str, timeout: float = 30
                          ) -> Sequence[lsp.Diagnostic]:
    """Replace the whole text of an open document; return the diagnostics published for it."""
    uri = path.resolve().as_uri()
    client.diagnostics.pop(uri, None)
    version = _versions[uri] = _versions[uri] + 1
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    return await diagnostics_of(client, uri, timeout, version=version)


def close_document(client: LanguageClient, path: Path) -> None:
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=path.resolve().as_uri())))


async def diagnostics_of(client: LanguageClient, uri: str, timeout: float = 30, *,
                         version: int | None = None) -> Sequence[lsp.Diagnostic]:
    """The next diagnostics published for `uri` (given `version`: the next published for that version
    of the document, those of earlier versions passed over)."""
    async def wait() -> Sequence[lsp.Diagnostic]:
        while True:
            if uri in client.diagnostics:
                if version is None or published_version.get(uri) == version:
                    return client.diagnostics[uri]
                del client.diagnostics[uri]
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    return await asyncio.wait_for(wait(), timeout)


async def diagnostics_until(client: LanguageClient, uri: str, wanted: Callable[[Sequence[lsp.Diagnostic]], bool],
                            timeout: float = 30) -> Sequence[lsp.Diagnostic]:
    """The first diagnostics published for `uri` that are `wanted`, the ones already received included.
    For a document checked again because another changed: a publish computed before that change may still
    be on its way, and the client, like an editor, keeps whichever comes last."""
    seen: list[Sequence[lsp.Diagnostic]] = []

    async def wait() -> Sequence[lsp.Diagnostic]:
        while True:
            if uri in client.diagnostics:
                seen.append(client.diagnostics.pop(uri))
                if wanted(seen[-1]):
                    return seen[-1]
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    try:
        return await asyncio.wait_for(wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"none of the {len(seen)} publishes for {uri} in {timeout} s is the one wanted; "
                             f"the last: {seen[-1] if seen else None}") from None


def position_of(text: str, needle: str, skip: int = 0, occurrence: int = 0) -> lsp.Position:
    """The position of the `occurrence`-th `needle` in `text`, `skip` characters into it."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += skip
    line = text.count("\n", 0, at)
    return lsp.Position(line=line, character=at - (text.rfind("\n", 0, at) + 1))


def doc_id(path: Path) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=path.resolve().as_uri())
