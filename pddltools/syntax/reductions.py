"""Reductions without Lark's callback wrappers: what each rule's callback gets, read off the wrappers.

Lark wraps a transformer's method in wrappers that depend only on the rule (`lark.parse_tree_builder`):
a child filter (drop anonymous tokens, insert None for an empty `[x]` with maybe_placeholders, splice
in the children of an inlined `_rule`, such as the `__x_star_N` rules Lark makes for `x*`) and, for
`?rule`, a single-child check. Each wrapper is a Python call per reduction, and an inlined `_rule` is
also a `Tree` built only to be taken apart by its parent. `direct_reductions` reads each rule's
wrappers once into a plan that the LALR loops (`lalr.FastParser` and the compiled `Driver`) carry out
themselves:

- `callback`: the transformer's own method; None when the one kept child is the value (`?rule: x`);
  `LIST` when the value is the kept children as a list (an inlined `_rule` with no method of its own,
  which its parent splices in);
- `keep`: None for "all children, in order", else a tuple of picks: `i >= 0` child i, `-1` None (an
  empty `[x]`), `-(i + 2)` the items of child i, a `LIST` value spliced in.

The result is the same values Lark's callbacks build; `tests/syntax` runs both loops against Lark's.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from lark import Lark

    Plan = tuple[Any, tuple[int, ...] | None]


class _List:
    def __repr__(self) -> str:
        return "LIST"


#: The `callback` of a rule whose value is the list of its kept children.
LIST: Any = _List()


def direct_reductions(lark: Lark, callbacks: dict[Any, Any]) -> dict[Any, Plan]:
    """Each rule's plan, from `callbacks` (Lark's, by rule); where any rule's wrappers are not ones
    this module knows, every rule keeps Lark's callback (`keep` None): `LIST` values would otherwise
    reach a Lark wrapper that expects a `Tree`."""
    transformer = lark.options.transformer
    plans = {}
    for rule, callback in callbacks.items():
        plan = _plan(rule, callback, transformer)
        if plan is None:
            return {rule: (callback, None) for rule, callback in callbacks.items()}
        plans[rule] = plan
    return plans


def _plan(rule: Any, callback: Any, transformer: object) -> Plan | None:
    # Lark is imported by whoever built the callbacks; the driver's run-time (`image.bind`) never comes here
    from lark.parse_tree_builder import ChildFilterLALR, ChildFilterLALR_NoPlaceholders, ExpandSingleChild

    f, keep = callback, None
    size = len(rule.expansion)
    if type(f) is ChildFilterLALR_NoPlaceholders:
        keep = [-(i + 2) if expand else i for i, expand in f.to_include]
        f = f.node_builder
    elif type(f) is ChildFilterLALR:
        keep = []
        for i, expand, nones in f.to_include:
            keep += [-1] * nones + [-(i + 2) if expand else i]
        keep += [-1] * f.append_none
        f = f.node_builder
    name = rule.alias or rule.options.template_source or rule.origin.name
    if type(f) is ExpandSingleChild:  # the one child is the value, else the method is called
        f = f.node_builder
        if (keep is None and size == 1) or (keep is not None and len(keep) == 1 and keep[0] >= -1):
            f = None
        elif keep is not None and any(k < -1 for k in keep):
            return None  # how many children there are depends on the values: not read off the rule
    elif name.startswith("_") and getattr(transformer, name, None) is None:
        f = LIST  # Lark would build a Tree for the parent to splice in
    if isinstance(f, ChildFilterLALR | ChildFilterLALR_NoPlaceholders | ExpandSingleChild):
        return None
    if keep == list(range(size)):
        keep = None
    return f, None if keep is None else tuple(keep)


def pick(children: list[Any], keep: tuple[int, ...]) -> list[Any]:
    """The children a plan's callback gets (the Python loop's; the compiled one does the same)."""
    out: list[Any] = []
    for k in keep:
        if k >= 0:
            out.append(children[k])
        elif k == -1:
            out.append(None)
        elif out:
            out += children[-k - 2]
        else:  # the first item, as a left-recursive `x*` has it: extend that list, not a copy of it
            out = children[-k - 2]
    return out
