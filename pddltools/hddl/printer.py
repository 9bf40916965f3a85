"""Print the HDDL tree back as HDDL that parses to an equal tree, laid out as PDDL's printer lays out
PDDL (the PDDL parts are printed by it): tasks and methods come after the declarations and before
the actions, the problem's :htn before :init."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from pddltools.comments import Item
from pddltools.diagnostics import Diagnostic, Source
from pddltools.hddl import ast
from pddltools.pddl import ast as pddl
from pddltools.pddl import printer
from pddltools.pddl.printer import INDENT, add_printer_rules, slot, structure_item
from pddltools.pddl.printer import around as _around
from pddltools.pddl.printer import close as _close
from pddltools.pddl.printer import flat as _flat
from pddltools.pddl.printer import head_comment as _head
from pddltools.pddl.printer import keyword_start as _keyword_start
from pddltools.pddl.printer import lay as _lay
from pddltools.pddl.printer import sexp as _sexp
from pddltools.pddl.printer import span as _span
from pddltools.pddl.printer import type_text as _type
from pddltools.pddl.printer import typed_list as _typed_list
from pddltools.syntax.lexing import Trivia

# The constraint (sortof ?x - t) sits inside PDDL formulas (an `and`), which PDDL's printer walks:
# it learns this one node.
add_printer_rules(ast.SortOf, lambda n: f"(sortof {n.variable.name} - {_type(n.type)})")


def to_hddl(node: pddl.Node) -> str:
    return _PRINTERS.get(type(node), printer.to_pddl)(node)


def domain(d: ast.HTNDomain) -> str:
    return printer.domain(d.domain, [structure_item(t, task) for t in d.tasks]
                          + [structure_item(m, method) for m in d.methods])


def problem(p: ast.HTNProblem) -> str:
    return printer.problem(p.problem, [structure_item(p.htn, htn)] if p.htn is not None else [])


def task(t: ast.Task) -> str:
    head = f"(:task {t.name} " + _typed_list(":parameters ", t.parameters, 2)
    items = [slot(keyword, value, 2) for keyword, value in
             ((":precondition", t.precondition), (":effect", t.effect)) if value is not None]
    chunks = _lay(items, _span(t), INDENT * 2)
    if not chunks:
        return head + ")"
    return head + "\n" + _close(chunks, INDENT)


def subtask(s: ast.Subtask) -> str:
    call = _sexp(s.task, *map(_flat, s.args))
    return call if s.id is None else f"({s.id} {call})"


def _parameters(parameters: tuple[pddl.TypedName, ...], depth: int) -> Item:
    region = _around(parameters[0], parameters[-1], 2, 1) if parameters else None
    return Item(region, partial(_typed_list, ":parameters ", parameters, depth))


def method(m: ast.Method) -> str:
    items = [_parameters(m.parameters, 2), Item(_span(m.task), lambda: f":task {to_hddl(m.task)}",
                                                _keyword_start(m.task))]
    if m.precondition is not None:
        items.append(slot(":precondition", m.precondition, 2))
    items.extend(_network(m.network, 2))
    comment = _head(items, _span(m))
    return f"(:method {m.name}{comment}\n" + _close(_lay(items, _span(m), INDENT * 2), INDENT)


def htn(h: ast.HTN) -> str:
    items = [_parameters(h.parameters, 2)] if h.parameters else []
    items.extend(_network(h.network, 2))
    comment = _head(items, _span(h))
    chunks = _lay(items, _span(h), INDENT * 2)
    if not chunks:
        return f"(:htn){comment}"
    return f"(:htn{comment}\n" + _close(chunks, INDENT)


def _network(n: ast.TaskNetwork, depth: int) -> list[Item]:
    """The items of a network's keywords at `depth`: subtasks, ordering, constraints."""
    items: list[Item] = []
    keyword = ":ordered-subtasks" if n.ordered else ":subtasks"
    if n.subtasks or n.ordered:
        items.append(_listed(keyword, n.subtasks, subtask, depth))
    if n.ordering:
        items.append(_listed(":ordering", n.ordering, to_hddl, depth))
    if n.constraints is not None:
        items.append(slot(":constraints", n.constraints, depth))
    if n.causal_links:
        items.append(_listed(":causallinks", n.causal_links, to_hddl, depth))
    return items


def _listed(keyword: str, nodes: tuple[Any, ...], render: Callable[[Any], str], depth: int) -> Item:
    """`:keyword` and its nodes as `()`, the one node, or `(and ...)` with a node per line."""
    region = _around(nodes[0], nodes[-1], 0, 0) if nodes else None
    first = _keyword_start(nodes[0]) if nodes else None
    items = [Item(_span(node), partial(render, node)) for node in nodes]
    return Item(region, lambda: f"{keyword} {_and(items, region, depth)}", first)


def _and(items: list[Item], region: tuple[int, int] | None, depth: int) -> str:
    """`()`, the one item, or `(and ...)` with an item per line."""
    if not items:
        return "()"
    if len(items) == 1:  # its comments, if any, go before the keyword
        return items[0].render()
    chunks = _lay(items, region, INDENT * (depth + 1))
    return "(and\n" + _close(chunks, INDENT * depth)


def format_source(node: ast.HTNDomain | ast.HTNProblem, source: Source, trivia: Trivia,
                  before: Sequence[tuple[int, int]] = ()) -> tuple[str, list[Diagnostic]]:
    """`node` printed with the comments and blank lines of `source` kept: see `printer.format_source`."""
    return printer.format_source(node, source, trivia, to_hddl, before)


_PRINTERS: dict[type, Callable[[Any], str]] = {
    ast.HTNDomain: domain, ast.HTNProblem: problem, ast.Task: task, ast.Method: method, ast.HTN: htn,
    ast.Subtask: subtask,
    ast.TaskNetwork: lambda n: "\n".join(item.render() for item in _network(n, 0)),
    ast.TaskHead: lambda n: _sexp(n.name, *map(_flat, n.args)),
    ast.Ordering: lambda n: f"(< {n.before} {n.after})",
    ast.CausalLink: lambda n: f"({n.producer} {_flat(n.literal)} {n.consumer})",
}
