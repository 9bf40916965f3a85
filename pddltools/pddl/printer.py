"""Print the AST back as PDDL that reads well and parses to an equal tree.

`to_pddl(node)` writes any node; domains and problems come out one section and one declaration per
line, and a formula stays on one line when it fits in `WIDTH` columns, otherwise each part goes on a
line of its own, indented. Declarations keep their order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, get_args

from pddltools.comments import Comments, Item, active, keep
from pddltools.diagnostics import Diagnostic, Source
from pddltools.pddl import ast
from pddltools.pddl.exact_numbers import format_number
from pddltools.static_typing import assert_never
from pddltools.syntax.lexing import Trivia

WIDTH = 100
INDENT = "  "


def to_pddl(node: ast.Node) -> str:
    if isinstance(node, ast.Domain):
        return domain(node)
    if isinstance(node, ast.Problem):
        return problem(node)
    if isinstance(node, ast.Action | ast.DurativeAction | ast.DerivedPredicate | ast.Process | ast.Event):
        return _structure(node)
    return _pretty(node, 0)


# -------------------------------------------------------------------------------------------------
# One-line forms


def _typed(items: Iterable[ast.TypedName]) -> str:
    """`a b - t c - u d`: consecutive names of the same type share one `- type`."""
    parts: list[str] = []
    group: list[str] = []
    current: ast.TypeRef | None = None
    for item in items:
        if group and item.type != current:
            parts.append(_group(group, current))
            group = []
        group.append(item.name)
        current = item.type
    if group:
        parts.append(_group(group, current))
    return " ".join(parts)


def _group(names: list[str], type_: ast.TypeRef | None) -> str:
    return " ".join(names) if type_ is None else " ".join(names) + " - " + _type(type_)


def _type(t: ast.TypeRef) -> str:
    if isinstance(t, ast.Either):
        return "(either " + " ".join(x.name for x in t.types) + ")"
    return t.name


def _sexp(head: str, *parts: str) -> str:
    return "(" + " ".join((head, *parts)) + ")"


def _flat(node: Any) -> str:
    """The one-line form of a node."""
    return _FLAT[type(node)](node)


_FLAT: dict[type, Callable[[Any], str]] = {
    ast.Variable: lambda n: n.name,
    ast.Constant: lambda n: n.name,
    ast.Number: lambda n: format_number(n.value),
    ast.ContinuousTime: lambda n: "#t",
    ast.TypeName: lambda n: n.name,
    ast.Either: _type,
    ast.TypedName: lambda n: _typed([n]),
    ast.Requirement: lambda n: n.name,
    ast.FunctionTerm: lambda n: _sexp(n.function, *map(_flat, n.args)),
    ast.Atom: lambda n: _sexp(n.predicate, *map(_flat, n.args)),
    ast.Arithmetic: lambda n: _sexp(n.op, *map(_flat, n.args)),
    ast.IsViolated: lambda n: _sexp("is-violated", n.preference),
    ast.Not: lambda n: _sexp("not", _flat(n.body)),
    ast.And: lambda n: _sexp("and", *map(_flat, n.parts)),
    ast.Or: lambda n: _sexp("or", *map(_flat, n.parts)),
    ast.Imply: lambda n: _sexp("imply", _flat(n.condition), _flat(n.consequence)),
    ast.Exists: lambda n: _sexp("exists", "(" + _typed(n.variables) + ")", _flat(n.body)),
    ast.Forall: lambda n: _sexp("forall", "(" + _typed(n.variables) + ")", _flat(n.body)),
    ast.Comparison: lambda n: _sexp(n.op, _flat(n.left), _flat(n.right)),
    ast.Preference: lambda n: _sexp("preference", *([n.name] if n.name else []), _flat(n.body)),
    ast.Timed: lambda n: _sexp("over all" if n.time == "all" else "at " + n.time, _flat(n.body)),
    ast.Always: lambda n: _sexp("always", _flat(n.body)),
    ast.Sometime: lambda n: _sexp("sometime", _flat(n.body)),
    ast.Within: lambda n: _sexp("within", _flat(n.deadline), _flat(n.body)),
    ast.AtMostOnce: lambda n: _sexp("at-most-once", _flat(n.body)),
    ast.SometimeAfter: lambda n: _sexp("sometime-after", _flat(n.condition), _flat(n.consequence)),
    ast.SometimeBefore: lambda n: _sexp("sometime-before", _flat(n.condition), _flat(n.antecedent)),
    ast.AlwaysWithin: lambda n: _sexp("always-within", _flat(n.deadline), _flat(n.condition),
                                      _flat(n.consequence)),
    ast.HoldDuring: lambda n: _sexp("hold-during", _flat(n.start), _flat(n.end), _flat(n.body)),
    ast.HoldAfter: lambda n: _sexp("hold-after", _flat(n.time), _flat(n.body)),
    ast.AndEffect: lambda n: _sexp("and", *map(_flat, n.parts)),
    ast.ForallEffect: lambda n: _sexp("forall", "(" + _typed(n.variables) + ")", _flat(n.body)),
    ast.When: lambda n: _sexp("when", _flat(n.condition), _flat(n.body)),
    ast.Assign: lambda n: _sexp(n.op, _flat(n.fluent), _flat(n.value)),
    ast.InitAssignment: lambda n: _sexp("=", _flat(n.fluent), _flat(n.value)),
    ast.TimedInitial: lambda n: _sexp("at", _flat(n.time), _flat(n.body)),
    ast.Metric: lambda n: _sexp(":metric", n.direction, _flat(n.expression)),
    ast.Length: lambda n: _length(n),
    ast.PredicateDecl: lambda n: _sexp(n.name, _typed(n.parameters)) if n.parameters else f"({n.name})",
    ast.FunctionDecl: lambda n: _function_decl(n),
}


def _length(n: ast.Length) -> str:
    parts = [f"(:serial {n.serial})"] if n.serial is not None else []
    if n.parallel is not None:
        parts.append(f"(:parallel {n.parallel})")
    return "(:length" + "".join(" " + x for x in parts) + ")"


def _function_decl(n: ast.FunctionDecl) -> str:
    head = _sexp(n.name, _typed(n.parameters)) if n.parameters else f"({n.name})"
    return head if n.type is None else f"{head} - {_type(n.type)}"


#: The multi-line forms of the nodes a language built on PDDL adds (see `add_printer_rules`).
_LAYOUTS: dict[type, Callable[[Any], tuple[str, list[Any]]]] = {}


def add_printer_rules(node_type: type, one_line: Callable[[Any], str],
                      layout: Callable[[Any], tuple[str, list[Any]]] | None = None) -> None:
    """Teach the printer a node a language built on PDDL adds inside formulas or effects (HDDL's
    sortof, FOND's oneof): its one-line form, and the head and parts it is broken into when long."""
    _FLAT[node_type] = one_line
    if layout is not None:
        _LAYOUTS[node_type] = layout

# -------------------------------------------------------------------------------------------------
# Multi-line forms


def _layout(node: Any) -> tuple[str, list[Any]] | None:
    """The head and the parts a long node is broken into, one per line; None for leaves."""
    added = _LAYOUTS.get(type(node))
    if added is not None:
        return added(node)
    return _pddl_layout(node) if isinstance(node, _LAID_OUT) else None


def _pddl_layout(node: ast.Formula | ast.Effect | ast.Expression) -> tuple[str, list[Any]] | None:
    match node:
        case ast.And() | ast.AndEffect():
            return "and", list(node.parts)
        case ast.Or():
            return "or", list(node.parts)
        case ast.Not():
            return "not", [node.body]
        case ast.Imply():
            return "imply", [node.condition, node.consequence]
        case ast.Exists():
            return f"exists ({_typed(node.variables)})", [node.body]
        case ast.Forall() | ast.ForallEffect():
            return f"forall ({_typed(node.variables)})", [node.body]
        case ast.When():
            return "when", [node.condition, node.body]
        case ast.Preference():
            return "preference" + (f" {node.name}" if node.name else ""), [node.body]
        case ast.Timed():
            return ("over all" if node.time == "all" else f"at {node.time}"), [node.body]
        case ast.Always() | ast.Sometime() | ast.AtMostOnce():
            return _flat(node)[1:].split(" ", 1)[0], [node.body]
        case ast.Within():
            return f"within {_flat(node.deadline)}", [node.body]
        case ast.HoldAfter():
            return f"hold-after {_flat(node.time)}", [node.body]
        case ast.SometimeAfter():
            return "sometime-after", [node.condition, node.consequence]
        case ast.SometimeBefore():
            return "sometime-before", [node.condition, node.antecedent]
        case ast.AlwaysWithin():
            return f"always-within {_flat(node.deadline)}", [node.condition, node.consequence]
        case ast.HoldDuring():
            return f"hold-during {_flat(node.start)} {_flat(node.end)}", [node.body]
        case ast.Assign():
            return f"{node.op} {_flat(node.fluent)}", [node.value]
        case ast.Arithmetic():
            return node.op, list(node.args)
        case ast.Comparison():
            return node.op, [node.left, node.right]
        case (ast.Atom() | ast.Variable() | ast.Constant() | ast.FunctionTerm() | ast.Number() | ast.ContinuousTime()
              | ast.IsViolated()):
            return None  # leaves: printed on one line however long
        case _:
            assert_never(node)


#: The classes of PDDL's closed unions of formulas, effects and expressions (what `_pddl_layout` matches).
_LAID_OUT = (*get_args(ast.Formula), *get_args(ast.Effect), *get_args(ast.Expression))


def _pretty(node: Any, depth: int) -> str:
    flat = _flat(node)
    layout = _layout(node)
    if layout is None:
        return flat
    commented = _has(_span(node))
    if not commented and len(flat) + len(INDENT) * depth <= WIDTH:
        return flat
    head, parts = layout
    pad = INDENT * (depth + 1)
    items = [Item(_span(part), partial(_pretty, part, depth + 1)) for part in parts]
    comment = _head(items, _span(node))
    chunks = _lay(items, _span(node), pad)
    return f"({head}{comment}\n" + _close(chunks, INDENT * depth)


# -------------------------------------------------------------------------------------------------
# Comments (see `pddltools.comments`): without comments in force, the canonical layout


def ends_in_comment(line: str) -> bool:
    return ";" in line  # PDDL has no strings: a semicolon opens a comment


def _span(node: Any) -> tuple[int, int] | None:
    span = getattr(node, "span", None)
    return None if span is None else (span.start, span.end)


def _has(span: tuple[int, int] | None) -> bool:
    """Whether comments not yet printed lie in `span`: the node must be broken over lines to keep them."""
    comments = active()
    return comments is not None and span is not None and comments.inside(*span)


def _lay(items: Sequence[Item], region: tuple[int, int] | None, pad: str) -> list[str]:
    comments = active()
    if comments is None:
        return [pad + item.render() for item in items]
    return comments.lay_out(items, region, pad)


def _head(items: Sequence[Item], region: tuple[int, int] | None) -> str:
    """The comments on a container's first line, to keep there (see `Comments.head`)."""
    comments = active()
    return "" if comments is None else comments.head(items, region)


def _close(chunks: list[str], pad: str, closing: str = ")") -> str:
    comments = active()
    if comments is None:
        return "\n".join(chunks) + closing
    return comments.close(chunks, pad, closing)


def _around(first: Any, last: Any, head: int, tail: int) -> tuple[int, int] | None:
    """The source of the nodes `first` to `last` with `head` tokens before and `tail` after (a
    section's keyword and parentheses); None without comments in force or without spans."""
    comments = active()
    if comments is None or first.span is None or last.span is None:
        return None
    return comments.extend(first.span.start, last.span.end, head, tail)


def _keyword_start(node: Any) -> int | None:
    """Where the keyword before `node` starts (`:precondition`), for the author's blank lines."""
    comments = active()
    if comments is None or node.span is None:
        return None
    return comments.extend(node.span.start, node.span.end, 1)[0]


def slot(keyword: str, node: Any, depth: int) -> Item:
    """`:keyword <formula>`, one part of an action (or a task, a method)."""
    return Item(_span(node), lambda: f"{keyword} {_pretty(node, depth)}", _keyword_start(node))


# -------------------------------------------------------------------------------------------------
# Files


def _section(keyword: str, items: Sequence[Item], region: tuple[int, int] | None, depth: int = 1) -> str:
    if not items:
        return f"({keyword})"
    comment = _head(items, region)
    chunks = _lay(items, region, INDENT * (depth + 1))
    return f"({keyword}{comment}\n" + _close(chunks, INDENT * depth)


def _section_item(keyword: str, nodes: Sequence[Any], items: Sequence[Item]) -> Item:
    """A section of declarations, one item per line."""
    region = _around(nodes[0], nodes[-1], 2, 1) if nodes else None
    return Item(region, lambda: _section(keyword, items, region))


def _groups(items: Sequence[ast.TypedName]) -> list[list[ast.TypedName]]:
    """Consecutive names of one type, a group per line; a comment between two names ends a group."""
    comments = active()
    groups: list[list[ast.TypedName]] = []
    for item in items:
        if groups and item.type == groups[-1][-1].type and not _split(comments, groups[-1][-1], item):
            groups[-1].append(item)
        else:
            groups.append([item])
    return groups


def _split(comments: Comments | None, before: ast.TypedName, after: ast.TypedName) -> bool:
    if comments is None or before.span is None or after.span is None:
        return False
    return comments.inside(comments.token_end(before.span.start), after.span.start)


def _typed_lines(items: Sequence[ast.TypedName]) -> list[Item]:
    """One line per type group, so long object lists stay readable."""
    groups = _groups(items)
    out = []
    for index, group in enumerate(groups):
        region = _around(group[0], group[-1], 0, 0)
        following = groups[index + 1][0] if index + 1 < len(groups) else None
        comments = active()
        if region is not None and comments is not None and following is not None and following.type == group[-1].type:
            # split by a comment: the names' shared `- type` comes after the next group's names
            region = (region[0], comments.token_end(_start(group[-1])))
        out.append(Item(region, partial(_typed, group)))
    return out


def _start(node: Any) -> int:
    return node.span.start if node.span is not None else 0


def _typed_list(prefix: str, items: Sequence[ast.TypedName], depth: int) -> str:
    """`prefix(a b - t)`, or, with comments inside, a group per line."""
    region = _around(items[0], items[-1], 1, 1) if items else None
    if not _has(region):
        return f"{prefix}({_typed(items)})"
    lines = _typed_lines(items)
    comment = _head(lines, region)
    chunks = _lay(lines, region, INDENT * (depth + 1))
    return f"{prefix}({comment}\n" + _close(chunks, INDENT * depth)


def _requirements(requirements: Sequence[ast.Requirement]) -> Item:
    region = _around(requirements[0], requirements[-1], 2, 1)
    if not _has(region):
        return Item(region, lambda: "(:requirements " + " ".join(r.name for r in requirements) + ")")
    items = [Item(_span(r), partial(getattr, r, "name")) for r in requirements]
    return Item(region, lambda: _section(":requirements", items, region))


_KEYWORDS = {ast.Action: ":action", ast.DurativeAction: ":durative-action", ast.Process: ":process",
             ast.Event: ":event"}


def _structure(node: ast.Structure | ast.Process | ast.Event) -> str:
    pad = INDENT * 2
    if isinstance(node, ast.DerivedPredicate):
        body = [Item(_span(node.body), partial(_pretty, node.body, 2))]
        comment = _head(body, _span(node))
        chunks = _lay(body, _span(node), pad)
        return f"(:derived {_flat(node.predicate)}{comment}\n" + _close(chunks, INDENT)
    params = node.parameters
    items = [Item(_around(params[0], params[-1], 2, 1) if params else None,
                  partial(_typed_list, ":parameters ", params, 2))]
    if isinstance(node, ast.Action) and node.vars:
        items.append(Item(_around(node.vars[0], node.vars[-1], 2, 1), partial(_typed_list, ":vars ", node.vars, 2)))
    if not isinstance(node, ast.DurativeAction):
        parts: list[tuple[str, ast.Node | None]] = [(":precondition", node.precondition),
                                                   (":effect", node.effect)]
    else:
        parts = [(":duration", node.duration), (":condition", node.condition), (":effect", node.effect)]
    items.extend(slot(keyword, value, 2) for keyword, value in parts if value is not None)
    comment = _head(items, _span(node))
    chunks = _lay(items, _span(node), pad)
    return f"({_KEYWORDS[type(node)]} {node.name}{comment}\n" + _close(chunks, INDENT)


def structure_item(node: Any, render: Callable[[Any], str]) -> Item:
    return Item(_span(node), partial(render, node))


def _formula_section(keyword: str, node: Any) -> Item:
    """`(:goal <formula>)` and the like."""
    region = _around(node, node, 0, 1)
    first = _around(node, node, 2, 0)
    return Item(region, lambda: f"({keyword} " + _close([_pretty(node, 1)], INDENT), first[0] if first else None)


def _file(head: str, sections: list[Item], node: Any) -> str:
    head += _head(sections, _span(node))
    chunks = _lay(sections, _span(node), INDENT)
    if not chunks:
        return f"{head})\n"
    return f"{head}\n" + _close(chunks, "") + "\n"


def _items(parts: Sequence[Item | str]) -> list[Item]:
    """A language's own sections, as items: printed text (a dialect's printer) is an item of its own,
    placed where the layout puts it, with no comments of its own."""
    return [part if isinstance(part, Item) else Item(None, partial(str, part)) for part in parts]


def domain(d: ast.Domain, hierarchy: Sequence[Item | str] = ()) -> str:
    """`hierarchy`: sections of a language built on PDDL (HDDL's tasks and methods), printed before
    the actions."""
    sections: list[Item] = []
    if d.requirements:
        sections.append(_requirements(d.requirements))
    if d.types:
        sections.append(_section_item(":types", d.types, _typed_lines(d.types)))
    if d.constants:
        sections.append(_section_item(":constants", d.constants, _typed_lines(d.constants)))
    if d.predicates:
        sections.append(_section_item(":predicates", d.predicates,
                                      [Item(_span(p), partial(_flat, p)) for p in d.predicates]))
    if d.functions:
        sections.append(_section_item(":functions", d.functions,
                                      [Item(_span(f), partial(_flat, f)) for f in d.functions]))
    if d.constraints is not None:
        sections.append(_formula_section(":constraints", d.constraints))
    sections.extend(_items(hierarchy))
    sections.extend(structure_item(s, _structure) for s in d.structures)
    sections.extend(structure_item(s, _structure) for s in d.processes + d.events)
    return _file(f"(define (domain {d.name})", sections, d)


def problem(p: ast.Problem, hierarchy: Sequence[Item | str] = ()) -> str:
    """`hierarchy`: sections of a language built on PDDL (HDDL's :htn), printed before :init."""
    sections = [Item(None, lambda: f"(:domain {p.domain})")]
    if p.requirements:
        sections.append(_requirements(p.requirements))
    if p.objects:
        sections.append(_section_item(":objects", p.objects, _typed_lines(p.objects)))
    sections.extend(_items(hierarchy))
    if p.init:
        sections.append(_section_item(":init", p.init, [Item(_span(e), partial(_flat, e)) for e in p.init]))
    else:
        sections.append(Item(None, lambda: "(:init)"))
    if p.goal is not None:
        sections.append(_formula_section(":goal", p.goal))
    if p.constraints is not None:
        sections.append(_formula_section(":constraints", p.constraints))
    if p.metric is not None:
        metric = p.metric
        sections.append(Item(_span(metric), lambda: f"(:metric {metric.direction} {_pretty(metric.expression, 1)})"))
    if p.length is not None:
        length = p.length
        sections.append(Item(_span(length), lambda: _length(length)))
    return _file(f"(define (problem {p.name})", sections, p)


def format_source(node: ast.Node, source: Source, trivia: Trivia,
                  render: Callable[[Any], str] | None = None, before: Sequence[tuple[int, int]] = ()
                  ) -> tuple[str, list[Diagnostic]]:
    """`node` (parsed from `source`) printed with the comments and blank lines of `source` kept (see
    `pddltools.comments`), and a W121 warning for each comment that had to move. `before`: text the
    parser skipped before the node (an in-package form, see `prelude`), kept as it stands."""
    return keep(source, trivia, ends_in_comment, node, render or to_pddl, before)


# The pieces of the layout a language built on PDDL prints its own sections with.
flat, pretty, sexp, type_text, typed = _flat, _pretty, _sexp, _type, _typed
around, close, head_comment, keyword_start, lay, span, typed_list = (
    _around, _close, _head, _keyword_start, _lay, _span, _typed_list)
