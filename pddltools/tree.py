"""The one way every syntax tree of pddltools is walked and rebuilt: the base of the PDDL and RDDL nodes.

A node is a frozen, slotted dataclass whose `span` (where it came from) takes no part in equality or
hashing. Which of its fields can hold sub-nodes is read once per class from its type hints, so a new
node class needs no traversal code: `children()`, `walk()`, `rebuild()`, `map_children()` and
`substitute()` work on it at once. A field may hold a node, a tuple of nodes, or tuples nesting nodes
(RDDL's `< @x : e >` entries); sub-nodes are always listed and replaced in field order, which the
parsers keep equal to source order.

Binding is declared where it happens: a node that binds variables over its sub-nodes (a quantifier, a
`forall` effect, an action's parameters, an RDDL aggregation) says so through `binds()`, and the
node that stands for a variable answers `replacement()`; `substitute` needs nothing else, so every
pass substitutes with the same scoping rules.
"""

from __future__ import annotations

import functools
import gc
import operator
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import CodeType

from pddltools.diagnostics import Source, Span
from pddltools.syntax.frozen import compiled_span_getter, constructor_fields, fast_constructor, without_collector
from pddltools.syntax.frozen import new_span as _new_span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Generic, TypeVar

    N = TypeVar("N", bound="Tree[Any]")
    T = TypeVar("T", bound="Tree[Any]")
else:
    class Generic:
        """`Tree`'s generic base at run time: `Tree["Node"]` (a language's `class Node(Tree["Node"])`) is a
        `types.GenericAlias`, as `list[int]` is, whose class is `Tree`; typing's `Generic` would make every
        command import typing (start-up). The type checker sees typing's."""

        __slots__ = ()
        __class_getitem__ = classmethod(types.GenericAlias)

    N = T = None  # the type checker's variables; nothing reads them at run time


class _Positioned:
    """The slot of a node's offset from its anchor (see `Tree`): not a dataclass field, so that the
    fields, the constructor and equality are the node's own."""

    __slots__ = ("_offset",)


@dataclass(frozen=True, slots=True)
class Tree(_Positioned, Generic[N]):
    """A node of a syntax tree whose nodes are all `N`s (the language's own `Node` class).

    Its position, `span`, is kept in two slots: an anchor span (`_anchor`) and the node's offset from
    it (`_offset`, below 256); the node's span starts `_offset` characters after its anchor and is as
    long. A span given to the constructor (`span=`) is the anchor itself, at offset 0, and is what
    `span` returns; a parser shares one anchor among the nodes of a stretch of text (`syntax.frozen.
    Anchors`), so that the numerous nodes (declarations, atoms, terms) carry their position without a
    `Span` object of their own, which is made when asked for."""

    span: Span | None = field(default=None, compare=False, hash=False, repr=False, kw_only=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Nodes are immutable and acyclic: where the compiled module is built, their instances go
        # without the cycle collector's header (a 64-byte node becomes 48). A class still holding a
        # `__dict__` (the one `dataclass(slots=True)` replaces) is left as it is.
        super(Tree, cls).__init_subclass__(**kwargs)
        without_collector(cls)

    def children(self) -> Iterator[N]:
        """The direct sub-nodes, in source order."""
        return iter(self.child_list())

    def child_list(self) -> list[N]:
        out: list[Any] = []
        for name in _layout(type(self)).child_fields:
            _collect(getattr(self, name), out)
        return out

    def walk(self) -> Iterator[N]:
        """This node and every node below it, depth first, in source order (iteratively, so that a
        deeply nested formula does not reach Python's recursion limit)."""
        stack: list[Any] = [self]
        pop, extend = stack.pop, stack.extend
        while stack:
            node = pop()
            yield node
            below = node.child_list()
            if below:
                below.reverse()
                extend(below)

    def rebuild(self: T, children: Iterable[N]) -> T:
        """This node with its sub-nodes replaced, in the order `children()` lists them; every other
        field and the span are kept."""
        layout = _layout(type(self))
        given = iter(children)
        values = [_refill(getattr(self, name), given) if name in layout.child_set else getattr(self, name)
                  for name in layout.all_fields]
        if next(given, None) is not None:
            raise ValueError(f"too many children to rebuild a {type(self).__name__}")
        rebuilt: T = layout.make(*values)
        return rebuilt

    def map_children(self: T, function: Callable[[N], N]) -> T:
        """This node with `function` applied to each direct sub-node; the node itself when every
        sub-node comes back unchanged (so an unchanged tree is shared, not copied)."""
        below = self.child_list()
        if not below:
            return self
        mapped = [function(child) for child in below]
        if all(new is old for new, old in zip(mapped, below, strict=True)):
            return self
        return self.rebuild(mapped)

    def binds(self) -> frozenset[str]:
        """The variable names this node binds over all its sub-nodes (none, unless overridden)."""
        return frozenset()

    def replacement(self, mapping: Mapping[str, N]) -> N | None:
        """What `substitute` puts in this node's place, or None to look inside it; only the
        language's variable node overrides it."""
        return None


# The slot `span` holds the anchor: it is read and written as `_anchor`, and `span` becomes the
# position itself (the anchor moved by the offset). Setting `span` (the constructor, `__setstate__`,
# `dataclasses.replace`) sets the anchor at offset 0.
_anchor_slot = Tree.__dict__["span"]
_offset_slot = _Positioned.__dict__["_offset"]


def _span(node: Tree[Any]) -> Span | None:
    offset = _offset_slot.__get__(node)
    anchor: Span | None = _anchor_slot.__get__(node)
    if not offset or anchor is None:
        return anchor
    return _new_span(anchor, offset, anchor.length)


def _set_span(node: Tree[Any], span: Span | None) -> None:
    _anchor_slot.__set__(node, span)
    _offset_slot.__set__(node, 0)


setattr(Tree, "_anchor", _anchor_slot)  # noqa: B010  (not a name mypy may know: no node is built with it)
setattr(Tree, "span", property(compiled_span_getter(Tree, _anchor_slot, _offset_slot) or _span, _set_span,  # noqa: B010
                               doc="Where the node is in its source (None: made, not read)."))


def substitute(node: T, mapping: Mapping[str, Any]) -> T:
    """`node` with each free variable named in `mapping` replaced by its value; a binder hides the
    names it binds from everything below it (a quantified `?x` shadowing a parameter `?x` is kept).
    Untouched subtrees are shared, not copied; rebuilt nodes keep their spans.

    The node's class is kept except where `node` is itself a replaced variable: the mapping's values
    are terms of the variable's own place, so the result fits wherever `node` did."""
    if not mapping:
        return node
    result: T = _substitute(node, mapping)
    return result


def _substitute(node: Any, mapping: Mapping[str, Any]) -> Any:
    # The compiler's inner loop (quantifier expansion substitutes every case of every body): the
    # layout's flags stand in for the `replacement` and `binds` calls, and fields are rebuilt in place.
    layout = _LAYOUTS.get(type(node)) or _layout(type(node))
    if layout.variable:
        replaced = node.replacement(mapping)
        return node if replaced is None else replaced
    if not layout.child_fields:
        return node
    if layout.binder:
        bound = node.binds()
        if bound:
            mapping = {name: value for name, value in mapping.items() if name not in bound}
            if not mapping:
                return node
    changed = False
    values = []
    for name in layout.all_fields:
        value = getattr(node, name)
        if name in layout.child_set:
            new = _substitute_value(value, mapping)
            if new is not value:
                changed = True
                value = new
        values.append(value)
    return layout.make(*values) if changed else node


def _substitute_value(value: Any, mapping: Mapping[str, Any]) -> Any:
    if isinstance(value, Tree):
        return _substitute(value, mapping)
    if isinstance(value, tuple) and value:
        new = tuple([_substitute_value(item, mapping) for item in value])
        return value if all(a is b for a, b in zip(new, value, strict=True)) else new
    return value


def shift_spans(node: T, source: Source, delta: int) -> T:
    """`node` rebuilt with every span in it (its own and its sub-nodes') moved `delta` characters and
    onto `source`: what a tree parsed from one text needs when that text becomes part of another (a
    section of a document re-used after an edit above it). Spans are frozen and hashed by their
    place, so they are replaced, never changed."""
    if not gc.isenabled():  # a caller shifting many sections has paused it once for all
        shifted: T = _shifted(node, source, delta)
        return shifted
    with collection_paused():
        result: T = _shifted(node, source, delta)
    return result


def collection_paused() -> _CollectionPaused:
    """The cycle collector paused inside the block: rebuilding thousands of acyclic nodes at once
    would otherwise set off collections that walk every object of the process, for nothing."""
    return _CollectionPaused()


class _CollectionPaused:
    """`collection_paused`'s block. A class, not `contextlib.contextmanager`: every command imports this
    module, and `contextlib` is otherwise not imported by a `validate` run (about half a millisecond)."""

    def __enter__(self) -> None:
        self._collecting = gc.isenabled()
        gc.disable()

    def __exit__(self, *exception: object) -> None:
        if self._collecting:
            gc.enable()


def shift_span(span: Span, source: Source, delta: int) -> Span:
    """`span` moved `delta` characters and onto `source`."""
    return _new_span(source, span.start + delta, span.length)




def _shifted(node: Any, source: Source, delta: int) -> Any:
    return (_SHIFTERS.get(type(node)) or _shifter(type(node)))(node, source, delta)


def _shifted_value(value: Any, source: Source, delta: int) -> Any:
    shifter = _SHIFTERS.get(type(value))
    if shifter is not None:
        return shifter(value, source, delta)
    if isinstance(value, Tree):
        return _shifter(type(value))(value, source, delta)
    if isinstance(value, tuple) and value:
        get = _SHIFTERS.get
        return tuple([shifter(item, source, delta) if (shifter := get(type(item))) is not None
                      else _shifted_value(item, source, delta) for item in value])
    return value


_SHIFTERS: dict[type, Callable[[Any, Source, int], Any]] = {}


def _shifter(cls: type) -> Callable[[Any, Source, int], Any]:
    """`cls`'s shift, generated once: one constructor call with each field read directly, the child
    fields shifted and the span replaced. Per keystroke it runs on every node of every re-used
    section below the edit (tens of thousands on a large domain), where a generic loop over a
    field list costs twice as much."""
    layout = _layout(cls)
    arguments = []
    for index, name in enumerate(layout.all_fields):
        if index == layout.span_index or (index not in layout.child_indices and _is_position(cls, name)):
            # the node's anchor (its offset from it is kept), and any other position it keeps (a
            # problem's `domain_span`)
            arguments.append(f"None if (span := node.{name}) is None else new_span(source, (span.offset"
                             " if span.origin.__class__ is Source else span.start) + delta, span.length)")
        elif index not in layout.child_indices:
            arguments.append(f"node.{name}")
        else:
            arguments.append(_SHIFT_FIELD[_field_shape(cls, name)].format(f"node.{name}"))
    env: dict[str, Any] = {"make": layout.make, "new_span": _new_span, "shifted": _shifted_value,
                           "get": _SHIFTERS.get, "generate": _shifter, "Source": Source}
    exec(f"def shift(node, source, delta):\n    return make({', '.join(arguments)})\n", env)
    shift: Callable[[Any, Source, int], Any] = env["shift"]
    _SHIFTERS[cls] = shift
    return shift


# How a child field is shifted, by what its type says it holds: one node (or None), a tuple of nodes,
# or anything (looked at value by value). The first two skip a call per child and per empty tuple.
_SHIFT_FIELD = {
    "node": "(None if (v := {0}) is None else (get(type(v)) or generate(type(v)))(v, source, delta))",
    "nodes": "(tuple([(get(type(x)) or generate(type(x)))(x, source, delta) for x in v]) if (v := {0}) else v)",
    "any": "shifted({0}, source, delta)",
}


def _is_position(cls: type, name: str) -> bool:
    """Whether field `name` holds a span (or None) besides the node's own."""
    import typing  # the language server's shifts only (start-up)

    try:
        hint = typing.get_type_hints(cls)[name]
    except (NameError, TypeError, KeyError):
        return False
    return Span in (typing.get_args(hint) or (hint,))


def _field_shape(cls: type, name: str) -> str:
    import typing  # the language server's shifts only (start-up)

    try:
        hint = typing.get_type_hints(cls)[name]
    except (NameError, TypeError, KeyError):
        return "any"
    if typing.get_origin(hint) is tuple:
        items = typing.get_args(hint)
        return "nodes" if len(items) == 2 and items[1] is Ellipsis and _only_nodes(items[0]) else "any"
    return "node" if _only_nodes(hint) else "any"


def _only_nodes(hint: Any) -> bool:
    """Whether `hint` is a node class, or a union of node classes and None."""
    import typing  # the language server's shifts only (start-up)

    options = typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    return all(option is type(None) or (isinstance(option, type) and issubclass(option, Tree))
               for option in options)


# ------------------------------------------------------------------------------------------------
# The per-class layout, read once: `dataclasses.fields` and type hints are too slow to read per node.


@dataclass(frozen=True, slots=True)
class _Layout:
    all_fields: tuple[str, ...]  # the constructor's positional order (`frozen.constructor_fields`)
    child_fields: tuple[str, ...]  # those whose type mentions a node class
    child_set: frozenset[str]
    make: Callable[..., Any]
    variable: bool  # stands for a variable: overrides `replacement`
    binder: bool  # may bind variables: overrides `binds` (or PDDL's `bound_variables`)
    values: Callable[[Any], tuple[Any, ...]]  # every field's value, in `all_fields` order, at once
    child_indices: tuple[int, ...]  # where the child fields are in `all_fields`
    span_index: int


_LAYOUTS: dict[type, _Layout] = {}


def _layout(cls: type) -> _Layout:
    layout = _LAYOUTS.get(cls)
    if layout is None:
        names = constructor_fields(cls)  # the anchor first, the offset last
        hints = _type_hints(cls)
        children = tuple(name for name in names if name not in ("_anchor", "_offset") and _may_hold_node(hints, name))
        below_root = cls.__mro__[:cls.__mro__.index(Tree) - 1]  # the classes under the language's Node
        variable = any("replacement" in vars(k) for k in below_root)
        binder = any(hook in vars(k) for k in below_root for hook in ("binds", "bound_variables"))
        getter = operator.attrgetter(*names)
        values = getter if len(names) > 1 else (lambda node: (getter(node),))
        layout = _Layout(names, children, frozenset(children), fast_constructor(cls), variable, binder, values,
                         tuple(names.index(name) for name in children), names.index("_anchor"))
        _LAYOUTS[cls] = layout
    return layout


def _type_hints(cls: type) -> dict[str, Any] | None:
    """The class's resolved type hints (once per class: resolving them evaluates every annotation), or
    None where they cannot be resolved."""
    try:
        return _evaluated_hints(cls)
    except Exception:  # an annotation read here does not (`_Unread`), or an error: typing says
        pass
    import typing  # a class whose hints are more than classes and their unions (start-up: not otherwise)

    try:
        return typing.get_type_hints(cls)
    except (NameError, TypeError):
        return None


class _Unread(Exception):
    """An annotation `_evaluated_hints` leaves to `typing.get_type_hints`."""


def _evaluated_hints(cls: type) -> dict[str, Any]:
    """What `typing.get_type_hints(cls)` returns for a class whose annotations are texts (`from __future__
    import annotations`) of types that hold no text of their own: each text evaluated as it does (in the
    class's namespace over its module's, its compiled expression kept per text, then checked as typing
    checks it, `_checked`), without its `ForwardRef` for each, which costs a fresh process about 0.1 ms per
    class. Anything else (a text in a subscript, `Annotated`, an annotation not a text) raises `_Unread`."""
    hints: dict[str, Any] = {}
    for base in reversed(cls.__mro__):
        annotations = base.__dict__.get("__annotations__", {})  # noqa: RUF063  # as typing reads them
        if not annotations:
            continue
        if not isinstance(annotations, dict):
            raise _Unread
        # get_type_hints' namespaces for a class: its own first, as globals, over its module's
        local = getattr(sys.modules.get(base.__module__, None), "__dict__", {})
        namespace = dict(vars(base))
        for name, text in annotations.items():
            if not isinstance(text, str) or text.startswith("*"):
                raise _Unread
            hints[name] = _checked(eval(_hint_code(text), namespace, local))  # as typing does
    return hints


@functools.cache
def _hint_code(text: str) -> CodeType:
    return compile(text, "<string>", "eval")


def _checked(value: Any) -> Any:
    """An annotation's evaluated text as `get_type_hints` returns it, or `_Unread`. Where typing is not
    imported, no annotation can hold a construct of its: a class, None, and unions and subscripts of
    those are read here (the nodes of a command's run, which imports no typing); anything else is left to
    typing. Where it is imported, its own check (`_type_check`, Python 3.11's) reads its constructs too."""
    typing: Any = sys.modules.get("typing")
    check = getattr(typing, "_type_check", None)
    if check is None:
        if value is None:
            return type(None)
        _check_builtin(value)
        return value
    value = check(value, "Forward references must evaluate to types.", is_argument=False, allow_special_forms=True)
    _check_plain(value, typing)
    return value


def _check_builtin(hint: Any) -> None:
    """Raise `_Unread` unless `hint` is a class, or a union or subscript (`tuple[...]`) of classes, None,
    `...` and those: what `get_type_hints` leaves as it is."""
    if isinstance(hint, types.UnionType | types.GenericAlias):
        for argument in hint.__args__:
            if argument is not None and argument is not Ellipsis:
                _check_builtin(argument)
    elif not isinstance(hint, type) or hint.__module__ == "typing":  # (typing's `Generic`: its check refuses it)
        raise _Unread


def _check_plain(hint: Any, typing: Any) -> None:
    """Raise `_Unread` where `get_type_hints` would change `hint` further (a text or forward reference
    in it, which it evaluates; `Annotated` and the like, which it strips)."""
    if isinstance(hint, str | typing.ForwardRef):
        raise _Unread
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return  # its arguments are values, texts among them, which typing leaves as they are
    if origin is not None and origin in (typing.Annotated, typing.Required, typing.NotRequired):
        raise _Unread
    for argument in typing.get_args(hint):
        _check_plain(argument, typing)


def _may_hold_node(hints: dict[str, Any] | None, name: str) -> bool:
    """Whether the declared type of field `name` mentions a `Tree` class (a field of type `str` or
    `tuple[str, ...]` never holds one). Where the hints cannot be resolved, every field is looked at."""
    if hints is None or name not in hints:
        return True
    return _mentions_tree(hints[name])


def _mentions_tree(hint: Any) -> bool:
    if isinstance(hint, type) and issubclass(hint, Tree):
        return True
    if isinstance(hint, types.UnionType | types.GenericAlias):
        return any(_mentions_tree(arg) for arg in hint.__args__)
    typing = sys.modules.get("typing")  # anything else that has arguments is typing's (imported, then)
    return typing is not None and any(_mentions_tree(arg) for arg in typing.get_args(hint))


def _collect(value: Any, out: list[Any]) -> None:
    if isinstance(value, Tree):
        out.append(value)
    elif isinstance(value, tuple):
        for item in value:
            if isinstance(item, Tree):
                out.append(item)
            elif isinstance(item, tuple):
                _collect(item, out)


def _refill(value: Any, given: Iterator[Any]) -> Any:
    """`value` (a field's content) with each node in it taken from `given`, in order."""
    if isinstance(value, Tree):
        replacement = next(given, None)
        if replacement is None:
            raise ValueError("too few children to rebuild the node")
        return replacement
    if isinstance(value, tuple) and any(isinstance(item, Tree | tuple) for item in value):
        return tuple(_refill(item, given) for item in value)
    return value
