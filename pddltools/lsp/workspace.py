"""The documents the editor has open, their parses (cached by version) and the files they lean on.

A PDDL problem is checked against the domain `pddltools.domain_finder` finds for it, as every command
finds it (the open documents count as the files given; an open one is read as the editor has it). An
RDDL instance or non-fluents block finds the blocks it names among the open documents and the `*.rddl`
files of its folder. Open PDDL documents are parsed section by section (`incremental`), open RDDL
documents block by block (`rddl_incremental`), files read from disk whole and cached by modification
time. Thread-safe: diagnostics are computed off the event loop."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlparse

from pddltools import dialects
from pddltools.check.memo import InitMemo
from pddltools.diagnostics import Diagnostic, Error, Source, decode_source
from pddltools.domain_finder import HEAD_BYTES, DomainFinder, Resolution, classify, classify_file
from pddltools.lsp.incremental import SectionCache
from pddltools.lsp.pddl_index import Table, build_table
from pddltools.lsp.rddl_incremental import BlockCache
from pddltools.lsp.recovery import Parsed, parse_document
from pddltools.pddl import ast
from pddltools.rddl import ast as rast
from pddltools.rddl.parser import parse as parse_rddl
from pddltools.reading import read_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.domain_finder import Kind

Language = Literal["pddl", "rddl", "hddl"]
_MAX_CANDIDATES = 200  # files of a folder read for their header, at most


def uri_to_path(uri: str) -> Path | None:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def language_of(uri: str, language_id: str | None = None) -> Language:
    chosen = (language_id or "").lower()
    lowered = uri.lower()
    registered = dialects.language_of(lowered, chosen)  # editors may call HDDL files pddl
    if registered is not None:
        return registered  # type: ignore[return-value]
    if chosen == "rddl":
        return "rddl"
    return "rddl" if ".rddl" in lowered else "pddl"


@dataclass
class Document:
    uri: str
    text: str
    version: int
    language: Language

    @property
    def path(self) -> Path | None:
        return uri_to_path(self.uri)

    @property
    def name(self) -> str:
        """The name spans and diagnostics carry: the file's path, or the URI of an unsaved buffer."""
        path = self.path
        return str(path) if path is not None else self.uri


@dataclass(frozen=True)
class RDDLParsed:
    node: rast.RDDLFile | None
    syntax: tuple[Diagnostic, ...]


@dataclass
class _Cached:
    key: tuple[str, int]  # (text identity: the version, or the file's mtime), the text's length
    value: Parsed | RDDLParsed
    table: Table | None = None
    table_domain: object = None  # the domain parse `table` was built with


@dataclass
class Workspace:
    documents: dict[str, Document] = field(default_factory=dict)
    _parses: dict[str, _Cached] = field(default_factory=dict)
    _headers: dict[Path, tuple[int, tuple[Kind | None, str | None]]] = field(default_factory=dict)
    _sections: dict[str, SectionCache] = field(default_factory=dict)
    _blocks: dict[str, BlockCache] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)
    #: the findings of open problems' :init sections, kept while a keystroke leaves the section as it was
    init_findings: InitMemo = field(default_factory=InitMemo)

    # -- documents ------------------------------------------------------------------------------
    def open(self, uri: str, text: str, version: int, language_id: str | None = None) -> Document:
        with self._lock:
            doc = Document(uri, text, version, language_of(uri, language_id))
            self.documents[uri] = doc
            return doc

    def change(self, uri: str, text: str, version: int) -> Document | None:
        with self._lock:
            doc = self.documents.get(uri)
            if doc is None:
                return None
            doc.text, doc.version = text, version
            # the earlier version's trees are freed here, in the pause before the re-check, not
            # inside the parse of the new version that the user waits for
            self._parses.pop(uri, None)
            sections = self._sections.get(uri)
            blocks = self._blocks.get(uri)
        for cache in (sections, blocks):
            if cache is not None:
                cache.release()
        return doc

    def close(self, uri: str) -> None:
        with self._lock:
            doc = self.documents.pop(uri, None)
            if doc is not None:
                self.init_findings.forget(doc.name)
            self._parses.pop(uri, None)
            self._sections.pop(uri, None)
            self._blocks.pop(uri, None)

    def uri_of(self, name: str) -> str:
        """The URI for a span's file name (a path, or an unsaved buffer's URI)."""
        if "://" in name or name.startswith("untitled:"):
            return name
        return Path(name).resolve().as_uri()

    # -- PDDL -----------------------------------------------------------------------------------
    def pddl(self, doc: Document) -> Parsed:
        return self._pddl_entry(doc).value  # type: ignore[return-value]

    def table(self, doc: Document) -> Table:
        """The names `doc` can use: its own, and for a problem those of its domain."""
        entry = self._pddl_entry(doc)
        parsed = entry.value
        assert isinstance(parsed, Parsed)
        node = parsed.node
        if isinstance(node, ast.Problem):
            found = self.domain_for(doc, node)
            domain = found[1] if found else None
            if entry.table is None or entry.table_domain is not domain:
                domain_node = domain.node if domain is not None else None
                entry.table = build_table(domain_node if isinstance(domain_node, ast.Domain) else None, node)
                entry.table_domain = domain
        elif entry.table is None:
            entry.table = build_table(node if isinstance(node, ast.Domain) else None)
        return entry.table

    def _pddl_entry(self, doc: Document) -> _Cached:
        with self._lock:
            key = (f"v{doc.version}", len(doc.text))
            cached = self._parses.get(doc.uri)
            if cached is not None and cached.key == key and isinstance(cached.value, Parsed):
                return cached
            text = doc.text
            sections = self._sections.setdefault(doc.uri, SectionCache())
        entry = _Cached(key, sections.parse(Source(text, doc.name)))
        with self._lock:
            self._parses[doc.uri] = entry
        return entry

    def domain_for(self, doc: Document, problem: ast.Problem) -> tuple[str, Parsed] | None:
        """The domain `problem` names, as (its URI, its parse): see `domain_and_resolution`."""
        return self.domain_and_resolution(doc, problem)[0]

    def domain_and_resolution(self, doc: Document,
                              problem: ast.Problem) -> tuple[tuple[str, Parsed] | None, Resolution | None]:
        """The domain of `problem` as (its URI, its parse) — the file `domain_resolution` finds (the open
        document when that file is open), else an open unsaved buffer declaring it — and the resolution."""
        found = self.domain_resolution(doc, problem.domain)
        if found is not None and found.domain is not None:
            with self._lock:
                opened = next((d for d in self.documents.values() if d.path == found.domain), None)
            parsed = self.pddl(opened) if opened is not None else self._pddl_file(found.domain)
            if parsed is not None and isinstance(parsed.node, ast.Domain):
                return ((opened.uri if opened is not None else found.domain.as_uri()), parsed), found
        with self._lock:
            unsaved = [d for d in self.documents.values() if d.language == "pddl" and d.path is None and d is not doc]
        for other in unsaved:
            if classify(other.text[:HEAD_BYTES]) == ("domain", problem.domain):
                parsed = self.pddl(other)
                if isinstance(parsed.node, ast.Domain):
                    return (other.uri, parsed), found
        return None, found

    def domain_resolution(self, doc: Document, wanted: str) -> Resolution | None:
        """How `pddltools.domain_finder` finds the domain `wanted` of the problem in `doc` (the open documents
        are the files given, and are read as they are in the editor); None for an unsaved buffer."""
        path = doc.path
        if path is None:
            return None
        with self._lock:
            opened = {d.path: d.text for d in self.documents.values()
                      if d.language == "pddl" and d.path is not None and d.path != path}

        def classify_path(candidate: Path) -> tuple[Kind | None, str | None]:
            text = opened.get(candidate)
            return classify(text[:HEAD_BYTES]) if text is not None else self._file_kind(candidate)

        return DomainFinder(given=sorted(opened), classify_path=classify_path).find(path, wanted)

    def problems_of(self, domain: ast.Domain, except_uri: str) -> list[Document]:
        """Open PDDL documents that are problems for `domain` (re-checked when it changes)."""
        with self._lock:
            docs = [d for d in self.documents.values() if d.language == "pddl" and d.uri != except_uri]
        out = []
        for doc in docs:
            node = self.pddl(doc).node
            if isinstance(node, ast.Problem) and node.domain == domain.name:
                out.append(doc)
        return out

    def _file_kind(self, path: Path) -> tuple[Kind | None, str | None]:
        """What a file on disk holds (`domain_finder.classify`), kept until it changes."""
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            return None, None
        with self._lock:
            cached = self._headers.get(path)
        if cached is not None and cached[0] == mtime:
            return cached[1]
        kind = classify_file(path)
        with self._lock:
            self._headers[path] = (mtime, kind)
        return kind

    def _pddl_file(self, path: Path) -> Parsed | None:
        return self._file(path, "pddl")  # type: ignore[return-value]

    def _file(self, path: Path, language: Language) -> Parsed | RDDLParsed | None:
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            return None
        key = (f"m{mtime}", -1)
        cache_key = "file:" + str(path)
        with self._lock:
            cached = self._parses.get(cache_key)
            if cached is not None and cached.key == key:
                return cached.value
        try:
            source = decode_source(read_input(path), str(path))
        except (OSError, Error):
            return None
        value = parse_document(source) if language == "pddl" else parse_rddl_text(source)
        with self._lock:
            self._parses[cache_key] = _Cached(key, value)
        return value

    # -- RDDL -----------------------------------------------------------------------------------
    def rddl(self, doc: Document) -> RDDLParsed:
        with self._lock:
            key = (f"v{doc.version}", len(doc.text))
            cached = self._parses.get(doc.uri)
            if cached is not None and cached.key == key and isinstance(cached.value, RDDLParsed):
                return cached.value
            text = doc.text
            blocks = self._blocks.setdefault(doc.uri, BlockCache())
        source = Source(text, doc.name)
        node = blocks.parse(source)  # block by block; the recovering parser explains broken text
        value = RDDLParsed(node, ()) if node is not None else parse_rddl_text(source)
        with self._lock:
            self._parses[doc.uri] = _Cached(key, value)
        return value

    def rddl_companions(self, doc: Document, rddl: rast.RDDLFile) -> list[rast.RDDLFile]:
        """The parsed files that define the domains and non-fluents blocks `rddl` names but lacks."""
        defined = {(type(b).__name__, b.name) for b in rddl.blocks}
        wanted: set[tuple[str, str]] = set()
        for block in rddl.blocks:
            if isinstance(block, rast.Instance | rast.NonFluents) and block.domain:
                wanted.add(("Domain", block.domain))
            if isinstance(block, rast.Instance) and block.non_fluents:
                wanted.add(("NonFluents", block.non_fluents))
        wanted -= defined
        found: list[rast.RDDLFile] = []
        if not wanted:
            return found
        with self._lock:
            others = [d for d in self.documents.values() if d.language == "rddl" and d.uri != doc.uri]
        sources: list[rast.RDDLFile] = []
        for other in others:
            node = self.rddl(other).node
            if node is not None:
                sources.append(node)
        path = doc.path
        if path is not None:
            open_paths = {d.path for d in others}
            for sibling in sorted(path.parent.glob("*.rddl"))[:_MAX_CANDIDATES]:
                if sibling != path and sibling not in open_paths:
                    parsed = self._file(sibling, "rddl")
                    if isinstance(parsed, RDDLParsed) and parsed.node is not None:
                        sources.append(parsed.node)
        for candidate in sources:
            offers = {(type(b).__name__, b.name) for b in candidate.blocks} & wanted
            if offers:
                found.append(candidate)
                wanted -= offers
            if not wanted:
                break
        return found


_RDDL_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
_RDDL_BLOCK = re.compile(r"^[ \t]*(?:domain|non-fluents|instance)\s+[\w\-]+\s*\{", re.MULTILINE)


def parse_rddl_text(source: Source, max_rounds: int = 8) -> RDDLParsed:
    """Parse RDDL; a block (domain, non-fluents, instance) with a syntax error is blanked out and the
    others parsed again, so that one broken block does not hide the type errors of the rest."""
    syntax: list[Diagnostic] = []
    text = source.text
    plain = _RDDL_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    starts = [m.start() for m in _RDDL_BLOCK.finditer(plain)]
    blocks = [(start, starts[i + 1] if i + 1 < len(starts) else len(text)) for i, start in enumerate(starts)]
    attempt = source
    for _ in range(max_rounds):
        try:
            return RDDLParsed(parse_rddl(attempt), tuple(syntax))
        except RecursionError:
            from pddltools.diagnostics import error

            syntax.append(error("R106", "expressions are nested too deeply for pddltools to handle"))
            return RDDLParsed(None, tuple(syntax))
        except Error as exc:
            found = list(exc.diagnostics)
        syntax += found
        places = [d.span.start for d in found if d.span is not None]
        broken = [b for b in blocks if any(b[0] <= at < b[1] for at in places)]
        if not broken or len(blocks) < 2:
            break
        blocks = [b for b in blocks if b not in broken]
        candidate = attempt.text
        for begin, end in broken:
            candidate = candidate[:begin] + re.sub(r"[^\n]", " ", candidate[begin:end]) + candidate[end:]
        attempt = Source(candidate, source.name)
        if not blocks:
            break
    return RDDLParsed(None, tuple(syntax))
