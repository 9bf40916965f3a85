"""The rich consoles the commands print through, made one way.

Off a terminal (a pipe, a file) rich would lay tables out for 80 columns and cut long cells with "…"
(`pddltools score runs.jsonl | cat` printed "blocks-stri…"); what is written for a program must be
whole, so there the width is unbounded in practice and only a terminal's width is fitted.
"""

from __future__ import annotations

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
    return _made(Console(highlight=False, soft_wrap=True))


def stderr_console() -> Console:
    """Standard error: diagnostics, progress, refusals."""
    return _made(Console(stderr=True, highlight=False, soft_wrap=True))
