"""How the MA-PDDL nodes print: the printer's rules for its own nodes and the layout of its files.

Apart from `mapddl/dialect.py` (which registers the language, with its checks) so that a node prints
without importing the checker: the AST is below the checks (docs/architecture.md, "Floors").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from pddltools.comments import Item, active
from pddltools.mapddl.ast import ActionAgent, MADomain, MAProblem, PrivateFunctions, PrivateNames, PrivatePredicates
from pddltools.pddl import ast, printer
from pddltools.pddl.printer import INDENT, flat, typed


def _section(keyword: str, items: Sequence[Item], nodes: Sequence[Any], depth: int = 1) -> Item:
    """A section whose lines are `items` (a private group's own lines nested in it), over the source of
    `nodes` with its keyword and parentheses, so that the comments in it stay with their lines."""
    located = [n for n in nodes if n.span is not None]  # a node built by a pass has no place in the text
    region = None
    if located:
        first, last = min(located, key=lambda n: n.span.start), max(located, key=lambda n: n.span.end)
        region = printer.around(first, last, 2, 1)

    def render() -> str:
        if not items:
            return f"({keyword})"
        comment = printer.head_comment(items, region)
        chunks = printer.lay(items, region, INDENT * (depth + 1))
        return f"({keyword}{comment}\n" + printer.close(chunks, INDENT * depth)
    return Item(region, render)


def _runs(names: Sequence[ast.TypedName]) -> list[list[ast.TypedName]]:
    """Consecutive names of one type: a line each."""
    runs: list[list[ast.TypedName]] = []
    for name in names:
        if runs and name.type == runs[-1][-1].type:
            runs[-1].append(name)
        else:
            runs.append([name])
    return runs


def _names_item(names: Sequence[ast.TypedName]) -> Item:
    first, last = names[0].span, names[-1].span
    where = (first.start, last.end) if first is not None and last is not None else None
    return Item(where, partial(typed, names))


def _private_names(group: PrivateNames, depth: int) -> Item:
    inner = [_names_item(run) for run in _runs(group.names)]

    def render() -> str:
        region = printer.span(group)
        comments = active()
        head = "(:private" if group.agent is None else f"(:private {group.agent}"
        if len(inner) == 1 and (comments is None or region is None or not comments.inside(*region)):
            return f"{head} {typed(group.names)})"  # one line, as CoDMAP writes it
        comment = printer.head_comment(inner, region)
        chunks = printer.lay(inner, region, INDENT * (depth + 1))
        return f"{head}{comment}\n" + printer.close(chunks, INDENT * depth)
    return Item(printer.span(group), render)


def _typed_section(keyword: str, names: Sequence[ast.TypedName], groups: Sequence[PrivateNames]) -> Item | None:
    private = {n for g in groups for n in g.names}
    public = [n for n in names if n not in private]
    items = [_names_item(run) for run in _runs(public)] + [_private_names(g, 2) for g in groups]
    nodes = [*public, *groups]
    return _section(keyword, items, nodes) if items else None


def _private_predicates(group: PrivatePredicates) -> Item:
    inner = [Item(printer.span(p), partial(flat, p)) for p in group.predicates]

    def render() -> str:
        region = printer.span(group)
        comment = printer.head_comment(inner, region)
        chunks = printer.lay(inner, region, INDENT * 3)
        agent = group.agent
        head = "(:private" if agent is None else f"(:private {agent.name} - {printer.type_text(agent.type)}" \
            if agent.type else f"(:private {agent.name}"
        return f"{head}{comment}\n" + printer.close(chunks, INDENT * 2)
    return Item(printer.span(group), render)


def _private_functions(group: PrivateFunctions) -> Item:
    inner = [Item(printer.span(f), partial(flat, f)) for f in group.functions]

    def render() -> str:
        region = printer.span(group)
        comment = printer.head_comment(inner, region)
        chunks = printer.lay(inner, region, INDENT * 3)
        return f"(:private{comment}\n" + printer.close(chunks, INDENT * 2)
    return Item(printer.span(group), render)


def _agent_action(structure: ast.Action, agent: ActionAgent) -> str:
    text = printer.to_pddl(structure)
    head, rest = text.split("\n", 1)
    return f"{head}\n{INDENT * 2}:agent {agent.agent.name} - {flat(agent.agent.type)}\n{rest}"


def printed_domain(node: MADomain) -> str:
    """PDDL's layout, with the private groups in :constants and :predicates and each action's :agent;
    the author's comments stay with the lines they were at."""
    private = {p for g in node.private_predicates for p in g.predicates}
    public = [p for p in node.domain.predicates if p not in private]
    predicates = [Item(printer.span(p), partial(flat, p)) for p in public]
    predicates += [_private_predicates(g) for g in node.private_predicates]
    sections: list[Item] = []
    constants = _typed_section(":constants", node.domain.constants, node.private_constants)
    if constants is not None:
        sections.append(constants)
    sections.append(_section(":predicates", predicates, [*public, *node.private_predicates]))
    if node.domain.functions:
        hidden = {f for g in node.private_functions for f in g.functions}
        shown = [f for f in node.domain.functions if f not in hidden]
        functions = [Item(printer.span(f), partial(flat, f)) for f in shown]
        functions += [_private_functions(g) for g in node.private_functions]
        sections.append(_section(":functions", functions, [*shown, *node.private_functions]))
    agents = {a.action: a for a in node.agents}
    for structure in node.domain.structures:
        agent = agents.get(getattr(structure, "name", ""))
        if agent is not None and isinstance(structure, ast.Action):
            sections.append(Item(printer.span(structure), partial(_agent_action, structure, agent)))
        else:
            sections.append(printer.structure_item(structure, printer.to_pddl))
    inner = replace(node.domain, constants=(), predicates=(), functions=(), structures=())
    return printer.domain(inner, sections)


def printed_problem(node: MAProblem) -> str:
    objects = _typed_section(":objects", node.problem.objects, node.private_objects)
    return printer.problem(replace(node.problem, objects=()), [objects] if objects else [])
