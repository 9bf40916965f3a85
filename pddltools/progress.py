"""Progress for long commands: a rich bar on a terminal, nothing at all on a pipe or in a file.

Commands print their results as usual while the bar is shown (rich keeps the bar below them); a script
reading the output never sees a control character, because off a terminal the bar is never drawn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported by the commands that draw, not by the library code that counts
    from rich.console import Console
    from rich.progress import Progress


def progress_bar(console: Console, *, counted: bool = True) -> Progress:
    """A bar (`counted`: with done/total) drawn on `console` only when it is a terminal; use it as a
    context manager and add tasks to it. It disappears when done, leaving what was printed."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    columns = ([TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
               if counted else [SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn()])
    return Progress(*columns, console=console, transient=True, disable=not console.is_terminal)


def in_words(n: int) -> str:
    """A count as people read it: `48,408`, or `about 3 x 10^300` (with a times sign) once its digits
    stop meaning anything."""
    if n < 10**7:
        return f"{n:,}"
    digits = len(str(n)) - 1
    lead = round(n / 10**digits)  # exact for integers of any size: int / int rounds once
    if lead == 10:  # 9.6 x 10^k is about 1 x 10^(k+1)
        lead, digits = 1, digits + 1
    return f"about {lead} × 10^{digits}"  # noqa: RUF001 (the times sign is meant)


__all__ = ["in_words", "progress_bar"]
