"""How the MA-PDDL nodes print: the printer's rules for its own nodes and the layout of its files.

Apart from `mapddl/dialect.py` (which registers the language, with its checks) so that a node prints
without importing the checker: the AST is below the checks (docs/architecture.md, "Floors").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pddltools.mapddl.ast import MADomain, MAProblem, PrivateNames
from pddltools.pddl import ast, printer
from pddltools.pddl.printer import INDENT, flat, typed


def _section(keyword: str, lines: Sequence[str]) -> str:
    pad = INDENT * 2
    return f"({keyword}\n" + "\n".join(pad + line for line in lines) + ")" if lines else f"({keyword})"


def _typed_section(keyword: str, names: Sequence[ast.TypedName], groups: Sequence[PrivateNames]) -> str | None:
    private = {n for g in groups for n in g.names}
    public = [n for n in names if n not in private]
    lines = ([typed(public)] if public else []) + [f"(:private {g.agent} {typed(g.names)})" for g in groups]
    return _section(keyword, lines) if lines else None


def printed_domain(node: MADomain) -> str:
    """PDDL's layout, with the private groups in :constants and :predicates and each action's :agent."""
    private = {p for g in node.private_predicates for p in g.predicates}
    predicates = [flat(p) for p in node.domain.predicates if p not in private]
    predicates += [f"(:private {g.agent.name} - {flat(g.agent.type)} " + " ".join(map(flat, g.predicates)) + ")"
                   for g in node.private_predicates]
    sections = [s for s in (_typed_section(":constants", node.domain.constants, node.private_constants),) if s]
    sections.append(_section(":predicates", predicates))
    agents = {a.action: a.agent for a in node.agents}
    for structure in node.domain.structures:
        text = printer.to_pddl(structure)
        agent = agents.get(getattr(structure, "name", ""))
        if agent is not None and isinstance(structure, ast.Action):
            head, rest = text.split("\n", 1)
            text = f"{head}\n{INDENT * 2}:agent {agent.name} - {flat(agent.type)}\n{rest}"
        sections.append(text)
    inner = replace(node.domain, constants=(), predicates=(), structures=())
    return printer.domain(inner, sections)


def printed_problem(node: MAProblem) -> str:
    objects = _typed_section(":objects", node.problem.objects, node.private_objects)
    return printer.problem(replace(node.problem, objects=()), [objects] if objects else [])
