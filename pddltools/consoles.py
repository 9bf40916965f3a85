"""The rich consoles the commands print through, made one way.

Off a terminal (a pipe, a file) rich would lay tables out for 80 columns and cut long cells with "…"
(`pddltools score runs.jsonl | cat` printed "blocks-stri…"); what is written for a program must be
whole, so there the width is unbounded in practice and only a terminal's width is fitted.
"""

from __future__ import annotations

from pddltools.markup import LinePrinter

# rich is imported when a console is made: a command that prints only plain lines to a pipe never
# imports it (`pddltools.markup`).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from rich.console import Console

#: Wide enough for any table pddltools prints; rich sizes a table to its content, so the width is a
#: bound, not padding.
PIPE_WIDTH = 100_000


def _made(console: Console) -> Console:
    if not console.is_terminal:
        console.width = PIPE_WIDTH
    return console


def stdout_console() -> Console:
    """Standard output: results, tables."""
    from rich.console import Console

    return _made(Console(highlight=False, soft_wrap=True))


def stderr_console() -> Console:
    """Standard error: diagnostics, progress, refusals."""
    from rich.console import Console

    return _made(Console(stderr=True, highlight=False, soft_wrap=True))


def stdout_lines() -> LinePrinter:
    """Standard output for lines of markup, printed without rich where rich would print plain text."""
    return LinePrinter(stdout_console)
