"""Parse an open RDDL document block by block, re-using the blocks a keystroke did not touch.

An RDDL file is a sequence of blocks (domain, non-fluents, instance); a keystroke changes one. Through
the parser's `Language` interface alone, the text is cut into its top-level blocks
(`rddl.language.LANGUAGE.block_ranges`), each block is parsed on its own (`parse_section`) into a
cache keyed by its text, and the file is assembled from the blocks (`assemble`). A block parsed for an
earlier version is rebuilt with its spans shifted onto the current one (`tree.shift_spans`), so spans
always count in the current document; a block at the same place as before (above every edit) is
re-used as it is, on the earlier version that agrees with the current one up to the edit (see
`incremental.KEPT`).

Only a document whose every block parses is handled here; otherwise `parse` returns None and the
caller parses the whole text with its recovering parser, which explains the errors.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from pddltools.diagnostics import Source, Span
from pddltools.lsp.incremental import still_kept, unmoved
from pddltools.rddl import ast
from pddltools.rddl.language import LANGUAGE
from pddltools.tree import collection_paused, shift_spans


@dataclass(frozen=True)
class _Block:
    """A parsed block, its spans on `source` for the block at `start`."""

    node: ast.Node
    source: Source
    start: int

    def placed(self, source: Source, start: int, kept: tuple[Source, ...]) -> _Block:
        """This block for `source` at `start`: itself where it has not moved (`incremental.KEPT`)."""
        if unmoved(self.source, self.start, source, start, kept):
            return self
        return _Block(shift_spans(self.node, source, start - self.start), source, start)


@dataclass
class BlockCache:
    """The blocks of one document, by text; entries not used by a version are dropped."""

    entries: dict[str, _Block] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    reused: int = 0  # blocks taken from the cache by the last parse (tests read it)
    kept: tuple[Source, ...] = ()  # earlier versions that blocks at an unchanged place still point into
    stale: dict[str, _Block] = field(default_factory=dict)  # the blocks the last parse did not use

    def parse(self, source: Source) -> ast.RDDLFile | None:
        """The document's AST, equal to a whole parse's (spans included), or None where a block does not
        parse or the text is not a sequence of blocks."""
        with self.lock, collection_paused():  # the re-used blocks are rebuilt: thousands of nodes
            try:
                return self._parse(source)
            except RecursionError:
                return None

    def release(self) -> None:
        """Free the blocks of earlier versions (as `incremental.SectionCache.release`)."""
        with self.lock:
            self.stale = {}

    def _parse(self, source: Source) -> ast.RDDLFile | None:
        text = source.text
        ranges = LANGUAGE.block_ranges(text)
        if ranges is None:
            return None
        used: dict[str, _Block] = {}
        blocks: list[_Block] = []
        self.reused = 0
        for start, end in ranges:
            key = text[start:end]
            entry = used.get(key) or self.entries.get(key)
            if entry is None:
                header = LANGUAGE.header(key)
                if header is None:
                    return None
                own = Source(key, source.name)
                found = LANGUAGE.parse_section(own, header.kind)
                if found.errors or not isinstance(found.value, ast.Node):
                    return None
                entry = _Block(found.value, own, 0)
            elif key not in used:
                self.reused += 1
            entry = used[key] = entry.placed(source, start, self.kept)
            blocks.append(entry)
        self.stale, self.entries = self.entries, used
        self.kept = still_kept(self.kept, source, [b.source for b in used.values()])
        header = LANGUAGE.header(text)
        first, last = blocks[0].node.span, blocks[-1].node.span
        if header is None or first is None or last is None:
            return None
        assembled = LANGUAGE.assemble(header, Span(source, first.start, last.end), [b.node for b in blocks])
        if assembled is None:
            return None
        node, _ = assembled
        assert isinstance(node, ast.RDDLFile)
        return node
