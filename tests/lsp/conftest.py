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


Publish = tuple[int | None, Sequence[lsp.Diagnostic]]

#: every publish not yet taken, per URI, oldest first: (the document version it is for, or None, and the
#: diagnostics). A queue, not the last publish only: a slower round or a second check of the same version
#: may come in before the test looks, and it must not hide the one the test waits for.
publishes: dict[str, list[Publish]] = {}


def record_publish(client: LanguageClient, params: lsp.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    publishes.setdefault(params.uri, []).append((params.version, params.diagnostics))


def versioned_client() -> LanguageClient:
    """pytest-lsp's test client, keeping every publish with its version (`publishes`)."""
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


def forget(path: Path) -> None:
    """Pass over the publishes for `path` received so far."""
    publishes.pop(path.resolve().as_uri(), None)


def version_of(path: Path) -> int:
    """The version of `path` last sent to the server."""
    return _versions[path.resolve().as_uri()]


async def open_document(client: LanguageClient, path: Path, text: str | None = None,
                        language: str | None = None, timeout: float = 30) -> Sequence[lsp.Diagnostic]:
    """Open `path` (with `text` instead of its content, if given) and return its first diagnostics."""
    uri = path.resolve().as_uri()
    forget(path)
    version = _versions[uri] = _versions.get(uri, 0) + 1
    content = text if text is not None else path.read_text(encoding="utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(text_document=lsp.TextDocumentItem(
        uri=uri, language_id=language or ("rddl" if path.suffix == ".rddl" else "pddl"), version=version,
        text=content)))
    return await diagnostics_of(client, path, timeout, version=version)


async def change_document(client: LanguageClient, path: Path, text: str, timeout: float = 30
                          ) -> Sequence[lsp.Diagnostic]:
    """Replace the whole text of an open document; return the first diagnostics published for the new
    version (after a change: the quick round)."""
    uri = path.resolve().as_uri()
    forget(path)
    version = _versions[uri] = _versions[uri] + 1
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    return await diagnostics_of(client, path, timeout, version=version)


def close_document(client: LanguageClient, path: Path) -> None:
    client.text_document_did_close(lsp.DidCloseTextDocumentParams(
        text_document=lsp.TextDocumentIdentifier(uri=path.resolve().as_uri())))


async def diagnostics_until(client: LanguageClient, path: Path,
                            wanted: Callable[[int | None, Sequence[lsp.Diagnostic]], bool],
                            timeout: float = 30) -> Sequence[lsp.Diagnostic]:
    """The diagnostics of the oldest publish for `path` not yet taken that is `wanted` (given its version
    and diagnostics); those before it are taken and passed over. AssertionError when none comes in
    `timeout` seconds."""
    uri = path.resolve().as_uri()
    passed: list[Publish] = []

    async def wait() -> Sequence[lsp.Diagnostic]:
        while True:
            queue = publishes.get(uri, [])
            while queue:
                passed.append(queue.pop(0))
                if wanted(*passed[-1]):
                    return passed[-1][1]
            await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)

    try:
        return await asyncio.wait_for(wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"none of the {len(passed)} publishes for {uri} in {timeout} s is the one wanted; "
                             f"the last: {passed[-1] if passed else None}") from None


async def diagnostics_of(client: LanguageClient, path: Path, timeout: float = 30, *,
                         version: int | None = None) -> Sequence[lsp.Diagnostic]:
    """The diagnostics of the oldest publish for `path` not yet taken (given `version`: of the oldest for
    that version of the document, those for other versions passed over)."""
    return await diagnostics_until(client, path, lambda v, _: version is None or v == version, timeout)


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
