"""What ENHSP writes around and inside its plans, read before the plan reader sees the steps.

ENHSP (checked with the jar of PyPI's up-enhsp 0.1.1) writes:
- with `-sp FILE`: one `TIME: (action ...)` line per step and, for PDDL+ tasks, a last line
  `TIME: @PlanEND` giving the plan's end time (the time the goal is checked at);
- on standard output, after `Found Plan:`, the same steps with `TIME: -----waiting---- [UNTIL]` lines
  where time passes with no action, ended by a blank line and then its statistics (`Plan-Length:` ...).

`strip_enhsp` turns such a text into plain steps: the end line is taken out and its time kept, waiting
lines are taken out, and a saved log keeps only its plan. What it takes out is replaced by spaces, so
every step keeps its line and column for the plan reader's diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pddltools.diagnostics import Source, Span, error
from pddltools.syntax.lexing import LazyPattern
from pddltools.validate.planfile import ENHSP_LOG_START, PlanError, may_hold_enhsp_lines, plan_number

# Compiled at their first use: a plain plan, the common case, never needs them (start-up).
_END = LazyPattern(r"[ \t]*(?:([^\s()\[\];:]+)[ \t]*:)?[ \t]*@planend\b(.*)", re.IGNORECASE)
_WAITING = LazyPattern(r"[ \t]*(?:([^\s()\[\];:]+)[ \t]*:)?[ \t]*-+waiting-+(.*)", re.IGNORECASE)
_DURATION = LazyPattern(r"[ \t]*\[[ \t]*([^\s\]]+)[ \t]*\][ \t]*(?:;.*)?\r?", 0)
_LOG_START = ENHSP_LOG_START


@dataclass(frozen=True, slots=True)
class Stripped:
    source: Source  # the steps alone, at their original offsets
    end: Fraction | None  # the `@PlanEND` time
    end_span: Span | None


def strip_enhsp(source: Source) -> Stripped:
    """The plan's steps with ENHSP's extra lines blanked out; raises `PlanError` for a malformed one."""
    text = source.text
    if not may_hold_enhsp_lines(text):
        return Stripped(source, None, None)  # the common case: a plain plan, read as it is
    lines = text.split("\n")
    keep = [True] * len(lines)
    log = next((i for i, line in enumerate(lines) if line.strip() == _LOG_START), None)
    if log is not None:
        # A saved log: the plan is the lines after `Found Plan:` up to the first blank line.
        stop = next((i for i in range(log + 1, len(lines)) if not lines[i].strip()), len(lines))
        keep = [log < i < stop for i in range(len(lines))]
    out: list[str] = []
    end: Fraction | None = None
    end_span: Span | None = None
    offset = 0
    for i, line in enumerate(lines):
        span = Span(source, offset + len(line) - len(line.lstrip()), offset + len(line.rstrip()))
        offset += len(line) + 1
        if not keep[i]:
            out.append(" " * len(line))
            continue
        found = _END.fullmatch(line)
        if found is not None:
            if found.group(1) is None:
                raise PlanError("syntax", error("V001", "@PlanEND needs its time: write TIME: @PlanEND", span))
            if found.group(2).split(";", 1)[0].strip():
                raise PlanError("syntax", error("V001", "text after @PlanEND: nothing may follow it on its plan line",
                                                span))
            if end is not None:
                raise PlanError("syntax", error("V001", "a second @PlanEND: a plan has one end", span))
            end, end_span = plan_number(found.group(1), span, "the plan's end time"), span
            out.append(" " * len(line))
            continue
        found = _WAITING.fullmatch(line)
        if found is not None:
            if found.group(1) is None or _DURATION.fullmatch(found.group(2)) is None:
                raise PlanError("syntax", error("V001", "a waiting line is written TIME: -----waiting---- [UNTIL]",
                                                span))
            duration = _DURATION.fullmatch(found.group(2))
            assert duration is not None
            plan_number(found.group(1), span, "the waiting time")
            plan_number(duration.group(1), span, "the time waited until")
            out.append(" " * len(line))
            continue
        if end is not None and line.split(";", 1)[0].strip():
            raise PlanError("syntax", error("V001", "a step after @PlanEND: the end line comes last", span))
        out.append(line)
    return Stripped(Source("\n".join(out), source.name), end, end_span)
