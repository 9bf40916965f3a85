"""Formatting for the editor: the whole document or a range of it, with `pddltools fmt`'s printer, which
keeps every comment and blank-line group (`pddltools.formatting`).

A range is formatted by formatting the whole document and keeping only the changes (runs of lines, as
a line diff finds them) that touch the range. Those changes are only whitespace where the printer
only lays out; where it also moved something across the range's border (a section put in its
canonical place), the partial text is checked: it must parse to the same tree with as many comments,
else the whole document's changes are given.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from pddltools.diagnostics import Diagnostic, Error, Source
from pddltools.lsp.workspace import Document

#: Past this many lines a range is formatted as the whole document (a line diff of two very long texts
#: costs more than the edit saves).
MAX_DIFF_LINES = 20_000


class Refused(Exception):
    """Formatting would not be safe or possible; the message says why (shown to the user)."""


@dataclass(frozen=True)
class Change:
    """Replace the text from offset `start` to `end` of the document with `text`."""

    start: int
    end: int
    text: str


def formatted(doc: Document) -> str:
    """The document in `pddltools fmt`'s layout, or `Refused`."""
    return _format(doc, Source(doc.text, doc.name), [])


def _format(doc: Document, source: Source, warnings: list[Diagnostic]) -> str:
    from pddltools.formatting import format_pddl, format_rddl_source

    try:
        if doc.language == "rddl":
            from pddltools.rddl.parser import parse as parse_rddl

            return format_rddl_source(source, parse_rddl(source), warnings)
        return format_pddl(source, warnings, language=doc.language)
    except Error:
        raise Refused("not formatted: the file has a syntax error") from None
    except RecursionError:
        raise Refused("not formatted: the file is nested too deeply to print") from None


def range_changes(doc: Document, start: int, end: int) -> list[Change]:
    """The changes that format the lines from offset `start` to `end` of the document (or `Refused`)."""
    new = formatted(doc)
    if new == doc.text:
        return []
    old_lines = doc.text.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    if max(len(old_lines), len(new_lines)) > MAX_DIFF_LINES:
        return [Change(0, len(doc.text), new)]
    offsets = [0]
    for line in old_lines:
        offsets.append(offsets[-1] + len(line))
    first = _line_of(offsets, start)
    last = _line_of(offsets, max(start, end - 1) if end > start else end)
    every: list[Change] = []
    chosen: list[Change] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        change = Change(offsets[i1], offsets[i2], "".join(new_lines[j1:j2]))
        every.append(change)
        if i1 <= last and (i2 > first or (i1 == i2 and i1 >= first)):
            chosen.append(change)
    if len(chosen) == len(every) or not chosen:
        return chosen if chosen else []
    if _same(doc, _apply(doc.text, chosen)):
        return chosen
    return every


def _line_of(offsets: list[int], offset: int) -> int:
    from bisect import bisect_right

    return max(0, bisect_right(offsets, offset) - 1)


def _apply(text: str, changes: list[Change]) -> str:
    for change in sorted(changes, key=lambda c: c.start, reverse=True):
        text = text[:change.start] + change.text + text[change.end:]
    return text


def _same(doc: Document, text: str) -> bool:
    """Whether `text` reads as the document does: an equal tree and as many comments."""
    from pddltools.formatting import parse_pddl

    before, after = Source(doc.text, doc.name), Source(text, doc.name)
    try:
        if doc.language == "rddl":
            from pddltools.rddl.language import LANGUAGE as RDDL
            from pddltools.rddl.parser import parse as parse_rddl

            return bool(parse_rddl(after) == parse_rddl(before)
                        and len(RDDL.trivia(after).comments) == len(RDDL.trivia(before).comments))
        from pddltools.dialects import comment_count

        return bool(parse_pddl(after, language=doc.language) == parse_pddl(before, language=doc.language)
                    and comment_count(after, doc.language) == comment_count(before, doc.language))
    except (Error, RecursionError):
        return False
