"""Fast construction of frozen, slotted dataclasses for the parsers' hot paths.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`, which costs about twice
as much as writing the slot directly. The parsers build hundreds of thousands of nodes per file, so
they use `fast_constructor(cls)`: a positional function with the same fields, in `fields(cls)` order,
that writes the slots directly. The result is an ordinary instance of `cls`.

Where the compiled module `pddltools.syntax._speedups` is built (it is, by `pip install`, on any machine with
a C compiler), the constructor is its `Maker`, which also leaves the instance out of the cycle
collector: the trees are immutable and acyclic, and otherwise each collection after a large parse
walks every node (a fifth of the time of parsing the corpus). Without it, the same constructor is
generated in Python: a function that writes the slots through their descriptors.

A syntax tree's node keeps its position in two slots (`pddltools.tree.Tree`): an anchor span and an
offset from it, `_offset`, which is its fast constructor's last argument and may be left out (0: the
anchor is the node's span). `Anchors` gives parsers the anchor and offset of a range.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields

from pddltools.diagnostics import Source, Span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")


try:
    from pddltools.syntax import _speedups
except ImportError:  # not built: the Python versions of the hot paths run instead
    _speedups = None  # type: ignore[assignment]

#: The compiled module, or None where it is not built.
speedups = _speedups


def constructor_fields(cls: type) -> tuple[str, ...]:
    """The slots `fast_constructor(cls)` takes, in order: `fields(cls)`, but for a node that keeps its
    position in two slots (`tree.Tree`) the anchor slot `_anchor` where `span` is, and `_offset` last."""
    names = tuple(f.name for f in fields(cls))
    if "span" not in names or not hasattr(cls, "_anchor"):
        return names
    return (*("_anchor" if name == "span" else name for name in names), "_offset")


def fast_constructor(cls: type[T], *, compiled: bool = True) -> Callable[..., T]:
    names = constructor_fields(cls)
    defaults = (0,) if names[-1:] == ("_offset",) else ()
    if compiled and speedups is not None:
        return speedups.Maker(cls, names, defaults)
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    body = []
    for name in names:
        env[f"_set_{name}"] = getattr(cls, name).__set__
        body.append(f"    _set_{name}(o, {name})")
    parameters = [f"{name}=0" if defaults and name == "_offset" else name for name in names]
    code = (f"def make({', '.join(parameters)}):\n    o = _new(_cls)\n" + "\n".join(body) + "\n    return o\n")
    exec(code, env)  # generated once per class; the code is the loop above, unrolled
    make: Callable[..., T] = env["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), built without the frozen __init__"
    return make


def without_collector(cls: type) -> bool:
    """Leave the cycle collector's header (16 bytes) out of `cls`'s instances, where the compiled module
    is built: for a class of immutable, acyclic nodes with `__slots__` only, called as it is created
    (before it has an instance). Whether it was done."""
    drop = getattr(speedups, "without_collector", None)
    return bool(drop(cls)) if drop is not None else False


def compiled_span_getter(cls: type, anchor_slot: object, offset_slot: object) -> Callable[[Any], Span | None] | None:
    """The compiled getter of the span of a `cls` (`tree.Tree`) kept in two slots, or None where the
    compiled module is not built: what the Python getter does, without a Python call per read."""
    make = getattr(speedups, "SpanOf", None)
    if make is None or not isinstance(new_span, speedups.Maker):
        return None
    getter: Callable[[Any], Span | None] = make(cls, anchor_slot, offset_slot, new_span)
    return getter


#: `Span(origin, offset, length)` without its `__init__` (which takes an end): the parsers and the plan
#: reader make one for every node and step.
new_span = fast_constructor(Span)


class Anchors:
    """The anchors of a parse's nodes: for a range of the source, the span of an earlier node of the same
    length that starts at most 255 characters before it, and the range's offset from that span.

    The offset is below 256, one of the small ints CPython shares, and the anchor is shared: where nodes
    of equal length come close together (the declarations of a generated domain, the atoms of a large
    `:init`), a node carries its position in its own two slots at no cost of its own, where a `Span`
    per node took 64 bytes (a domain of millions of one-word declarations, `(p)`, 4 bytes each, spent
    half its memory on them). A range with no such neighbour gets a span of its own, and is the anchor
    of those after it."""

    __slots__ = ("_latest", "source")

    def __init__(self, source: Source) -> None:
        self.source = source
        self._latest: dict[int, Span] = {}  # by length: the last anchor made

    @staticmethod
    def of(source: Source) -> Anchors:
        """`source`'s anchors (every parse of a text shares them)."""
        anchors = source.anchors
        if anchors is None:
            anchors = source.anchors = Anchors(source)
        assert isinstance(anchors, Anchors)
        return anchors

    def at(self, start: int, length: int) -> tuple[Span, int]:
        """(anchor, offset) of the range `start`..`start + length`."""
        latest = self._latest
        anchor = latest.get(length)
        if anchor is not None and 0 <= start - anchor.offset < 256:
            return anchor, start - anchor.offset
        if len(latest) >= 4096:  # as many lengths as that: long nodes, rarely alike
            latest.clear()
        anchor = latest[length] = new_span(self.source, start, length)
        return anchor, 0
