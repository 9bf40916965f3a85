"""Parse an open PDDL document section by section, re-using the sections a keystroke did not touch.

A keystroke changes one top-level section (an action, :predicates, :init); re-parsing the whole file
for it costs hundreds of milliseconds on a 5,000-line domain. Here each section is parsed on its own
(the grammar's `domain_section` / `problem_section` start rules) into a cache keyed by its text, and the
`Domain` or `Problem` is assembled from the sections the way the parser's builder does.

Spans: a section is parsed as a text of its own, so its spans count from the section's start. Each
section's spans are then hung below one anchor span (a `Span` whose origin is another span is what
`Span` was built for: the offset inside its parent). When the section moves (text was typed above it),
only the anchor is moved to the new document, and every span inside follows; spans therefore always
count in the current document. Moving the anchor rebinds a frozen object with `object.__setattr__`,
as `Span.__init__` itself does; it is done only on spans this module created.

A section that does not parse is left out (its syntax errors are reported, located in the document),
so that the rest is still checked; text outside sections that does not fit (no header, stray words)
falls back to `recovery.parse_document`, which handles any text.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field, replace
from typing import Any

from pddltools.diagnostics import Diagnostic, Source, Span, error
from pddltools.lexing import NestingTooDeep, UnexpectedCharacter
from pddltools.lsp.recovery import Parsed, Section, parse_document, sections
from pddltools.pddl import ast
from pddltools.pddl.errors import _balance_errors, _diagnose, _paren_balance
from pddltools.pddl.parser import _BuildError, _parser, _requirement_warnings

HEADER = re.compile(r"(?:\s+|;[^\n]*)*\(\s*define\s*\(\s*(domain|problem)\s+([A-Za-z][\w\-]*)\s*\)", re.IGNORECASE)
_SPACE = re.compile(r"(?:\s+|;[^\n]*)*")
_PARENS = re.compile(r";[^\n]*|[()]")
_SYNTAX = (UnexpectedCharacter, NestingTooDeep, _BuildError)


@dataclass
class _SectionResult:
    """One section's parse: the builder's value (a node, or (kind, value, start) for a declaration
    section), its warnings and syntax errors, and the anchor its spans hang below."""

    value: Any
    warnings: list[Diagnostic]
    errors: list[Diagnostic]
    anchor: Span
    kind: str


@dataclass
class SectionCache:
    """The sections of one document, by (start rule, text); entries not used by a version are dropped."""

    entries: dict[tuple[str, str], _SectionResult] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    reused: int = 0  # sections taken from the cache by the last parse (tests read it)

    def parse(self, source: Source) -> Parsed:
        with self.lock:
            try:
                result = _parse(source, self)
            except RecursionError:
                result = None
        return result if result is not None else parse_document(source)


def _parse(source: Source, cache: SectionCache) -> Parsed | None:
    text = source.text
    header = HEADER.match(text)
    if header is None:
        return None
    kind = header.group(1).lower()
    rule = "domain_section" if kind == "domain" else "problem_section"
    parts = sections(text)
    if not parts or _SPACE.match(text, header.end()).end() != parts[0].start:  # type: ignore[union-attr]
        return None
    used: dict[tuple[str, str], _SectionResult] = {}
    results: list[_SectionResult] = []
    syntax: list[Diagnostic] = []
    cut: list[Section] = []
    closed = False
    cache.reused = 0
    ends = [_form_end(text, part.start, part.end) for part in parts]
    fresh = _parse_new_structures(source.name, text, parts, ends, rule, cache) if kind == "domain" else {}
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
            used[region] = broken
            _move(broken.anchor, source, part.start)
            syntax += broken.errors or _structure_error(source, part, end)
            continue
        key = (rule, text[part.start:end])
        entry = used.get(key) or cache.entries.get(key)
        if entry is not None and key not in used:
            cache.reused += 1
        if entry is None or key in used:  # a section repeated verbatim gets spans of its own
            entry = fresh.pop(index, None) or _parse_section(source.name, key[1], rule)
        used[key] = entry
        _move(entry.anchor, source, part.start)
        if entry.errors:
            cut.append(part)
            syntax += entry.errors
            continue
        results.append(entry)
    cache.entries = used
    if parts and not closed and not any(s is parts[-1] for s in cut):
        at = header.start() + (text[header.start():].index("("))
        syntax.append(error("E107", "unbalanced parentheses: this '(' is never closed", Span(source, at, at + 1)))
    node = _assemble(kind, header, source, results)
    if node is None:
        return None
    warnings = [w for r in results for w in r.warnings] + _requirement_warnings(node)
    return Parsed(node, tuple(sorted(syntax, key=lambda d: d.span.start if d.span else -1)), tuple(warnings),
                  tuple(cut))


def _parse_section(name: str, text: str, rule: str) -> _SectionResult:
    own = Source(text, name)
    parser = _parser(True)
    anchor = Span(own, 0, len(text))
    try:
        value, warnings = parser.parse(own, start=rule)
    except Exception as exc:
        if not _is_syntax(exc):
            raise
        errors = _explain(own, exc, rule)
        _hang([], errors, own, anchor)
        return _SectionResult(None, [], errors, anchor, rule)
    warnings = list(warnings)
    _hang(_nodes(value), warnings, own, anchor)
    return _SectionResult(value, warnings, [], anchor, rule)


_STRUCTURES = (":action", ":durative-action", ":derived")


def _parse_new_structures(name: str, text: str, parts: list[Section], ends: list[int | None], rule: str,
                          cache: SectionCache) -> dict[int, _SectionResult]:
    """The actions and axioms not in the cache, parsed together as one domain, by section index.

    Parsed one by one they would miss the parser's fast path for runs of actions (several times
    slower on a large domain's first parse); together, each structure still gets its own anchor.
    When the run does not parse, nothing is returned and each is parsed alone (to locate the errors).
    """
    wanted = [i for i, part in enumerate(parts) if part.keyword in _STRUCTURES and ends[i] is not None
              and (rule, text[part.start:ends[i]]) not in cache.entries]
    if len(wanted) < 2:
        return {}
    pieces = ["(define (domain batch)\n"]
    offsets: list[int] = []
    at = len(pieces[0])
    for i in wanted:
        section = text[parts[i].start:ends[i]]
        offsets.append(at)
        pieces.append(section + "\n")
        at += len(section) + 1
    pieces.append(")")
    own = Source("".join(pieces), name)
    try:
        domain, warnings = _parser(True).parse(own)
    except Exception as exc:
        if not _is_syntax(exc):
            raise
        return {}
    if not isinstance(domain, ast.Domain) or len(domain.structures) != len(wanted):
        return {}
    out: dict[int, _SectionResult] = {}
    for index, node, offset in zip(wanted, domain.structures, offsets, strict=True):
        length = ends[index] - parts[index].start  # type: ignore[operator]
        anchor = Span(own, 0, length)
        mine = [w for w in warnings if w.span is not None and offset <= w.span.start < offset + length]
        _rebase([node], mine, own, anchor, offset)
        out[index] = _SectionResult(node, mine, [], anchor, rule)
    return out


def _rebase(nodes: list[ast.Node], diagnostics: list[Diagnostic], own: Source, anchor: Span, offset: int) -> None:
    """Re-parent the spans made on `own` below `anchor`, counting from `offset` of `own`."""
    for root in nodes:
        for node in root.walk():
            span = node.span
            if span is not None and span.origin is own:
                object.__setattr__(span, "offset", span.offset - offset)
                object.__setattr__(span, "origin", anchor)
    for diagnostic in diagnostics:
        for span in (diagnostic.span, *(s for _, s in diagnostic.notes)):
            if span is not None and span.origin is own:
                object.__setattr__(span, "offset", span.offset - offset)
                object.__setattr__(span, "origin", anchor)


def _is_syntax(exc: BaseException) -> bool:
    from lark.exceptions import UnexpectedToken

    from pddltools.lalr import UnexpectedInput

    return isinstance(exc, (*_SYNTAX, UnexpectedToken, UnexpectedInput))


def _explain(own: Source, exc: Exception, rule: str) -> list[Diagnostic]:
    parser = _parser(True)
    first = _on(own, _diagnose(own, exc, parser, rule))
    balance = _paren_balance(own.text)
    if balance.unclosed or balance.extra is not None:
        found = [_on(own, d) for d in _balance_errors(own, balance, first)]
        # "found the end of the file" would be wrong: the section ends, the file goes on
        return found if first.code == "E102" and found else [first, *found]
    return [first]


def _on(own: Source, diagnostic: Diagnostic) -> Diagnostic:
    """`diagnostic` with its span on `own` (the parser points past the end on a copy of the text)."""
    span = diagnostic.span
    if span is None or span.origin is own:
        return diagnostic
    start = min(span.start, len(own.text))
    return replace(diagnostic, span=Span(own, start, max(start + 1, min(span.end, len(own.text)))))


def _nodes(value: Any) -> list[ast.Node]:
    if isinstance(value, ast.Node):
        return [value]
    if isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], str):
        inner = value[1]
        if isinstance(inner, ast.Node):
            return [inner]
        if isinstance(inner, tuple):
            return [n for n in inner if isinstance(n, ast.Node)]
    return []


def _hang(nodes: list[ast.Node], diagnostics: list[Diagnostic], own: Source, anchor: Span) -> None:
    """Re-parent every span made on the section's own text below `anchor`."""
    _rebase(nodes, diagnostics, own, anchor, 0)


def _move(anchor: Span, source: Source, start: int) -> None:
    object.__setattr__(anchor, "origin", source)
    object.__setattr__(anchor, "offset", start)


def _form_end(text: str, start: int, limit: int) -> int | None:
    """Where the form opening at `start` closes (just after its ')'), if it does before `limit`."""
    depth = 0
    for match in _PARENS.finditer(text, start, limit):
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


def _assemble(kind: str, header: re.Match[str], source: Source, results: list[_SectionResult]
              ) -> ast.Domain | ast.Problem | None:
    """The file's node from its sections, as the parser's builder makes it (None: let the full parser
    judge a combination the builder refuses, such as two :constraints)."""
    name = header.group(2).lower()
    span = Span(source, header.start() + source.text[header.start():].index("("), len(source.text.rstrip()))
    fields: dict[str, Any] = {}
    if kind == "domain":
        structures: list[ast.Structure] = []
        for entry in results:
            value = entry.value
            if isinstance(value, tuple):
                section, items, _ = value
                if section == "constraints":
                    if section in fields:
                        return None
                    fields[section] = items
                else:
                    fields[section] = fields.get(section, ()) + items
            else:
                structures.append(value)
        return ast.Domain(name, structures=tuple(structures), **fields, span=span)
    for entry in results:
        section, items, _ = entry.value
        if section in ("requirements", "objects", "init"):
            fields[section] = fields.get(section, ()) + items
        elif section in fields:
            return None
        else:
            fields[section] = items
    if "domain" not in fields:
        return None
    return ast.Problem(name, span=span, **fields)
