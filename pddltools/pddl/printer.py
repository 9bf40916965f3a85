"""Print the AST back as PDDL that reads well and parses to an equal tree.

`to_pddl(node)` writes any node; domains and problems come out one section and one declaration per
line, and a formula stays on one line when it fits in `WIDTH` columns, otherwise each part goes on a
line of its own, indented. Declarations keep their order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pddltools.pddl import ast
from pddltools.pddl.exact_numbers import format_number

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
    if isinstance(node, ast.And | ast.Or | ast.AndEffect):
        return "and" if not isinstance(node, ast.Or) else "or", list(node.parts)
    if isinstance(node, ast.Not):
        return "not", [node.body]
    if isinstance(node, ast.Imply):
        return "imply", [node.condition, node.consequence]
    if isinstance(node, ast.Exists | ast.Forall | ast.ForallEffect):
        head = "exists" if isinstance(node, ast.Exists) else "forall"
        return f"{head} ({_typed(node.variables)})", [node.body]
    if isinstance(node, ast.When):
        return "when", [node.condition, node.body]
    if isinstance(node, ast.Preference):
        return "preference" + (f" {node.name}" if node.name else ""), [node.body]
    if isinstance(node, ast.Timed):
        return ("over all" if node.time == "all" else f"at {node.time}"), [node.body]
    if isinstance(node, ast.Always | ast.Sometime | ast.AtMostOnce):
        return _flat(node)[1:].split(" ", 1)[0], [node.body]
    if isinstance(node, ast.Within | ast.HoldAfter):
        number = node.deadline if isinstance(node, ast.Within) else node.time
        return f"{'within' if isinstance(node, ast.Within) else 'hold-after'} {_flat(number)}", [node.body]
    if isinstance(node, ast.SometimeAfter):
        return "sometime-after", [node.condition, node.consequence]
    if isinstance(node, ast.SometimeBefore):
        return "sometime-before", [node.condition, node.antecedent]
    if isinstance(node, ast.AlwaysWithin):
        return f"always-within {_flat(node.deadline)}", [node.condition, node.consequence]
    if isinstance(node, ast.HoldDuring):
        return f"hold-during {_flat(node.start)} {_flat(node.end)}", [node.body]
    if isinstance(node, ast.Assign):
        return f"{node.op} {_flat(node.fluent)}", [node.value]
    if isinstance(node, ast.Arithmetic):
        return node.op, list(node.args)
    if isinstance(node, ast.Comparison):
        return node.op, [node.left, node.right]
    return None


def _pretty(node: Any, depth: int) -> str:
    flat = _flat(node)
    layout = _layout(node)
    if layout is None or len(flat) + len(INDENT) * depth <= WIDTH:
        return flat
    head, parts = layout
    pad = INDENT * (depth + 1)
    lines = [f"({head}"] + [pad + _pretty(part, depth + 1) for part in parts]
    return "\n".join(lines) + ")"


# -------------------------------------------------------------------------------------------------
# Files


def _section(keyword: str, items: list[str], depth: int = 1) -> str:
    if not items:
        return f"({keyword})"
    pad = INDENT * (depth + 1)
    return f"({keyword}\n" + "\n".join(pad + item for item in items) + ")"


def _typed_lines(items: tuple[ast.TypedName, ...]) -> list[str]:
    """One line per type group, so long object lists stay readable."""
    lines: list[str] = []
    group: list[ast.TypedName] = []
    for item in items:
        if group and item.type != group[-1].type:
            lines.append(_typed(group))
            group = []
        group.append(item)
    if group:
        lines.append(_typed(group))
    return lines


_KEYWORDS = {ast.Action: ":action", ast.DurativeAction: ":durative-action", ast.Process: ":process",
             ast.Event: ":event"}


def _structure(node: ast.Structure | ast.Process | ast.Event) -> str:
    pad = INDENT * 2
    if isinstance(node, ast.DerivedPredicate):
        return f"(:derived {_flat(node.predicate)}\n{pad}{_pretty(node.body, 2)})"
    lines = [f"({_KEYWORDS[type(node)]} {node.name}", f"{pad}:parameters ({_typed(node.parameters)})"]
    if isinstance(node, ast.Action) and node.vars:
        lines.append(f"{pad}:vars ({_typed(node.vars)})")
    if not isinstance(node, ast.DurativeAction):
        parts: list[tuple[str, ast.Node | None]] = [(":precondition", node.precondition),
                                                   (":effect", node.effect)]
    else:
        parts = [(":duration", node.duration), (":condition", node.condition), (":effect", node.effect)]
    for keyword, value in parts:
        if value is not None:
            lines.append(f"{pad}{keyword} {_pretty(value, 2)}")
    return "\n".join(lines) + ")"


def domain(d: ast.Domain, hierarchy: Sequence[str] = ()) -> str:
    """`hierarchy`: sections of a language built on PDDL (HDDL's tasks and methods), printed before
    the actions."""
    sections: list[str] = []
    if d.requirements:
        sections.append("(:requirements " + " ".join(r.name for r in d.requirements) + ")")
    if d.types:
        sections.append(_section(":types", _typed_lines(d.types)))
    if d.constants:
        sections.append(_section(":constants", _typed_lines(d.constants)))
    if d.predicates:
        sections.append(_section(":predicates", [_flat(p) for p in d.predicates]))
    if d.functions:
        sections.append(_section(":functions", [_flat(f) for f in d.functions]))
    if d.constraints is not None:
        sections.append(f"(:constraints {_pretty(d.constraints, 1)})")
    sections.extend(hierarchy)
    sections.extend(_structure(s) for s in d.structures)
    sections.extend(_structure(s) for s in d.processes + d.events)
    if not sections:
        return f"(define (domain {d.name}))\n"
    body = "\n".join(INDENT + s for s in sections)
    return f"(define (domain {d.name})\n{body})\n"


def problem(p: ast.Problem, hierarchy: Sequence[str] = ()) -> str:
    """`hierarchy`: sections of a language built on PDDL (HDDL's :htn), printed before :init."""
    sections = [f"(:domain {p.domain})"]
    if p.requirements:
        sections.append("(:requirements " + " ".join(r.name for r in p.requirements) + ")")
    if p.objects:
        sections.append(_section(":objects", _typed_lines(p.objects)))
    sections.extend(hierarchy)
    if p.init:
        sections.append(_section(":init", [_flat(e) for e in p.init]))
    else:
        sections.append("(:init)")
    if p.goal is not None:
        sections.append(f"(:goal {_pretty(p.goal, 1)})")
    if p.constraints is not None:
        sections.append(f"(:constraints {_pretty(p.constraints, 1)})")
    if p.metric is not None:
        sections.append(f"(:metric {p.metric.direction} {_pretty(p.metric.expression, 1)})")
    if p.length is not None:
        sections.append(_length(p.length))
    body = "\n".join(INDENT + s for s in sections)
    return f"(define (problem {p.name})\n{body})\n"


# The pieces of the layout a language built on PDDL prints its own sections with.
flat, pretty, sexp, type_text, typed = _flat, _pretty, _sexp, _type, _typed
