"""Parse an open PDDL document section by section, re-using the sections a keystroke did not touch.

A keystroke changes one top-level section (an action, :predicates, :init); re-parsing the whole file
for it costs hundreds of milliseconds on a 5,000-line domain. Here each section is parsed on its own
(`pddl.LANGUAGE.parse_section`) into a cache keyed by its text, and the `Domain` or `Problem` is
assembled from the sections by the parser's own assembly (`LANGUAGE.assemble`).

Spans: a section is parsed as a text of its own, so its spans count from the section's start. A
cached section is kept with the document version and offset its spans were last placed at; when it is
used at another place (text was typed above it), its nodes and diagnostics are rebuilt with their
spans shifted onto the new version (`tree.shift_spans`), so spans always count in the current
document. A section at the same place (every edit is below it) is used as it is, its spans on the
earlier version, which agrees with the current one up to the edit (`KEPT`): a keystroke rebuilds only
the sections below it. Spans are frozen and hashed by their place: they are replaced, never changed.

A section that does not parse is left out (its syntax errors are reported, located in the document),
so that the rest is still checked; text outside sections that does not fit (no header, stray words)
falls back to `recovery.parse_document`, which handles any text.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from pddltools.diagnostics import Diagnostic, Source, Span, error
from pddltools.lsp.recovery import Parsed, Section, parse_document, sections, syntax_errors
from pddltools.pddl import ast
from pddltools.pddl.language import LANGUAGE
from pddltools.tree import Tree, collection_paused, shift_span, shift_spans


class _Ignored:
    """What the grammar ignores between tokens, as the parser's `Language.ignored` gives it: `space`
    matches a run of it; `parens` finds the parentheses outside comments (a comment, an ignored
    terminal that does not match a blank, may hold one)."""

    @cached_property
    def space(self) -> re.Pattern[str]:
        return re.compile("(?:" + "|".join(f"(?:{p})" for p in LANGUAGE.ignored()) + ")*")

    @cached_property
    def parens(self) -> re.Pattern[str]:
        comments = [p for p in LANGUAGE.ignored() if not re.fullmatch(p, " ")]
        return re.compile("|".join([*(f"(?:{p})" for p in comments), "[()]"]))

    def match(self, text: str, pos: int, endpos: int | None = None) -> re.Match[str] | None:
        return self.space.match(text, pos, len(text) if endpos is None else endpos)


_SPACE = _Ignored()


@dataclass
class _SectionResult:
    """One section's parse: the builder's value (a node, or (kind, value, start) for a declaration
    section), its warnings and syntax errors, all with spans on `source` for a section at `start`."""

    value: Any
    warnings: list[Diagnostic]
    errors: list[Diagnostic]
    source: Source
    start: int
    kind: str

    def placed(self, source: Source, start: int, kept: tuple[Source, ...] = ()) -> _SectionResult:
        """This section with its spans on `source`, for the section at `start`: itself if it is at
        `start` on `source` or on one of the `kept` earlier versions of the document (see `_KEPT`)."""
        if unmoved(self.source, self.start, source, start, kept):
            return self
        delta = start - self.start
        value = self.value  # a node, but for the declaration sections: tested first, per re-used section
        return _SectionResult(shift_spans(value, source, delta) if isinstance(value, Tree)
                              else _shift_value(value, source, delta),
                              [_shift_diagnostic(d, source, delta) for d in self.warnings] if self.warnings else [],
                              [_shift_diagnostic(d, source, delta) for d in self.errors] if self.errors else [],
                              source, start, self.kind)


@dataclass
class SectionCache:
    """The sections of one document, by (start rule, text); entries not used by a version are dropped."""

    entries: dict[tuple[str, str], _SectionResult] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    reused: int = 0  # sections taken from the cache by the last parse (tests read it)
    kept: tuple[Source, ...] = ()  # earlier versions that sections at an unchanged place still point into
    # The sections the last parse did not use, freed by `release` (see there), not inside the next parse
    stale: dict[tuple[str, str], _SectionResult] = field(default_factory=dict)
    ends: dict[str, int | None] = field(default_factory=dict)  # a section's text: where its form closes in it

    def parse(self, source: Source) -> Parsed:
        with self.lock, collection_paused():  # the re-used sections are rebuilt: thousands of nodes
            try:
                result = _parse(source, self)
            except RecursionError:
                result = None
        if result is None:
            return parse_document(source)
        if result.syntax:
            # Parsed section by section, a broken section is explained out of its context: a ')' that
            # closes (define ...) early is blamed where the section ends, a '(' closed in the next
            # section is called unclosed. The errors shown are those of a fresh parse of the whole
            # text (what `pddltools check` says); the sections still give the AST of the rest.
            whole = syntax_errors(source)
            if whole is None:
                return parse_document(source)
            result = replace(result, syntax=tuple(sorted(whole, key=lambda d: d.span.start if d.span else -1)))
        return result

    def release(self) -> None:
        """Free the sections of earlier versions. Freeing the tens of thousands of nodes a keystroke
        replaced costs about a sixth of the keystroke's parse on a large domain; the server calls
        this when the next change arrives, in the pause before it is checked, so that nobody waits
        for it."""
        with self.lock:
            self.stale = {}


def _parse(source: Source, cache: SectionCache) -> Parsed | None:
    text = source.text
    header = LANGUAGE.header(text)
    if header is None:
        return None
    kind = rule = header.kind
    parts = sections(text)
    if not parts or _SPACE.match(text, header.end).end() != parts[0].start:  # type: ignore[union-attr]
        return None
    used: dict[tuple[str, str], _SectionResult] = {}
    results: list[_SectionResult] = []
    syntax: list[Diagnostic] = []
    cut: list[Section] = []
    closed = False
    cache.reused = 0
    ends, forms = _form_ends(text, parts, cache)
    fresh = _parse_new_structures(source.name, parts, forms, rule, cache) if kind == "domain" else {}
    for index, part in enumerate(parts):
        end = ends[index]
        last = index == len(parts) - 1
        rest_ok = end is not None and _rest_is_blank(text, end, part.end, last)
        if last and end is not None:
            closed = _closes_define(text, end, part.end)
        if end is None or not rest_ok:
            # unbalanced, or followed by stray text: the parser explains the whole region
            cut.append(part)
            region = (rule, text[part.start:part.end].rstrip())
            broken = used.get(region) or cache.entries.get(region) or _parse_section(source.name, region[1], rule)
            broken = used[region] = broken.placed(source, part.start, cache.kept)
            syntax += broken.errors or _structure_error(source, part, end)
            continue
        key = (rule, forms[index])
        entry = used.get(key) or cache.entries.get(key)
        if entry is not None and key not in used:
            cache.reused += 1
        if entry is None:
            entry = fresh.pop(index, None) or _parse_section(source.name, key[1], rule)
        entry = used[key] = entry.placed(source, part.start, cache.kept)  # a repeated section: placed again
        if entry.errors:
            cut.append(part)
            syntax += entry.errors
            continue
        results.append(entry)
    cache.stale, cache.entries = cache.entries, used
    cache.kept = still_kept(cache.kept, source, [entry.source for entry in used.values()])
    if parts and not closed and not any(s is parts[-1] for s in cut):
        at = header.start
        syntax.append(error("E107", "unbalanced parentheses: this '(' is never closed", Span(source, at, at + 1)))
    assembled = LANGUAGE.assemble(header, Span(source, header.start, len(text.rstrip())), [r.value for r in results])
    if assembled is None:
        return None
    node, file_warnings = assembled
    assert isinstance(node, ast.Domain | ast.Problem)
    warnings = [w for r in results for w in r.warnings] + file_warnings
    return Parsed(node, tuple(sorted(syntax, key=lambda d: d.span.start if d.span else -1)), tuple(warnings),
                  tuple(cut))


def _parse_section(name: str, text: str, kind: str) -> _SectionResult:
    own = Source(text, name)
    found = LANGUAGE.parse_section(own, kind)
    return _SectionResult(found.value, list(found.warnings), list(found.errors), own, 0, kind)


_STRUCTURES = (":action", ":durative-action", ":derived")


def _parse_new_structures(name: str, parts: list[Section], forms: list[str], rule: str,
                          cache: SectionCache) -> dict[int, _SectionResult]:
    """The actions and axioms not in the cache, parsed together as one domain, by section index.

    Parsed one by one they would miss the parser's fast path for runs of actions (several times
    slower on a large domain's first parse); together, each is kept at its own offset in the run.
    When the run does not parse, nothing is returned and each is parsed alone (to locate the errors).
    """
    wanted = [i for i, part in enumerate(parts) if part.keyword in _STRUCTURES and forms[i]
              and (rule, forms[i]) not in cache.entries]
    if len(wanted) < 2:
        return {}
    pieces = ["(define (domain batch)\n"]
    offsets: list[int] = []
    at = len(pieces[0])
    for i in wanted:
        section = forms[i]
        offsets.append(at)
        pieces.append(section + "\n")
        at += len(section) + 1
    pieces.append(")")
    own = Source("".join(pieces), name)
    found = LANGUAGE.parse_sections(own)
    if found.errors or len(found.nodes) != len(wanted):
        return {}
    warnings = found.warnings
    out: dict[int, _SectionResult] = {}
    for index, node, offset in zip(wanted, found.nodes, offsets, strict=True):
        length = len(forms[index])
        mine = [w for w in warnings if w.span is not None and offset <= w.span.start < offset + length]
        out[index] = _SectionResult(node, mine, [], own, offset, rule)
    return out


def _shift_value(value: Any, source: Source, delta: int) -> Any:
    """A section's value with its spans shifted: a node, or a declaration's (kind, value, start)."""
    if isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], str) and isinstance(value[2], int):
        kind, inner, start = value
        return kind, _shift_nodes(inner, source, delta), start + delta
    return _shift_nodes(value, source, delta)


def _shift_nodes(value: Any, source: Source, delta: int) -> Any:
    if isinstance(value, Tree):
        return shift_spans(value, source, delta)
    if isinstance(value, Span):  # a position a section keeps beside its nodes: the problem's (:domain NAME)
        return shift_span(value, source, delta)
    if isinstance(value, tuple):
        return tuple([_shift_nodes(item, source, delta) for item in value])
    return value


def _shift_diagnostic(diagnostic: Diagnostic, source: Source, delta: int) -> Diagnostic:
    span = diagnostic.span
    notes = tuple((text, None if at is None else shift_span(at, source, delta)) for text, at in diagnostic.notes)
    return replace(diagnostic, span=None if span is None else shift_span(span, source, delta), notes=notes)


def _form_ends(text: str, parts: list[Section], cache: SectionCache) -> tuple[list[int | None], list[str]]:
    """`_form_end` of each section, and the text of the form (empty where it does not close), looked
    up by the section's text: scanning the whole document's parentheses again on every keystroke costs
    more on a large file than all the re-used sections."""
    known = cache.ends
    found: dict[str, int | None] = {}
    ends: list[int | None] = []
    forms: list[str] = []
    for part in parts:
        piece = text[part.start:part.end]
        end = found[piece] = found.get(piece, known.get(piece, -1))
        if end == -1:
            end = found[piece] = _form_end(piece, 0, len(piece))
        ends.append(None if end is None else part.start + end)
        forms.append("" if end is None else piece if end == len(piece) else piece[:end])
    cache.ends = found
    return ends, forms


KEPT = 4
"""How many earlier versions of a document sections may still point into. A section at the same
place as in an earlier version (above every edit since) is re-used as it is, its spans on that
version's `Source`: the two texts agree up to the edit, so offsets, lines, columns and span texts
are the same in both, and the section is not rebuilt. Each kept version holds its text alive, so
sections on versions beyond the newest `KEPT` are rebuilt onto the current one at the next parse.
(RDDL's blocks, `rddl_incremental`, are kept the same way.)"""


def unmoved(placed_on: Source, placed_at: int, source: Source, start: int, kept: tuple[Source, ...]) -> bool:
    """Whether a section placed at `placed_at` on `placed_on` can stand as it is for `source` at `start`."""
    return start == placed_at and (placed_on is source or any(placed_on is k for k in kept))


def still_kept(kept: tuple[Source, ...], source: Source, used: list[Source]) -> tuple[Source, ...]:
    """The versions to keep after parsing `source`: those the `used` sections are on, newest `KEPT`."""
    pointed = {id(s) for s in used}
    return tuple(s for s in (*kept, source) if id(s) in pointed)[-KEPT:]


def _form_end(text: str, start: int, limit: int) -> int | None:
    """Where the form opening at `start` closes (just after its ')'), if it does before `limit`."""
    depth = 0
    for match in _SPACE.parens.finditer(text, start, limit):
        char = match.group()
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return match.end()
    return None


def _rest_is_blank(text: str, end: int, limit: int, last: bool) -> bool:
    after = _SPACE.match(text, end, limit)
    at = after.end() if after else end
    if at == limit:
        return True
    return last and text[at] == ")" and _SPACE.match(text, at + 1).end() == len(text)  # type: ignore[union-attr]


def _closes_define(text: str, end: int, limit: int) -> bool:
    after = _SPACE.match(text, end, limit)
    at = after.end() if after else end
    return at < len(text) and text[at] == ")"


def _structure_error(source: Source, part: Section, end: int | None) -> list[Diagnostic]:
    """The error for a section the parser found nothing wrong with on its own: it is not closed
    before the next section, or words follow it."""
    if end is None:
        return [error("E107", "unbalanced parentheses: this '(' is never closed",
                      Span(source, part.start, part.start + 1))]
    after = _SPACE.match(source.text, end, part.end)
    at = after.end() if after else end
    words = source.text[at:at + 40].split()
    found = words[0] if words else source.text[at:at + 1]
    return [error("E103", f"expected '(' to open the next section or ')' to end the file, found '{found}'",
                  Span(source, at, at + 1))]

