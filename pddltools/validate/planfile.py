"""Plan files: the sequential IPC format `(action a b)` and the temporal `0.000: (action a b) [10.000]`.

One step per parenthesised form (a form may span lines); `;` starts a comment (a `; cost = N` line is a
comment like any other: the cost is computed, never read); an optional `N:` before a step is its step
number or start time; names are case-insensitive. Every fault names its line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pddltools.diagnostics import Diagnostic, Error, Source, Span, error

_TOKEN = re.compile(r";[^\n]*|\s+|[()\[\]]|[^\s()\[\];]+")


class PlanError(Error):
    """A plan file that is not a plan for its task; `reason` is the report's reason, `step` the 1-based
    step at fault (None when the fault is outside any step)."""

    def __init__(self, reason: str, diagnostic: Diagnostic, step: int | None = None) -> None:
        super().__init__([diagnostic])
        self.reason = reason
        self.step = step


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a plan as written: 1-based index, lower-cased name and arguments, time and duration
    when given, and where it is."""

    index: int
    name: str
    args: tuple[str, ...]
    span: Span
    time: Fraction | None = None
    duration: Fraction | None = None

    @property
    def line(self) -> int:
        return self.span.line

    def __str__(self) -> str:
        return "(" + " ".join((self.name, *self.args)) + ")"


@dataclass(frozen=True, slots=True)
class Plan:
    source: Source
    steps: tuple[Step, ...]

    @property
    def temporal(self) -> bool:
        return any(s.duration is not None for s in self.steps)


def _number(text: str, span: Span, what: str, step: int) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise PlanError("syntax", error("V001", f"{what} {text!r} is not a number", span), step) from None
    return value


def read_plan(source: Source) -> Plan:
    """Read a plan; raises `PlanError` (reason `syntax`) at the first malformed step."""
    text = source.text
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)
              if not m.group().isspace() and not m.group().startswith(";")]
    steps: list[Step] = []
    i, n = 0, len(tokens)

    def span(k: int) -> Span:
        tok, at = tokens[k]
        return Span(source, at, at + len(tok))

    def fail(message: str, k: int) -> PlanError:
        return PlanError("syntax", error("V001", message, span(k)), len(steps) + 1)

    while i < n:
        tok, start = tokens[i]
        time: Fraction | None = None
        if tok.endswith(":") and tok not in "()[]":
            time = _number(tok[:-1], span(i), "the step time", len(steps) + 1)
            i += 1
            if i == n:
                raise fail(f"{tok} is not followed by a step", i - 1)
            tok = tokens[i][0]
        if tok == ")":
            raise fail("')' without a matching '(' (an extra ')', or a missing '(' earlier)", i)
        if tok != "(":
            if tok in "[]":
                raise fail(f"'{tok}' outside a step", i)
            raise fail(f"expected '(' before {tok!r}: each step is written (action arg ...)", i)
        open_at = i
        i += 1
        words: list[str] = []
        while i < n and tokens[i][0] not in "()[]":
            words.append(tokens[i][0].lower())
            i += 1
        if i == n or tokens[i][0] != ")":
            raise fail("this step's '(' is never closed: a ')' is missing", open_at)
        if not words:
            raise fail("an empty step '()'", open_at)
        close_at = i
        i += 1
        duration: Fraction | None = None
        if i < n and tokens[i][0] == "[":
            if i + 2 >= n or tokens[i + 2][0] != "]" or tokens[i + 1][0] in "()[]":
                raise fail("a duration is written [number]", i)
            duration = _number(tokens[i + 1][0], span(i + 1), "the duration", len(steps) + 1)
            close_at = i + 2
            i += 3
        end_tok, end_at = tokens[close_at]
        steps.append(Step(len(steps) + 1, words[0], tuple(words[1:]), Span(source, start, end_at + len(end_tok)),
                          time, duration))
    return Plan(source, tuple(steps))
