"""Console markup without importing rich: its `escape`, and lines printed as rich prints them off a
terminal.

Importing rich's console costs a fresh process about 0.04 s of CPU, more than the rest of validating a
small plan. A command's result line (`plan.1: valid, value 8 ...`) printed to a pipe or a file is the
markup's text with its tags removed, so `LinePrinter` writes that text itself when nothing could make
rich print otherwise (colour forced, a terminal, a control character, an emoji code), and hands
everything else to a rich console made on first need. `tests/test_markup.py` compares the two.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from rich.console import Console

_ESCAPE = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")
#: rich.markup's tags: an optional run of backslashes, then `[tag]`.
_TAGS = re.compile(r"((\\*)\[([a-z#/@][^[]*?)])")
#: What rich might replace with an emoji (`:smile:`); a line holding one is left to rich.
_EMOJI = re.compile(r":\S*?:")
#: Control characters (rich strips some, expands tabs): a line holding one is left to rich.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def escape(markup: str) -> str:
    """`rich.markup.escape`: `markup` with every `[` that would open a tag escaped."""

    def escape_backslashes(match: re.Match[str]) -> str:
        backslashes, text = match.groups()
        return f"{backslashes}{backslashes}\\{text}"

    markup = _ESCAPE.sub(escape_backslashes, markup)
    if markup.endswith("\\") and not markup.endswith("\\\\"):
        return markup + "\\"
    return markup


def plain_text(markup: str) -> str | None:
    """The text rich prints for `markup` with no colours (off a terminal), or None where rich might
    print something else (an emoji code, a control character)."""
    parts: list[str] = []
    position = 0
    for match in _TAGS.finditer(markup):
        full, escapes, _ = match.groups()
        start, end = match.span()
        parts.append(markup[position:start])
        backslashes, escaped = divmod(len(escapes), 2)
        parts.append("\\" * backslashes)
        if escaped:
            parts.append(full[len(escapes):])
        position = end
    parts.append(markup[position:])
    text = "".join(parts)
    if _EMOJI.search(text) or _CONTROL.search(text):
        return None
    return text


def _plain_stream(stream: object) -> bool:
    """Whether rich would print to `stream` without styles: not a terminal, no colour forced."""
    environ = os.environ
    if environ.get("TTY_COMPATIBLE") or environ.get("FORCE_COLOR") is not None or "IPython" in sys.modules:
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:
        return False


class LinePrinter:
    """Prints lines of markup to standard output (or error) as the rich console of
    `pddltools.consoles` would: directly where the text is plain, else through that console."""

    def __init__(self, make: Callable[[], Console], *, stderr: bool = False) -> None:
        self._make = make
        self._stderr = stderr
        self._console: Console | None = None

    @property
    def rich(self) -> Console:
        """The rich console, made on first use (tables, diagnostics with their excerpts)."""
        if self._console is None:
            self._console = self._make()
        return self._console

    def print(self, markup: str) -> None:
        stream = sys.stderr if self._stderr else sys.stdout
        if self._console is None and _plain_stream(stream):
            text = plain_text(markup)
            if text is not None:
                stream.write(text + "\n")
                return
        self.rich.print(markup)
