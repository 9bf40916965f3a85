"""Print the HDDL tree back as HDDL that parses to an equal tree, laid out as PDDL's printer lays out
PDDL (the PDDL parts are printed by it): tasks and methods come after the declarations and before
the actions, the problem's :htn before :init."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pddltools.hddl import ast
from pddltools.pddl import ast as pddl
from pddltools.pddl import printer
from pddltools.pddl.printer import INDENT, add_printer_rules
from pddltools.pddl.printer import flat as _flat
from pddltools.pddl.printer import pretty as _pretty
from pddltools.pddl.printer import sexp as _sexp
from pddltools.pddl.printer import type_text as _type
from pddltools.pddl.printer import typed as _typed

# The constraint (sortof ?x - t) sits inside PDDL formulas (an `and`), which PDDL's printer walks:
# it learns this one node.
add_printer_rules(ast.SortOf, lambda n: f"(sortof {n.variable.name} - {_type(n.type)})")


def to_hddl(node: pddl.Node) -> str:
    return _PRINTERS.get(type(node), printer.to_pddl)(node)


def domain(d: ast.HTNDomain) -> str:
    return printer.domain(d.domain, [task(t) for t in d.tasks] + [method(m) for m in d.methods])


def problem(p: ast.HTNProblem) -> str:
    return printer.problem(p.problem, [htn(p.htn)] if p.htn is not None else [])


def task(t: ast.Task) -> str:
    head = f"(:task {t.name} :parameters ({_typed(t.parameters)})"
    if t.precondition is None and t.effect is None:
        return head + ")"
    pad = INDENT * 2
    lines = [head] + [f"{pad}{keyword} {_pretty(value, 2)}" for keyword, value in
                      ((":precondition", t.precondition), (":effect", t.effect)) if value is not None]
    return "\n".join(lines) + ")"


def subtask(s: ast.Subtask) -> str:
    call = _sexp(s.task, *map(_flat, s.args))
    return call if s.id is None else f"({s.id} {call})"


def method(m: ast.Method) -> str:
    pad = INDENT * 2
    lines = [f"(:method {m.name}", f"{pad}:parameters ({_typed(m.parameters)})",
             f"{pad}:task {to_hddl(m.task)}"]
    if m.precondition is not None:
        lines.append(f"{pad}:precondition {_pretty(m.precondition, 2)}")
    lines.extend(_network(m.network, 2))
    return "\n".join(lines) + ")"


def htn(h: ast.HTN) -> str:
    pad = INDENT * 2
    lines = ["(:htn"]
    if h.parameters:
        lines.append(f"{pad}:parameters ({_typed(h.parameters)})")
    lines.extend(_network(h.network, 2))
    return "\n".join(lines) + ")"


def _network(n: ast.TaskNetwork, depth: int) -> list[str]:
    """The lines of a network's keywords at `depth`: subtasks, ordering, constraints."""
    pad = INDENT * depth
    lines: list[str] = []
    keyword = ":ordered-subtasks" if n.ordered else ":subtasks"
    if n.subtasks or n.ordered:
        lines.append(f"{pad}{keyword} {_and([subtask(s) for s in n.subtasks], depth)}")
    if n.ordering:
        lines.append(f"{pad}:ordering {_and([to_hddl(o) for o in n.ordering], depth)}")
    if n.constraints is not None:
        lines.append(f"{pad}:constraints {_pretty(n.constraints, depth)}")
    if n.causal_links:
        links = [to_hddl(c) for c in n.causal_links]
        lines.append(f"{pad}:causallinks {_and(links, depth)}")
    return lines


def _and(items: list[str], depth: int) -> str:
    """`()`, the one item, or `(and ...)` with an item per line."""
    if not items:
        return "()"
    if len(items) == 1:
        return items[0]
    inner = INDENT * (depth + 1)
    return "(and\n" + "\n".join(inner + item for item in items) + ")"


_PRINTERS: dict[type, Callable[[Any], str]] = {
    ast.HTNDomain: domain, ast.HTNProblem: problem, ast.Task: task, ast.Method: method, ast.HTN: htn,
    ast.Subtask: subtask,
    ast.TaskNetwork: lambda n: "\n".join(_network(n, 0)),
    ast.TaskHead: lambda n: _sexp(n.name, *map(_flat, n.args)),
    ast.Ordering: lambda n: f"(< {n.before} {n.after})",
    ast.CausalLink: lambda n: f"({n.producer} {_flat(n.literal)} {n.consumer})",
}
