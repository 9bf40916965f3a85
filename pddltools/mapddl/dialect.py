"""MA-PDDL in the language registry: the grammar (`grammars/mapddl.lark`: PDDL plus `:agent`, private
predicates and private objects), its nodes and builder, its printer, checks (E931) and CoDMAP-2015's
tracks.

PDDL's checker reads a multi-agent task through its centralised reading (CoDMAP's): each action's agent
is its first parameter, private predicates and objects are declared as public ones, and an action named
as an atom (Kovacs's concurrency constraints) is a predicate over the action's agent and parameters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from pddltools.check.codes import finding
from pddltools.check.features import Feature
from pddltools.check.tracks import ADL
from pddltools.comments import Item, active
from pddltools.diagnostics import Diagnostic
from pddltools.dialects import dialect
from pddltools.dialects.extension import Rules, dialect_track, implementation
from pddltools.dialects.pddl import summary as pddl_summary
from pddltools.mapddl.ast import ActionAgent, MADomain, MAProblem, PrivateNames, PrivatePredicates
from pddltools.pddl import ast, printer
from pddltools.pddl.parser import Builder, GrammarPathLexer, PDDLLexer, assemble_domain, assemble_problem
from pddltools.pddl.printer import INDENT, flat, typed

F = Feature


@dataclass(frozen=True)
class _AgentAction:
    action: ast.Action
    agent: ActionAgent


def _split(value: Sequence[Any], kind: type) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(the public items, the private groups) of a section's value."""
    return tuple(v for v in value if not isinstance(v, kind)), tuple(v for v in value if isinstance(v, kind))


class MABuilder(Builder):
    """PDDL's builder, with the callbacks of the rules mapddl.lark adds."""

    def agent(self, c: list[Any]) -> ast.TypedName:
        return ast.TypedName(c[0].value, c[1], span=self._span(c[0], c[0]))

    def agent_action(self, c: list[Any]) -> _AgentAction:
        action = self.action([c[0], c[1], c[3], c[4], c[5], c[6], c[-1]])
        return _AgentAction(action, ActionAgent(action.name, c[2], span=c[2].span))

    def private_predicates(self, c: list[Any]) -> PrivatePredicates:
        agent = ast.TypedName(c[1].value, c[2], span=self._span(c[1], c[1]))
        return PrivatePredicates(agent, tuple(c[3:-1]), span=self._span(c[0], c[-1]))

    def private_names(self, c: list[Any]) -> PrivateNames:
        names = tuple(n for n in c[2] if isinstance(n, ast.TypedName))
        return PrivateNames(c[1].value, names, span=self._span(c[0], c[-1]))

    def typed_names(self, items: list[Any]) -> tuple[Any, ...]:  # type: ignore[override]
        public = self._typed([i for i in items if not isinstance(i, PrivateNames)])
        return (*public, *(i for i in items if isinstance(i, PrivateNames)))

    def domain(self, c: list[Any]) -> MADomain:  # type: ignore[override]
        agents: list[ActionAgent] = []
        private_predicates: list[PrivatePredicates] = []
        private_constants: list[PrivateNames] = []
        items: list[Any] = []
        for item in c[4:-1]:
            if isinstance(item, _AgentAction):
                items.append(item.action)
                agents.append(item.agent)
            elif isinstance(item, tuple) and item[0] == "predicates":
                public, groups = _split(item[1], PrivatePredicates)
                private_predicates += groups
                items.append((item[0], public + tuple(p for g in groups for p in g.predicates), item[2]))
            elif isinstance(item, tuple) and item[0] == "constants":
                public, groups = _split(item[1], PrivateNames)
                private_constants += groups
                items.append((item[0], public + tuple(n for g in groups for n in g.names), item[2]))
            else:
                items.append(item)
        span = self._span(c[0], c[-1])
        return MADomain(assemble_domain(c[2].value, items, span), tuple(agents), tuple(private_predicates),
                        tuple(private_constants), span=span)

    def problem(self, c: list[Any]) -> MAProblem:  # type: ignore[override]
        private: list[PrivateNames] = []
        items: list[Any] = []
        for item in c[4:-1]:
            if item[0] == "objects":
                public, groups = _split(item[1], PrivateNames)
                private += groups
                items.append((item[0], public + tuple(n for g in groups for n in g.names), item[2]))
            else:
                items.append(item)
        span = self._span(c[0], c[-1])
        problem = assemble_problem(c[2].value, items, span, self.warnings, (c[0].start_pos, c[3].end_pos))
        return MAProblem(problem, tuple(private), span=span)


class MALexer(PDDLLexer):
    """PDDL's lexer, with MA-PDDL's own fast-path scanners (they are set on the class)."""


class MAGrammarPathLexer(GrammarPathLexer):
    """The lexer with the fast path switched off."""


def _section(keyword: str, items: Sequence[Item], nodes: Sequence[Any], depth: int = 1) -> Item:
    """A section whose lines are `items` (a private group's own lines nested in it), over the source of
    `nodes` with its keyword and parentheses, so that the comments in it stay with their lines."""
    spans = sorted((n.span.start, n.span.end) for n in nodes if n.span is not None)
    region = None
    if spans:
        first, last = min(nodes, key=lambda n: n.span.start), max(nodes, key=lambda n: n.span.end)
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
        if len(inner) == 1 and (comments is None or region is None or not comments.inside(*region)):
            return f"(:private {group.agent} {typed(group.names)})"  # one line, as CoDMAP writes it
        comment = printer.head_comment(inner, region)
        chunks = printer.lay(inner, region, INDENT * (depth + 1))
        return f"(:private {group.agent}{comment}\n" + printer.close(chunks, INDENT * depth)
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
        head = f"(:private {group.agent.name} - {printer.type_text(group.agent.type)}" if group.agent.type \
            else f"(:private {group.agent.name}"
        return f"{head}{comment}\n" + printer.close(chunks, INDENT * 2)
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
    agents = {a.action: a for a in node.agents}
    for structure in node.domain.structures:
        agent = agents.get(getattr(structure, "name", ""))
        if agent is not None and isinstance(structure, ast.Action):
            sections.append(Item(printer.span(structure), partial(_agent_action, structure, agent)))
        else:
            sections.append(printer.structure_item(structure, printer.to_pddl))
    inner = replace(node.domain, constants=(), predicates=(), structures=())
    return printer.domain(inner, sections)


def printed_problem(node: MAProblem) -> str:
    objects = _typed_section(":objects", node.problem.objects, node.private_objects)
    return printer.problem(replace(node.problem, objects=()), [objects] if objects else [])


def centralised_domain(node: MADomain) -> ast.Domain:
    """The CoDMAP centralised reading: each action's agent is its first parameter."""
    agents = {a.action: a.agent for a in node.agents}
    structures = tuple(replace(s, parameters=(agents[s.name], *s.parameters))
                       if isinstance(s, ast.Action) and s.name in agents else s for s in node.domain.structures)
    return replace(node.domain, structures=structures)


def _with_action_atoms(domain: ast.Domain) -> ast.Domain:
    """Actions named as atoms (concurrency constraints) declared as predicates over their parameters."""
    declared = {p.name for p in domain.predicates}
    actions = {s.name: s for s in domain.structures if isinstance(s, ast.Action)}
    used = {n.predicate for s in domain.structures for n in s.walk()
            if isinstance(n, ast.Atom) and n.predicate in actions and n.predicate not in declared}
    extra = tuple(ast.PredicateDecl(name, actions[name].parameters, span=actions[name].span) for name in sorted(used))
    return replace(domain, predicates=domain.predicates + extra) if extra else domain


def _definitions(node: Any) -> tuple[Any, ...]:
    if isinstance(node, MADomain):
        return (centralised_domain(node),)
    if isinstance(node, MAProblem):
        return (node.problem,)
    return (node,)


def _findings(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[Diagnostic]:
    return []


def _private_owners(node: Any) -> list[Diagnostic]:
    """E931: a private group whose agent is no object of the problem."""
    if not isinstance(node, MAProblem):
        return []
    objects = {o.name for o in node.problem.objects}
    return [finding("E931", f"objects private to {g.agent}, but {g.agent} is not an object of the problem "
                    "(an agent is one of its objects)", g.span) for g in node.private_objects if g.agent not in objects]


def _first_construct(node: Any) -> Any:
    """The first `:agent` or private group of a domain (for W120)."""
    if not isinstance(node, MADomain):
        return None
    spans = [s for s in (*(a.span for a in node.agents), *(g.span for g in node.private_predicates)) if s is not None]
    return min(spans, key=lambda s: s.start, default=None)


def _uses_own(node: Any) -> bool:
    if isinstance(node, MADomain):
        return bool(node.agents or node.private_predicates or node.private_constants)
    return isinstance(node, MAProblem) and bool(node.private_objects)


def _summary(node: Any) -> dict[str, Any]:
    if isinstance(node, MADomain):
        info = pddl_summary(node.domain)
        info["counts"].update(agent_actions=len(node.agents),
                              private_predicates=sum(len(g.predicates) for g in node.private_predicates))
        return info
    if isinstance(node, MAProblem):
        info = pddl_summary(node.problem)
        info["counts"]["private_objects"] = sum(len(g.names) for g in node.private_objects)
        return info
    return pddl_summary(node)


#: CoDMAP-2015 (the Competition of Distributed and Multiagent Planners): STRIPS with types, in MA-PDDL;
#: the centralised track's planners read the unfactored files, the distributed track's the factored ones.
TRACKS = (
    dialect_track("codmap2015-centralised", "CoDMAP-2015 centralised track", {F.TYPING, F.EQUALITY},
                  ADL | {F.ACTION_COSTS}, "coverage and plan quality of one planner for all agents"),
    dialect_track("codmap2015-distributed", "CoDMAP-2015 distributed track", {F.TYPING, F.EQUALITY},
                  ADL | {F.ACTION_COSTS}, "coverage and plan quality of one planner process per agent"),
)

DIALECT = dialect("mapddl")
RULES = Rules(DIALECT, MABuilder, (MALexer, MAGrammarPathLexer), (), lambda node: node, _findings, TRACKS,
              "multi-agent (classical planners read no :agent nor :private)", _definitions, _with_action_atoms,
              file_findings=_private_owners, construct_at=_first_construct, uses_own=_uses_own)
IMPLEMENTATION = implementation(RULES, summarise=_summary)
