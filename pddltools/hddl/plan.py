"""HTN plan files in the IPC-2020/2023 format, read line by line with every token's place kept.

    ==>
    0 (drive truck-0 city-loc-0 city-loc-1)      primitive steps: id action args, in plan order
    1 noop
    root 2 3                                     the tasks of the initial network, by id
    2 deliver package-0 city-loc-1 -> m-deliver 4 0   id task args -> method subtask-ids
    <==

The format is the one pandaPIparser's verifier reads (src/plan.cpp there): text before `==>` is a
planner's log and is skipped; a step's name may be written `(name a b)` or `name[a,b]`; the `root`
line may be missing when the plan is primitive only; `<==` ends the plan and text after it is skipped
too. Beyond that, `;` starts a comment and blank lines are allowed anywhere. Names are compared without
regard to case (as PDDL's are; pandaPIparser needs `-l` for that): they are stored lower-cased and
their spans give the spelling.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pddltools.diagnostics import Error, Source, Span, error
from pddltools.pddl.exact_numbers import read_whole
from pddltools.reading import read_source

# parentheses, brackets and commas separate words: `(drive a b)` and `drive[a,b]` are both a step
_WORD = re.compile(r"[^\s()\[\],;]+")

#: The longest task id read: far more tasks than any plan has, and an int as planners print it.
ID_DIGITS = 18


class HTNPlanError(Error):
    """A file that is not an HTN plan: each diagnostic names a line and a column."""


@dataclass(frozen=True, slots=True)
class Word:
    """A token of the plan with where it is."""

    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class HTNPlanLine:
    """A primitive step (`task` an action) or a decomposition (`method` and `subtasks` set).

    `name` and `args` are lower-cased; `line` is the whole line without its comment."""

    id: int
    id_word: Word
    name: Word
    args: tuple[Word, ...]
    line: Span
    method: Word | None = None
    subtasks: tuple[Word, ...] = ()

    @property
    def primitive(self) -> bool:
        return self.method is None

    def ground(self) -> str:
        """`(name a b)`, lower-cased, for messages."""
        return "(" + " ".join((self.name.text, *(a.text for a in self.args))) + ")"


@dataclass(frozen=True, slots=True)
class HTNPlan:
    """The plan as written: the primitive steps in order, the roots (None without a `root` line; then
    the plan claims no hierarchy, as pandaPIparser's "primitive plan only") and the decompositions in
    file order."""

    source: Source
    primitive: tuple[HTNPlanLine, ...]
    roots: tuple[Word, ...] | None
    root_line: Span | None
    decompositions: tuple[HTNPlanLine, ...]
    start: Span  # the `==>` line

    @property
    def steps(self) -> tuple[HTNPlanLine, ...]:
        return self.primitive + self.decompositions

    def __len__(self) -> int:
        """The plan's length as the IPC HTN tracks count it: primitive actions only."""
        return len(self.primitive)


def read_plan(path: str) -> HTNPlan:
    return parse_plan(read_source(path))


def parse_plan(source: Source) -> HTNPlan:
    """Read `source` as an HTN plan; raises HTNPlanError with every malformed line, not only the first."""
    return _Reader(source).read()


def looks_like_htn_plan(text: str) -> bool:
    """True when `text` has the `==>` line that opens an HTN plan (a classical plan never has one)."""
    return any(line.strip() == "==>" for line in text.splitlines())


class _Reader:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.faults: list[tuple[str, Span]] = []

    def span(self, start: int, end: int) -> Span:
        return Span(self.source, start, end)

    def fault(self, message: str, start: int, end: int) -> None:
        self.faults.append((message, self.span(start, max(end, start + 1))))

    def lines(self) -> list[tuple[int, str]]:
        """(offset, text without comment and trailing space) of each line."""
        out: list[tuple[int, str]] = []
        offset = 0
        for raw in self.source.text.splitlines(keepends=True):
            body = raw.split(";", 1)[0].rstrip()
            out.append((offset, body))
            offset += len(raw)
        return out

    def words(self, offset: int, text: str) -> list[Word]:
        return [Word(m.group(), self.span(offset + m.start(), offset + m.end())) for m in _WORD.finditer(text)]

    def read(self) -> HTNPlan:
        lines = self.lines()
        opening = next((i for i, (_, text) in enumerate(lines) if text.strip() == "==>"), None)
        if opening is None:
            end = len(self.source.text)
            self.fault("expected a line `==>` opening the HTN plan (a planner writes it before the primitive "
                       "steps)", max(0, end - 1), end)
            raise self.error()
        start_offset, start_text = lines[opening]
        start = self.span(start_offset, start_offset + len(start_text))
        primitive: list[HTNPlanLine] = []
        decompositions: list[HTNPlanLine] = []
        roots: tuple[Word, ...] | None = None
        root_line: Span | None = None
        for offset, text in lines[opening + 1:]:
            words = self.words(offset, text)
            if not words:
                continue
            head = words[0]
            if head.text == "<==":  # pandaPIparser reads a plan without it too: the end of the file ends it
                break
            if head.text.lower() == "root":
                if roots is not None:
                    self.fault("a second `root` line: the plan has one, after the primitive steps",
                               head.span.start, head.span.end)
                    continue
                roots = tuple(w for w in words[1:] if self.number(w) is not None)
                root_line = self.span(offset, offset + len(text))
                continue
            step = self.step(offset, text, head, roots is not None)
            if step is None:
                continue
            if step.primitive:
                if roots is not None:
                    self.fault("expected a decomposition `ID TASK ARGS -> METHOD SUBTASK-IDS` after the `root` "
                               "line (primitive steps come before it)", step.line.start, step.line.end)
                primitive.append(step)
            else:
                if roots is None:
                    self.fault("a decomposition before the `root` line: expected a primitive step `ID ACTION "
                               "ARGS`, or the `root` line", step.line.start, step.line.end)
                decompositions.append(step)
        if self.faults:
            raise self.error()
        return HTNPlan(self.source, tuple(primitive), roots, root_line, tuple(decompositions), start)

    def number(self, word: Word) -> int | None:
        ident = read_whole(word.text, ID_DIGITS)
        if ident is not None:
            return ident
        shown = word.text if len(word.text) <= 24 else word.text[:12] + "..." + word.text[-8:]
        self.fault(f"expected a task id (a number at or above 0, of at most {ID_DIGITS} digits 0-9), not {shown!r}",
                   word.span.start, word.span.end)
        return None

    def step(self, offset: int, text: str, head: Word, after_root: bool) -> HTNPlanLine | None:
        ident = self.number(head)
        if ident is None:
            return None
        rest_start = head.span.end - offset
        arrow = text.find("->", rest_start)
        body_end = arrow if arrow >= 0 else len(text)
        body = text[rest_start:body_end]
        words = self.words(offset + rest_start, body)
        line = self.span(offset, offset + len(text))
        if not words:
            what = "a task and its arguments" if after_root else "an action and its arguments"
            self.fault(f"expected {what} after the id {ident}", head.span.end, line.end + 1)
            return None
        name, *args = words
        lowered = tuple(Word(w.text.lower(), w.span) for w in args)
        named = Word(name.text.lower(), name.span)
        if arrow < 0:
            return HTNPlanLine(ident, head, named, lowered, line)
        after = self.words(offset + arrow + 2, text[arrow + 2:])
        if not after:
            self.fault("expected a method's name after `->`", offset + arrow, offset + arrow + 2)
            return None
        method, *subtasks = after
        ids = tuple(w for w in subtasks if self.number(w) is not None)
        return HTNPlanLine(ident, head, named, lowered, line, Word(method.text.lower(), method.span), ids)

    def error(self) -> HTNPlanError:
        return HTNPlanError([error("V101", f"not an HTN plan: {message}", span) for message, span in self.faults])


__all__ = ["HTNPlan", "HTNPlanError", "HTNPlanLine", "Word", "looks_like_htn_plan", "parse_plan", "read_plan"]
