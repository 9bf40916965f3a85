"""Source positions and diagnostics, shared by every tool in pddltools.

A `Diagnostic` is data: it is created where a problem is found and rendered once, by the CLI, either
for people (rich, with the source line and a caret) or for machines (JSON, GitHub annotations).
Library code never prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from pddltools.markup import escape

TYPE_CHECKING = False
if TYPE_CHECKING:  # rich is imported by whoever makes a console, not by every parse
    from typing import Any

    from rich.console import Console

    from pddltools.code_ids import CodeId


class Source:
    """The text of one input file, with a lazily built index from offsets to lines and columns.

    Spans keep only offsets, so that parsing a large file does not pay for line counting; the index is
    built the first time a line or column is asked for (an error message, a finding).
    """

    __slots__ = ("_line_starts", "anchors", "name", "text")

    def __init__(self, text: str, name: str = "<string>") -> None:
        self.text = text
        self.name = name
        self._line_starts: list[int] | None = None
        #: the spans the parsers' nodes share as anchors of their positions (`syntax.frozen.Anchors`),
        #: made by the first parse of this text that asks for them
        self.anchors: Any = None

    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            pos = find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of `offset`."""
        from bisect import bisect_right  # here: a fresh process that reports nothing never needs it

        starts = self.line_starts()
        index = bisect_right(starts, offset) - 1
        return index + 1, offset - starts[index] + 1

    def line_text(self, line: int) -> str:
        starts = self.line_starts()
        begin = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(self.text)
        return self.text[begin:end].rstrip("\r")

    def __repr__(self) -> str:
        return f"Source({self.name!r})"


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Span:
    """Where a node or a finding is: a half-open range of offsets `start`..`end` into one source.

    Stored compactly, because a large problem has a span for every atom and every argument: the
    length rather than the end, and, for a span inside another (an argument inside its atom), the
    enclosing span and the offset within it. Lengths and inner offsets are nearly always below 257,
    which Python keeps as shared small integers instead of allocating one per span.
    """

    origin: Source | Span  # the source, or the enclosing span `offset` is relative to
    offset: int
    length: int

    def __init__(self, source: Source, start: int, end: int) -> None:
        object.__setattr__(self, "origin", source)
        object.__setattr__(self, "offset", start)
        object.__setattr__(self, "length", end - start)

    @property
    def source(self) -> Source:
        origin = self.origin
        while isinstance(origin, Span):
            origin = origin.origin
        return origin

    @property
    def start(self) -> int:
        origin = self.origin
        return self.offset if isinstance(origin, Source) else origin.start + self.offset

    @property
    def end(self) -> int:
        return self.start + self.length

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Span):
            return NotImplemented
        return (self.source is other.source and self.start == other.start
                and self.length == other.length)

    def __hash__(self) -> int:
        return hash((id(self.source), self.start, self.length))

    @property
    def file(self) -> str:
        return self.source.name

    @property
    def line(self) -> int:
        return self.source.line_col(self.start)[0]

    @property
    def column(self) -> int:
        return self.source.line_col(self.start)[1]

    @property
    def end_line(self) -> int:
        return self.source.line_col(max(self.start, self.end - 1))[0]

    @property
    def end_column(self) -> int:
        return self.source.line_col(max(self.start, self.end - 1))[1] + 1

    @property
    def text(self) -> str:
        return self.source.text[self.start : self.end]

    def __str__(self) -> str:
        line, column = self.source.line_col(self.start)
        return f"{self.source.name}:{line}:{column}"


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class Diagnostic:
    """One finding: a stable code, a severity, a message in a domain author's words, and a place."""

    code: CodeId
    severity: Severity
    message: str
    span: Span | None = None
    notes: tuple[tuple[str, Span | None], ...] = ()

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "file": self.span.file if self.span else None,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
        }
        if self.span:
            data["end_line"] = self.span.end_line
            data["end_column"] = self.span.end_column
        if self.notes:
            data["notes"] = [
                {
                    "message": message,
                    "file": span.file if span else None,
                    "line": span.line if span else None,
                    "column": span.column if span else None,
                }
                for message, span in self.notes
            ]
        return data


class Error(Exception):
    """Base of every error a user can cause; carries the diagnostics that explain it."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = tuple(diagnostics)
        super().__init__("\n".join(format_plain(d) for d in self.diagnostics))


class InputError(Error):
    """A file that cannot be read as text at all (missing, a directory, binary)."""


class CompileError(Error):
    """A task a compiler pass or the grounder refuses (codes E8xx), with the reason as a diagnostic.

    Defined here, below both, because the compiler uses the grounder (`pddltools.analysis`) and the
    grounder refuses in the compiler's terms; `pddltools.compile.errors` is where passes take it from."""


def error(code: CodeId, message: str, span: Span | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, message, span)


def warning(code: CodeId, message: str, span: Span | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, message, span)


def compile_error(code: CodeId, message: str, span: Span | None = None) -> CompileError:
    return CompileError([error(code, message, span)])


def decode_source(data: bytes, name: str) -> Source:
    """Decode bytes as UTF-8 (with or without BOM), rejecting binary data with a located error."""
    nul = data.find(b"\x00")
    if nul >= 0:
        text = data[:nul].decode("utf-8", errors="replace")
        source = Source(text + " ", name)
        raise InputError(
            [error("E002", "this is a binary file, not text (it contains a NUL byte)",
                   Span(source, len(text), len(text) + 1))]
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data[: exc.start].decode("utf-8", errors="replace")
        source = Source(text + " ", name)
        raise InputError(
            [error("E002", f"this file is not UTF-8 text (byte 0x{data[exc.start]:02x} cannot be decoded)",
                   Span(source, len(text), len(text) + 1))]
        ) from None
    return Source(text, name)


# ---------------------------------------------------------------------------------------------------
# Rendering


def format_plain(diagnostic: Diagnostic) -> str:
    where = f"{diagnostic.span}: " if diagnostic.span else ""
    return f"{where}{diagnostic.severity.value}[{diagnostic.code}]: {diagnostic.message}"


_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def _excerpt(span: Span) -> list[str]:
    """The source line of `span` and a caret line under it (rich markup)."""
    line, column = span.source.line_col(span.start)
    text = span.source.line_text(line).expandtabs(1)
    if len(text) > 200:
        # keep a window around the caret: grounded domains have lines of many kilobytes
        left = max(0, column - 100)
        text = ("…" if left else "") + text[left : left + 200] + "…"
        column = column - left + (1 if left else 0)
    width = 1
    if span.end_line == line:
        width = max(1, min(span.end - span.start, len(text) - column + 1, 60))
    gutter = f"{line:>5} │ "
    pad = " " * (len(gutter) - 2) + "│ "
    return [
        f"[dim]{gutter}[/dim]{escape(text)}",
        f"[dim]{pad}[/dim]{' ' * (column - 1)}[bold red]{'^' * width}[/bold red]",
    ]


def render_rich(diagnostics: Iterable[Diagnostic], console: Console) -> None:
    """Print diagnostics for people: location, severity, message, the line and a caret."""
    for diagnostic in diagnostics:
        where = f"[bold]{escape(str(diagnostic.span))}[/bold]: " if diagnostic.span else ""
        style = _STYLE[diagnostic.severity]
        console.print(
            f"{where}[{style}]{diagnostic.severity.value}[{escape(diagnostic.code)}][/{style}]: "
            f"{escape(diagnostic.message)}",
            highlight=False,
            soft_wrap=True,
        )
        if diagnostic.span:
            for line in _excerpt(diagnostic.span):
                console.print(line, highlight=False, soft_wrap=True)
        for message, span in diagnostic.notes:
            where = f"{escape(str(span))}: " if span else ""
            console.print(f"  [cyan]note[/cyan]: {where}{escape(message)}", highlight=False, soft_wrap=True)
            if span:
                for line in _excerpt(span):
                    console.print("  " + line, highlight=False, soft_wrap=True)


def render_github(diagnostics: Iterable[Diagnostic]) -> str:
    """GitHub Actions workflow commands, one line per diagnostic."""
    kinds = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
    lines = []
    for d in diagnostics:
        props = []
        if d.span:
            props = [f"file={d.span.file}", f"line={d.span.line}", f"col={d.span.column}"]
        props.append(f"title={d.code}")
        message = d.message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        lines.append(f"::{kinds[d.severity]} {','.join(props)}::{message}")
    return "\n".join(lines)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    import json  # here: a command printing text would import it for nothing (start-up)

    return json.dumps([d.to_json() for d in diagnostics], indent=2)
