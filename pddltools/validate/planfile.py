"""Plan files: the sequential IPC format `(action a b)` and the temporal `0.000: (action a b) [10.000]`,
and ENHSP's (`TIME: @PlanEND`, waiting lines, a saved log: `enhsp.py`).

One step per parenthesised form (a form may span lines); `;` starts a comment (a `; cost = N` line is a
comment like any other: the cost is computed, never read); an optional `N:` before a step is its step
number or start time; names are case-insensitive. Every fault names its line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from pddltools.diagnostics import Diagnostic, Error, Source, Span, error
from pddltools.pddl.exact_numbers import NumberOutOfRange, parse_number
from pddltools.syntax.frozen import fast_constructor
from pddltools.syntax.frozen import new_span as _new_span
from pddltools.syntax.lexing import LazyPattern

# The slow path's patterns are compiled when first used (start-up: a well-formed plan never needs them).
_TOKEN = LazyPattern(r";[^\n]*|\s+|[()\[\]]|[^\s()\[\];]+", 0)


class PlanError(Error):
    """A plan file that is not a plan for its task; `reason` is the report's reason, `step` the 1-based
    step at fault (None when the fault is outside any step)."""

    def __init__(self, reason: str, diagnostic: Diagnostic, step: int | None = None) -> None:
        super().__init__([diagnostic])
        self.reason = reason
        self.step = step


@dataclass(frozen=True, slots=True)
class PlanFileStep:
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


# Built without the frozen `__init__`: a long plan makes thousands of each.
_new_step = fast_constructor(PlanFileStep)  # (index, name, args, span, time, duration)


@dataclass(frozen=True, slots=True)
class Plan:
    source: Source
    steps: tuple[PlanFileStep, ...]
    end: Fraction | None = None  # an explicit end time (ENHSP's `TIME: @PlanEND`)
    end_span: Span | None = None

    @property
    def temporal(self) -> bool:
        return any(s.duration is not None for s in self.steps)


def plan_number(text: str, span: Span, what: str, step: int | None = None, *, signed: bool = False) -> Fraction:
    """A time (or, `signed`, a duration) written in a plan file, exact; a located V001 `PlanError` when
    it is none. Plan numbers are decimals, as VAL's plan grammar reads them (`10`, `10.5`, `.5`): not
    Python's other spellings (`1_0.5`, `21/2`, `1e3`, Arabic-Indic digits), and a time is never negative,
    since a plan starts at time 0 (a negative duration is read, and judged not positive)."""
    try:
        value = _fraction(text, signed=True)
    except NumberOutOfRange as exc:
        raise PlanError("syntax", error("V001", f"{what}: {exc}", span), step) from None
    except (ValueError, ZeroDivisionError):
        raise PlanError("syntax", error("V001", f"{what} {text!r} is not a number: plan times and durations are "
                                                "decimals, as 10 or 10.5", span), step) from None
    if value < 0 and not signed:
        raise PlanError("syntax", error("V001", f"{what} {text} is negative: a plan starts at time 0", span),
                        step)
    return value


#: a plan number as VAL's plan grammar writes it (`-?[0-9]+(\.[0-9]*)?`), and `.5`
_DECIMAL = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def _fraction(text: str, *, signed: bool) -> Fraction:
    """A plan number's value as a `Fraction`: `ValueError` (`NumberOutOfRange` past its bound) when it
    is not a decimal, or (not `signed`) when it is negative."""
    if _DECIMAL.fullmatch(text) is None or (not signed and text.startswith("-")):
        raise ValueError(text)
    # the literal reader bounds the size (`1` followed by a million zeros would be exact, and as slow to
    # build as it is long) and reads plain decimals without Fraction's string parser
    value = parse_number(text)
    return value if type(value) is Fraction else Fraction(value)


def _time(text: str) -> Fraction:
    """`_fraction(text, signed=False)`, a time of a few ASCII digits with or without a decimal point
    (`12`, `12.034`: the times planners write) read without the decimal's pattern and general parser."""
    if len(text) < 16 and text.isascii():
        whole, dot, fraction = text.partition(".")
        if whole.isdigit():
            if not dot:
                return Fraction(int(whole))
            if fraction.isdigit():
                return Fraction(int(whole + fraction), 10 ** len(fraction))
    return _fraction(text, signed=False)


def _read_steps(source: Source) -> Plan:
    fast = _read_lines(source)
    if fast is None:
        _refuse_definition(source)
    return fast if fast is not None else _read_tokens(source)


# One well-formed step on a line of its own, the way planners write them: the fast path.
# Group 2 is the step as written, duration included: its span (from the time, when there is one).
_LINE = (r"[ \t]*(?:([^\s()\[\];:]+):[ \t]*)?(\([ \t]*([^\s()\[\];]+)((?:[ \t]+[^\s()\[\];]+)*)[ \t]*\)"
         r"(?:[ \t]*\[[ \t]*([^\s()\[\];]+)[ \t]*\])?)[ \t]*(?:;[^\n]*)?\r?")
_BLANK = r"[ \t]*(?:;[^\n]*)?\r?"
# A line (a step, or blank or a comment) and its end: matched over the whole text, not line by line.
_LINES = re.compile("(?:" + _LINE + "|" + _BLANK + r")(?:\n|\Z)")


#: The line before the plan in a saved ENHSP log (`pddltools.validate.enhsp`).
ENHSP_LOG_START = "Found Plan:"


def may_hold_enhsp_lines(text: str) -> bool:
    """Whether `text` may hold what ENHSP writes besides plain steps (an end, waits, a log around the
    plan): `enhsp.strip_enhsp` reads such a text; any other is a plain plan, read as it is."""
    return "@" in text or "waiting" in text.lower() or ENHSP_LOG_START in text


def read_plan(source: Source) -> Plan:
    """Read a plan; raises `PlanError` (reason `syntax`) at the first malformed step."""
    if not may_hold_enhsp_lines(source.text):  # the common case: `enhsp` is not even imported
        return _read_steps(source)
    from pddltools.validate.enhsp import strip_enhsp  # it raises this module's PlanError

    stripped = strip_enhsp(source)
    plan = _read_steps(stripped.source)
    if stripped.end is None:
        return plan
    # ENHSP writes its "Elapsed Time" there, which can miss waits and fall before the last step (seen
    # with up-enhsp 0.1.1): a plan does not end before its last step, so that step's time is the end.
    last = max((s.time for s in plan.steps if s.time is not None), default=stripped.end)
    return Plan(plan.source, plan.steps, max(stripped.end, last), stripped.end_span)


#: A PDDL or HDDL definition where a plan was expected: the files given in the wrong order.
_DEFINITION = LazyPattern(r"\A(?:\s|;[^\n]*)*(\(\s*define\s*\(\s*(domain|problem)\b)", re.IGNORECASE)


def _refuse_definition(source: Source) -> None:
    """V021 for a domain or problem file given as a plan, named as such rather than read as a broken plan."""
    found = _DEFINITION.match(source.text)
    if found is not None:
        kind = found.group(2).lower()
        raise PlanError("syntax", error(
            "V021", f"{source.name} is a {kind} file, not a plan: validate takes DOMAIN PROBLEM PLAN, in that "
            "order", Span(source, found.start(1), found.end(1))))


def _read_lines(source: Source) -> Plan | None:
    """The plan when every line is blank, a comment or one well-formed step; otherwise None, and the
    tokenizer reads the file (and locates its fault). One pass of `_LINES` over the whole text: the
    matches must follow each other with no gap, a gap being a line that is neither."""
    steps: list[PlanFileStep] = []
    text = source.text
    expected = 0
    # each duration, name and list of arguments as written, read once: a long plan repeats its few
    # actions and durations thousands of times (its times are all different)
    durations: dict[str, Fraction] = {}
    names: dict[str, str] = {}
    arguments: dict[str, tuple[str, ...]] = {}
    for found in _LINES.finditer(text):
        if found.start() != expected:
            return None
        expected = found.end()
        time_text, _, name, args, duration_text = found.groups()
        if name is None:
            continue  # a blank or comment line
        start = found.start(1 if time_text else 2)
        span = _new_span(source, start, found.end(2) - start)
        try:
            time = _time(time_text) if time_text else None
            duration = None
            if duration_text:
                duration = durations.get(duration_text)
                if duration is None:
                    duration = durations[duration_text] = _fraction(duration_text, signed=True)
        except (ValueError, ZeroDivisionError):
            return None  # the tokenizer points at the number itself, in `plan_number`'s words
        lowered = names.get(name)
        if lowered is None:
            lowered = names[name] = name.lower()
        if args:
            words = arguments.get(args)
            if words is None:
                words = arguments[args] = tuple(args.lower().split())
        else:
            words = ()
        steps.append(_new_step(len(steps) + 1, lowered, words, span, time, duration))
    if expected != len(text):
        return None
    return Plan(source, tuple(steps))


def _read_tokens(source: Source) -> Plan:
    text = source.text
    tokens = [(m.group(), m.start()) for m in _TOKEN.finditer(text)
              if not m.group().isspace() and not m.group().startswith(";")]
    steps: list[PlanFileStep] = []
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
            time = plan_number(tok[:-1], span(i), "the step time", len(steps) + 1)
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
            duration = plan_number(tokens[i + 1][0], span(i + 1), "the duration", len(steps) + 1, signed=True)
            close_at = i + 2
            i += 3
        end_tok, end_at = tokens[close_at]
        written = Span(source, start, end_at + len(end_tok))
        steps.append(PlanFileStep(len(steps) + 1, words[0], tuple(words[1:]), written, time, duration))
    return Plan(source, tuple(steps))
