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
from typing import Any

from pddltools.check.codes import finding
from pddltools.check.features import Feature
from pddltools.check.tracks import ADL
from pddltools.diagnostics import Diagnostic
from pddltools.dialects import dialect
from pddltools.dialects.extension import Rules, dialect_track, implementation
from pddltools.dialects.pddl import summary as pddl_summary
from pddltools.mapddl.ast import ActionAgent, MADomain, MAProblem, PrivateNames, PrivatePredicates
from pddltools.pddl import ast
from pddltools.pddl.parser import Builder, GrammarPathLexer, PDDLLexer, assemble_domain, assemble_problem

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
