"""What the formatters keep of the author's text besides the tree: comments and blank-line groups.

The parser's lexer says where the comments are (`Language.trivia`, the grammar's own ignored
terminals); the printers place them. A printer lays out a container (a file, a section, an action, a
broken formula) as `Item`s, each a piece of the tree with the source extent it came from and a way to
print it; `Comments.lay_out` gives each comment of the container to an item:

- a comment on the same line as the end of the item before it trails that item (`(p ?x) ; why`);
- any other comment leads the next item, on lines of its own at the item's indentation;
- comments after the last item stay at the end of the container, before it closes;
- comments inside an item are the item's own business; those it cannot place (inside an atom, which
  is always printed on one line) are *moved*: printed before the item's first line and reported as
  W121, never dropped.

A blank line the author left before an item or a comment (between two items of one container) is
kept, one however many there were. Items may be printed in another order than the source's (the
canonical order of sections): their comments travel with them.

`ACTIVE` holds the comments of the file being printed: the printers read it, so that `str(node)`
(no comments) prints the canonical layout exactly as before.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pddltools.diagnostics import Diagnostic, Source, Span, warning
from pddltools.syntax.lexing import Trivia

_OPENING = frozenset("({[")
_CLOSING = frozenset(")}]")


@dataclass(eq=False)
class Item:
    """A piece of a container: `span` the source it owns (start, end), None where unknown (such an
    item gets no comments); `render` prints it (its first line unindented, the rest indented as they
    stand); `first` where its text really starts when that is before `span` (a keyword), for blank lines."""

    span: tuple[int, int] | None
    render: Callable[[], str]
    first: int | None = None
    #: a blank line before it whatever the author did (not at the start of its container)
    blank: bool = False


@dataclass
class Comments:
    """The comments of one source and what has been printed of them (see the module's docstring)."""

    source: Source
    trivia: Trivia
    #: whether a printed line ends in a comment (so that nothing may follow it on that line)
    ends_in_comment: Callable[[str], bool]
    moved: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.text = self.source.text
        self.starts = [start for start, _ in self.trivia.comments]
        self.done = [False] * len(self.starts)
        self.token_starts = [start for start, _ in self.trivia.tokens]
        self.token_ends = [end for _, end in self.trivia.tokens]

    # -- looking up --------------------------------------------------------------------------------
    def inside(self, start: int, end: int) -> bool:
        """Whether a comment not yet printed starts in [start, end)."""
        low, high = bisect_left(self.starts, start), bisect_left(self.starts, end)
        return any(not self.done[i] for i in range(low, high))

    def take(self, start: int, end: int) -> list[int]:
        """The comments not yet printed that start in [start, end), now counted as printed."""
        low, high = bisect_left(self.starts, start), bisect_left(self.starts, end)
        found = [i for i in range(low, high) if not self.done[i]]
        for i in found:
            self.done[i] = True
        return found

    def left(self) -> list[int]:
        """The comments no printer placed."""
        return [i for i, done in enumerate(self.done) if not done]

    def extend(self, start: int, end: int, head: int = 0, tail: int = 0) -> tuple[int, int]:
        """[start, end) widened by the `head` tokens before it and the `tail` tokens after it (the
        keyword and parentheses of a section whose span is its contents')."""
        i = bisect_left(self.token_starts, start)
        j = bisect_left(self.token_ends, end)
        if head and self.token_starts:
            start = self.token_starts[max(i - head, 0)]
        if tail and self.token_ends:
            end = self.token_ends[min(j + tail, len(self.token_ends) - 1)]
        return start, end

    def token_end(self, start: int) -> int:
        """The end of the token that starts at `start`."""
        i = bisect_left(self.token_starts, start)
        return self.token_ends[i] if i < len(self.token_starts) and self.token_starts[i] == start else start

    def statement_end(self, start: int) -> int:
        """The end of the `;` that ends the statement starting at `start` (outside brackets), or of
        the last token before a bracket that closes around it."""
        depth = 0
        text, starts, ends = self.text, self.token_starts, self.token_ends
        i = bisect_left(starts, start)
        while i < len(starts):
            token = text[starts[i]:ends[i]]
            if token in _OPENING:
                depth += 1
            elif token in _CLOSING:
                depth -= 1
                if depth < 0:
                    return ends[i - 1]
            elif token == ";" and depth == 0:
                return ends[i]
            i += 1
        return len(text)

    def block_end(self, start: int) -> int:
        """The end of the `}` that closes the first `{` after `start`."""
        depth = 0
        text, starts, ends = self.text, self.token_starts, self.token_ends
        for i in range(bisect_left(starts, start), len(starts)):
            token = text[starts[i]:ends[i]]
            if token == "{":
                depth += 1
            elif token == "}":
                depth -= 1
                if depth == 0:
                    return ends[i]
        return len(text)

    def blank_before(self, pos: int) -> bool:
        """Whether an empty line comes between `pos` and the text before it."""
        newlines = 0
        i = pos - 1
        text = self.text
        while i >= 0 and text[i] in " \t\r\n\f\v":
            if text[i] == "\n":
                newlines += 1
                if newlines == 2:
                    return True
            i -= 1
        return False

    def same_line(self, a: int, b: int) -> bool:
        return "\n" not in self.text[a:b]

    def comment(self, i: int, pad: str) -> str:
        """Comment `i` as printed at `pad`: its first line indented, further lines (a block comment's)
        as they stand, without trailing white space."""
        start, end = self.trivia.comments[i]
        lines = [line.rstrip() for line in self.text[start:end].split("\n")]
        return pad + "\n".join(lines)

    # -- laying out --------------------------------------------------------------------------------
    def head(self, items: Sequence[Item], region: tuple[int, int] | None) -> str:
        """The comments on the first line of a container before its first item (`(:action move ; why`),
        to print at the end of its head line: "" or a space and the comments."""
        if region is None:
            return ""
        first = min((item.span[0] for item in items if item.span is not None), default=region[1])
        low, high = bisect_left(self.starts, region[0]), bisect_left(self.starts, first)
        found = [i for i in range(low, high) if not self.done[i] and self.same_line(region[0], self.starts[i])]
        for i in found:
            self.done[i] = True
        return "".join(" " + self.comment(i, "") for i in found)

    def lay_out(self, items: Sequence[Item], region: tuple[int, int] | None, pad: str) -> list[str]:
        """The chunks of a container's items in the order given, each at `pad`, with the container's
        comments (those in `region` outside every item) placed and blank lines kept; a chunk may
        hold several lines."""
        start, end = region if region is not None else (0, len(self.text))
        leading: dict[int, list[int]] = {}
        trailing: dict[int, list[int]] = {}
        placed = sorted((item for item in items if item.span is not None), key=lambda it: it.span or (0, 0))
        previous: Item | None = None
        position = start
        for item in placed:
            assert item.span is not None
            for i in self.take(position, item.span[0]):
                self._give(i, previous, item, leading, trailing)
            previous, position = item, max(position, item.span[1])
        dangling: list[int] = []
        for i in self.take(position, end):
            if previous is not None and previous.span is not None and self._trails(previous.span[1], i):
                trailing.setdefault(id(previous), []).append(i)
            else:
                dangling.append(i)
        out: list[str] = []
        for item in items:
            text = item.render()
            own = leading.get(id(item), [])
            if item.span is not None:
                hidden = self.take(*item.span)
                if hidden:
                    self._moved(hidden)
                    own = sorted(own + hidden)
            first = item.first if item.first is not None else item.span[0] if item.span is not None else None
            self._comments(own, first, pad, out, item.blank)
            out.append(pad + text)
            self._trail(trailing.get(id(item), []), pad, out)
        self._comments(dangling, None, pad, out)
        return out

    def _trails(self, after: int, i: int) -> bool:
        return self.same_line(after, self.starts[i])

    def _give(self, i: int, previous: Item | None, item: Item, leading: dict[int, list[int]],
              trailing: dict[int, list[int]]) -> None:
        if previous is not None and previous.span is not None and self._trails(previous.span[1], i):
            trailing.setdefault(id(previous), []).append(i)
        else:
            leading.setdefault(id(item), []).append(i)

    def _comments(self, indices: list[int], then: int | None, pad: str, out: list[str], blank: bool = False) -> None:
        """Comments on lines of their own, then (at `then`) an item: each after a blank line where the
        author left one (the first after one anyway when `blank`), except at the start of the container."""
        for i in indices:
            if out and (blank or self.blank_before(self.starts[i])) and out[-1] != "":
                out.append("")
            blank = False
            out.append(self.comment(i, pad))
        if out and (blank or (then is not None and self.blank_before(then))) and out[-1] != "":
            out.append("")

    def _trail(self, indices: list[int], pad: str, out: list[str]) -> None:
        for i in indices:
            if self.ends_in_comment(out[-1].rsplit("\n", 1)[-1]):  # a chunk's last line, not an earlier one
                out.append(self.comment(i, pad))
            else:
                out[-1] += " " + self.comment(i, "")

    def _moved(self, indices: list[int]) -> None:
        for i in indices:
            start, end = self.trivia.comments[i]
            self.moved.append(warning("W121", "this comment is inside a construct the formatter prints on one "
                                      "line; it is kept on a line of its own before it", Span(self.source, start, end)))

    def close(self, chunks: list[str], pad: str, closing: str = ")") -> str:
        """The chunks joined, then `closing`: on the last line, or on a line of its own at `pad` when
        that line ends in a comment."""
        body = "\n".join(chunks)
        if chunks and self.ends_in_comment(chunks[-1].rsplit("\n", 1)[-1]):
            return body + "\n" + pad + closing
        return body + closing


ACTIVE: ContextVar[Comments | None] = ContextVar("pddltools.comments.ACTIVE", default=None)


def active() -> Comments | None:
    return ACTIVE.get()


@contextmanager
def printing(comments: Comments) -> Iterator[Comments]:
    """Print with `comments` in force (see `ACTIVE`)."""
    token = ACTIVE.set(comments)
    try:
        yield comments
    finally:
        ACTIVE.reset(token)


def rest(comments: Comments) -> list[str]:
    """The comments no printer placed, as lines for the end of the file, each reported as moved (a
    printer that misses one must not lose it)."""
    left = comments.left()
    for i in left:
        comments.done[i] = True
    comments._moved(left)
    return [comments.comment(i, "") for i in left]


def _slice(text: str, span: tuple[int, int]) -> str:
    return text[span[0]:span[1]]


def keep(source: Source, trivia: Trivia, ends_in_comment: Callable[[str], bool], node: Any,
         render: Callable[[Any], str], before: Sequence[tuple[int, int]] = (),
         span: tuple[int, int] | None = None) -> tuple[str, list[Diagnostic]]:
    """A whole file: `render(node)` with the comments of `source` placed (those before and after the
    node at the file's level), `before` (spans of text the parser skipped) kept as they stand; and the
    warnings of the comments that moved."""
    comments = Comments(source, trivia, ends_in_comment)
    with printing(comments):
        items = [Item(skipped, partial(_slice, source.text, skipped)) for skipped in before]
        if span is None and node.span is not None:
            span = (node.span.start, node.span.end)
        items.append(Item(span, lambda: render(node).rstrip("\n")))
        chunks = comments.lay_out(items, None, "")
        chunks += rest(comments)
    return "\n".join(chunks) + "\n", comments.moved
