"""MA-PDDL in the language registry: the grammar (`grammars/mapddl.lark`: PDDL plus `:agent`, private
predicates and private objects), its nodes and builder, its printer, checks (E931) and CoDMAP-2015's
tracks.

PDDL's checker reads a multi-agent task through its centralised reading (CoDMAP's): each action's agent
is its first parameter, private predicates and objects are declared as public ones, and an action named
as an atom (Kovacs's concurrency constraints) is a predicate over the action's agent and parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pddltools.check.codes import finding
from pddltools.check.features import Feature
from pddltools.check.report import CheckReport, in_file_order
from pddltools.check.tracks import ADL, with_errors
from pddltools.diagnostics import Diagnostic
from pddltools.dialects import dialect
from pddltools.dialects.extension import Rules, check_task, dialect_track, implementation
from pddltools.dialects.pddl import summary as pddl_summary
from pddltools.mapddl.ast import ActionAgent, MADomain, MAProblem, PrivateFunctions, PrivateNames, PrivatePredicates
from pddltools.mapddl.factored import in_context
from pddltools.pddl import ast
from pddltools.pddl.parser import (
    Builder,
    BuildError,
    GrammarPathLexer,
    PDDLLexer,
    assemble_domain,
    assemble_problem,
)

F = Feature


@dataclass(frozen=True)
class _AgentAction:
    action: ast.Action
    agent: ActionAgent


@dataclass(frozen=True)
class _FactoredGroup:
    """`(:private (p ...) ...)` before its section says whether it holds predicates or functions."""

    declarations: tuple[ast.FunctionDecl, ...]
    span: Any

    def predicates(self) -> PrivatePredicates:
        for d in self.declarations:
            if d.type is not None:
                span = d.type.span or d.span
                raise BuildError(f"'- {printed_type(d.type)}' after predicate {d.name}: predicates have no type",
                                 span.start if span else 0, span.end if span else 0)
        return PrivatePredicates(None, tuple(ast.PredicateDecl(d.name, d.parameters, span=d.span)
                                             for d in self.declarations), span=self.span)

    def functions(self) -> PrivateFunctions:
        return PrivateFunctions(self.declarations, span=self.span)


def printed_type(node: ast.TypeRef) -> str:
    return str(node)


def _factored_flag(node: ast.Domain | ast.Problem) -> bool:
    return any(r.name == ":factored-privacy" for r in node.requirements)


def _as_factored(groups: Sequence[PrivateNames]) -> tuple[PrivateNames, ...]:
    """Groups that read either way, read as the factored form (a file declaring :factored-privacy)."""
    return tuple(g if g.agent is None else PrivateNames(None, g.factored_names(), span=g.span) for g in groups)


def _split(value: Sequence[Any], kind: type | tuple[type, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
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

    def factored_private(self, c: list[Any]) -> _FactoredGroup:
        inner = [d for d in c[1] if isinstance(d, _FactoredGroup)]
        if inner:
            raise BuildError("a (:private ...) group inside another one", inner[0].span.start, inner[0].span.end)
        return _FactoredGroup(tuple(c[1]), self._span(c[0], c[-1]))

    def private_names(self, c: list[Any]) -> PrivateNames:
        """`(:private a b - t)`: unfactored (`a` the agent) unless the first name is typed on its own or
        alone, which only the factored form writes (`(:private driver0 - driver)`)."""
        items, span = c[1:-1], self._span(c[0], c[-1])
        inner = [i for i in items if isinstance(i, PrivateNames)]
        if inner:
            where = inner[0].span
            raise BuildError("a (:private ...) group inside another one", where.start if where else 0,
                             where.end if where else 0)
        first = items[0] if items and not isinstance(items[0], ast.Node) else None  # a name, not a type
        if first is None or len(items) == 1 or isinstance(items[1], ast.Node):
            return PrivateNames(None, self._typed(list(items)), span=span)
        return PrivateNames(first.value, self._typed(list(items[1:])), span=span,
                            agent_span=self._span(first, first))

    def typed_names(self, items: list[Any]) -> tuple[Any, ...]:  # type: ignore[override]
        public = self._typed([i for i in items if not isinstance(i, PrivateNames)])
        return (*public, *(i for i in items if isinstance(i, PrivateNames)))

    def typed_skeletons(self, items: list[Any]) -> tuple[Any, ...]:
        public = super().typed_skeletons([i for i in items if not isinstance(i, _FactoredGroup)])
        return (*public, *(i for i in items if isinstance(i, _FactoredGroup)))

    def domain(self, c: list[Any]) -> MADomain:  # type: ignore[override]
        agents: list[ActionAgent] = []
        private_predicates: list[PrivatePredicates] = []
        private_constants: list[PrivateNames] = []
        private_functions: list[PrivateFunctions] = []
        items: list[Any] = []
        for item in c[4:-1]:
            if isinstance(item, _AgentAction):
                items.append(item.action)
                agents.append(item.agent)
            elif isinstance(item, tuple) and item[0] == "predicates":
                public, groups = _split(item[1], (PrivatePredicates, _FactoredGroup))
                read = tuple(g.predicates() if isinstance(g, _FactoredGroup) else g for g in groups)
                private_predicates += read
                items.append((item[0], public + tuple(p for g in read for p in g.predicates), item[2]))
            elif isinstance(item, tuple) and item[0] == "functions":
                public, fgroups = _split(item[1], _FactoredGroup)
                private_functions += (g.functions() for g in fgroups)
                items.append((item[0], public + tuple(f for g in fgroups for f in g.declarations), item[2]))
            elif isinstance(item, tuple) and item[0] == "constants":
                public, groups = _split(item[1], PrivateNames)
                private_constants += groups
                items.append((item[0], public, item[2]))
            else:
                items.append(item)
        span = self._span(c[0], c[-1])
        domain = assemble_domain(c[2].value, items, span)
        if _factored_flag(domain):
            private_constants = list(_as_factored(private_constants))
        constants = tuple(n for g in private_constants for n in g.names)
        domain = replace(domain, constants=domain.constants + constants) if constants else domain
        return MADomain(domain, tuple(agents), tuple(private_predicates), tuple(private_constants),
                        tuple(private_functions), span=span)

    def problem(self, c: list[Any]) -> MAProblem:  # type: ignore[override]
        private: list[PrivateNames] = []
        items: list[Any] = []
        for item in c[4:-1]:
            if item[0] == "objects":
                public, groups = _split(item[1], PrivateNames)
                private += groups
                items.append((item[0], public, item[2]))
            else:
                items.append(item)
        span = self._span(c[0], c[-1])
        problem = assemble_problem(c[2].value, items, span, self.warnings, (c[0].start_pos, c[3].end_pos))
        if _factored_flag(problem):
            private = list(_as_factored(private))
        objects = tuple(n for g in private for n in g.names)
        problem = replace(problem, objects=problem.objects + objects) if objects else problem
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
                    "(an agent is one of its objects)", g.span)
            for g in node.private_objects if g.agent is not None and g.agent not in objects]


def _mixed_forms(domain: Any, problems: Sequence[Any]) -> list[Diagnostic]:
    """E934: a problem of an unfactored domain with a private group that names no agent (the factored
    form: whose objects would they be?)."""
    if not isinstance(domain, MADomain) or domain.factored:
        return []
    return [finding("E934", "these objects are private to no agent: a problem of an unfactored domain names the "
                    "agent first, (:private AGENT o1 o2 - t); a factored task gives each agent a domain of its own "
                    "declaring :factored-privacy", g.span)
            for p in problems if isinstance(p, MAProblem) for g in p.private_objects if g.agent is None]


def _check(domain: Any, problems: Sequence[Any], strict: bool, tracks: Iterable[str] | None) -> CheckReport:
    """The dialect's check, each problem read as its domain reads it (`factored.in_context`)."""
    read = [in_context(domain, p) for p in problems]
    report = check_task(RULES, domain, read, strict, tracks)
    extra = _mixed_forms(domain, read)
    if not extra:
        return report
    findings = tuple(in_file_order([*report.findings, *extra], report.files))
    return replace(report, findings=findings, tracks={t: with_errors(v, len(extra)) for t, v in report.tracks.items()})


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
IMPLEMENTATION = replace(implementation(RULES, summarise=_summary), check=_check)
