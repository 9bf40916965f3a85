"""CoDMAP's factored MA-PDDL: one domain and one problem file per agent, put together as one task.

A factored file holds what its agent knows: the public types, predicates, functions and objects, its
own private ones (`(:private ...)` groups that name no agent), and its own actions, whose agent is their
first parameter. Which agent a file is for is not written in it; CoDMAP named the files after their
agent (`domain-AGENT.pddl`, `problem-AGENT.pddl`; unified-planning writes `AGENT_domain.pddl`), and so
does `agent_files` here.

`join` puts the files of all the agents together as the task's unfactored form (one `MADomain`, one
`MAProblem`, each action's `:agent` its first parameter, each private group naming its agent), which is
what the rest of pddltools reads: the checker its centralised reading, `compile --target centralised`
the one classical task. It reports what does not fit together (E931-E934, W931): a name private to one
agent in another's files, one name declared two ways, goals that differ, public initial atoms some
agents do not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Diagnostic, Severity, error, warning
from pddltools.mapddl.ast import ActionAgent, MADomain, MAProblem, PrivateNames, PrivatePredicates
from pddltools.pddl import ast

#: CoDMAP's names of an agent's files, and unified-planning's.
_NAMED = (re.compile(r"^(domain|problem)-(?P<agent>.+)\.pddl$", re.IGNORECASE),
          re.compile(r"^(?P<agent>.+)_(domain|problem)\.pddl$", re.IGNORECASE))


def agent_of(path: str | Path) -> tuple[str, str] | None:
    """(agent, "domain" or "problem") that a factored file's name says, or None."""
    name = Path(path).name
    for pattern in _NAMED:
        found = pattern.match(name)
        if found:
            kind = "domain" if "domain" in name[:found.start("agent")] + name[found.end("agent"):].lower() \
                else "problem"
            return found.group("agent").lower(), kind
    return None


def agent_files(paths: Iterable[Path]) -> dict[str, dict[str, Path]] | None:
    """The files of each agent ({agent: {"domain": path, "problem": path}}, agents in name order), when
    every path is named as a factored file is; else None."""
    found: dict[str, dict[str, Path]] = {}
    for path in paths:
        named = agent_of(path)
        if named is None:
            return None
        found.setdefault(named[0], {})[named[1]] = path
    return dict(sorted(found.items()))


def in_context(domain: object, problem: object) -> object:
    """`problem` as its domain reads it: a problem of a factored domain has its private groups read as
    the factored form (`(:private truck0 truck1 - truck)`: both private, not truck1 private to truck0)."""
    if isinstance(domain, MADomain) and isinstance(problem, MAProblem) and domain.factored:
        return read_as_factored(problem)
    return problem


def read_as_factored(problem: MAProblem) -> MAProblem:
    if all(g.agent is None for g in problem.private_objects):
        return problem
    groups = tuple(g if g.agent is None else PrivateNames(None, g.factored_names(), span=g.span)
                   for g in problem.private_objects)
    private = {n.name for g in problem.private_objects for n in g.names}
    public = tuple(o for o in problem.problem.objects if o.name not in private)
    objects = public + tuple(n for g in groups for n in g.names)
    return MAProblem(replace(problem.problem, objects=objects), groups, span=problem.span)


@dataclass
class Agent:
    """One agent's files, as parsed."""

    name: str
    domain: MADomain
    problem: MAProblem

    @property
    def private_objects(self) -> tuple[ast.TypedName, ...]:
        return tuple(n for g in (*self.domain.private_constants, *self.problem.private_objects) for n in g.names)

    @property
    def private_predicates(self) -> tuple[ast.PredicateDecl, ...]:
        return tuple(p for g in self.domain.private_predicates for p in g.predicates)


@dataclass
class Joined:
    """The task the agents' files make together, in the unfactored form, and what did not fit."""

    domain: MADomain
    problem: MAProblem
    findings: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


class _Declarations:
    """Names declared in several files, each kept once (the first file's), and E933 for one declared
    differently."""

    def __init__(self, what: str, findings: list[Diagnostic]) -> None:
        self.what = what
        self.findings = findings
        self.first: dict[str, tuple[ast.Node, str]] = {}

    def add(self, name: str, node: ast.Node, agent: str) -> bool:
        """Whether `node` is new (not declared before, by any agent)."""
        seen = self.first.get(name)
        if seen is None:
            self.first[name] = (node, agent)
            return True
        if seen[0] != node:
            self.findings.append(error("E933", f"{self.what} {name} is declared differently in the files of "
                                       f"{seen[1]} and {agent}: `{_flat(seen[0])}` and `{_flat(node)}`",
                                       node.span))
        return False


def _flat(node: ast.Node) -> str:
    return " ".join(str(node).split())


def _agent_type(agent: Agent) -> ast.TypeRef | None:
    """The type of the agent's actions' first parameter (the agent), or its object's own type."""
    for action in agent.domain.domain.actions:
        if action.parameters:
            return action.parameters[0].type
    return next((o.type for o in agent.problem.problem.objects if o.name == agent.name), None)


def join(agents: Sequence[Agent]) -> Joined:
    """The task of the agents' factored files, unfactored: what each declares once (E933 if two declare
    it differently), each agent's private names in a group naming it, each action's agent its first
    parameter; the findings about privacy (E932), agents (E931), goals and initial states (E933, W931)."""
    findings: list[Diagnostic] = []
    first = agents[0]
    types = _Declarations("type", findings)
    predicates = _Declarations("predicate", findings)
    functions = _Declarations("function", findings)
    actions = _Declarations("action", findings)
    objects = _Declarations("object", findings)
    owner: dict[str, str] = {}  # private name -> its agent
    private_predicate: dict[str, str] = {}  # predicate -> an agent it is private to
    public_predicate: dict[str, str] = {}  # predicate -> an agent whose file declares it public
    private_function: dict[str, str] = {}  # the same for functions
    public_function: dict[str, str] = {}
    for agent in agents:
        for declared in agent.private_objects:
            other = owner.setdefault(declared.name, agent.name)
            if other != agent.name:
                findings.append(error("E932", f"{declared.name} is private to {other}, but {agent.name}'s files "
                                      f"declare it private to {agent.name} too", declared.span))
        private = {p.name for p in agent.private_predicates}
        for p in agent.domain.domain.predicates:
            (private_predicate if p.name in private else public_predicate).setdefault(p.name, agent.name)
        own_functions = {f.name for g in agent.domain.private_functions for f in g.functions}
        for f in agent.domain.domain.functions:
            (private_function if f.name in own_functions else public_function).setdefault(f.name, agent.name)
    for what, privately, publicly in (("predicate", private_predicate, public_predicate),
                                      ("function", private_function, public_function)):
        for name, agent_name in privately.items():
            if name in publicly:
                where = next(a for a in agents if a.name == publicly[name])
                decls: list[ast.PredicateDecl | ast.FunctionDecl] = [*where.domain.domain.predicates,
                                                                     *where.domain.domain.functions]
                decl = next(d for d in decls if d.name == name)
                findings.append(error("E932", f"{what} {name} is private to {agent_name}, but {where.name}'s "
                                      "domain declares it public", decl.span))
    public_types: list[ast.TypedName] = []
    public_constants: list[ast.TypedName] = []
    public_predicates: list[ast.PredicateDecl] = []
    public_functions: list[ast.FunctionDecl] = []
    private_groups: dict[str, list[ast.PredicateDecl]] = {}
    private_kinds: dict[str, ast.TypeRef | None] = {}
    structures: list[ast.Structure] = []
    agent_of_action: list[ActionAgent] = []
    public_objects: list[ast.TypedName] = []
    groups: list[PrivateNames] = []
    constant_groups: list[PrivateNames] = []
    init: dict[Any, None] = {}  # the initial elements of every agent's problem, in order, each once
    for agent in agents:
        domain, problem = agent.domain.domain, agent.problem.problem
        if domain.name != first.domain.domain.name:
            findings.append(error("E933", f"{agent.name}'s domain is {domain.name}, {first.name}'s "
                                  f"{first.domain.domain.name}: the agents' files must be of one domain", domain.span))
        public_types += [t for t in domain.types if types.add(t.name, t, agent.name)]
        public_constants += [c for c in domain.constants if c.name not in owner and objects.add(c.name, c, agent.name)]
        mine = {p.name for p in agent.private_predicates}
        for p in domain.predicates:
            if predicates.add(p.name, p, agent.name) and p.name not in mine:
                public_predicates.append(p)
        public_functions += [f for f in domain.functions if functions.add(f.name, f, agent.name)]
        kind = _agent_type(agent)
        key = _type_key(kind)
        private_kinds.setdefault(key, kind)
        group = private_groups.setdefault(key, [])
        group += [p for p in agent.private_predicates if p not in group]
        for structure in domain.structures:
            action_name = str(getattr(structure, "name", ""))
            if not actions.add(action_name, structure, agent.name):
                continue
            if isinstance(structure, ast.Action) and structure.parameters:
                agent_of_action.append(ActionAgent(action_name, structure.parameters[0], span=structure.span))
                structure = replace(structure, parameters=structure.parameters[1:])
            structures.append(structure)
        constants = tuple(n for g in agent.domain.private_constants for n in g.names)
        if constants:
            constant_groups.append(PrivateNames(agent.name, constants))
        public_objects += [o for o in problem.objects if o.name not in owner and objects.add(o.name, o, agent.name)]
        names = tuple(n for g in agent.problem.private_objects for n in g.names)
        if names:
            groups.append(PrivateNames(agent.name, names, span=agent.problem.private_objects[0].span))
        for atom in problem.init:
            init.setdefault(atom)
        if problem.goal != first.problem.problem.goal:
            findings.append(error("E933", f"{agent.name}'s goal is not {first.name}'s: the agents of a factored task "
                                  "share one goal", problem.goal.span if problem.goal else problem.span))
        findings += _foreign(agent, owner)
    findings += _unknown_atoms(agents, owner, private_predicate, init)
    everything = {o.name for o in (*public_objects, *public_constants)} | set(owner)
    for agent in agents:
        if agent.name not in everything:
            span = agent.problem.private_objects[0].span if agent.problem.private_objects else agent.problem.span
            findings.append(error("E931", f"the files of agent {agent.name} are named after it, but {agent.name} is "
                                  "not an object of the task (an agent is one of its objects)", span))
    private_predicates = tuple(
        PrivatePredicates(ast.TypedName("?agent", private_kinds[key]), tuple(decls))
        for key, decls in private_groups.items() if decls)
    requirements = _requirements(a.domain.domain.requirements for a in agents)
    joined_domain = replace(first.domain.domain, requirements=requirements, types=tuple(public_types),
                            constants=tuple(public_constants) + tuple(n for g in constant_groups for n in g.names),
                            predicates=tuple(public_predicates) + tuple(p for g in private_predicates
                                                                        for p in g.predicates),
                            functions=tuple(public_functions), structures=tuple(structures))
    joined_problem = replace(first.problem.problem, requirements=(), objects=tuple(public_objects) + tuple(
        n for g in groups for n in g.names), init=tuple(init))
    return Joined(MADomain(joined_domain, tuple(agent_of_action), private_predicates, tuple(constant_groups),
                           span=first.domain.span),
                  MAProblem(joined_problem, tuple(groups), span=first.problem.span), findings)


def _type_key(kind: ast.TypeRef | None) -> str:
    return "object" if kind is None else kind.name if isinstance(kind, ast.TypeName) else _flat(kind)


def _requirements(each: Iterable[tuple[ast.Requirement, ...]]) -> tuple[ast.Requirement, ...]:
    flags: dict[str, ast.Requirement] = {}
    for requirements in each:
        for r in requirements:
            flags.setdefault(r.name, r)
    flags.pop(":factored-privacy", None)
    return (*flags.values(), *(ast.Requirement(f) for f in (":multi-agent", ":unfactored-privacy") if f not in flags))


def _foreign(agent: Agent, owner: Mapping[str, str]) -> list[Diagnostic]:
    """E932 for each name private to another agent that this agent's files declare public or use."""
    found: list[Diagnostic] = []
    own = {n.name for n in agent.private_objects}
    declared = [*agent.domain.domain.constants, *agent.problem.problem.objects]
    for name in declared:
        other = owner.get(name.name)
        if other is not None and other != agent.name and name.name not in own:
            found.append(error("E932", f"{name.name} is private to {other}, but {agent.name}'s files declare it "
                               "public", name.span))
    return found


def _unknown_atoms(agents: Sequence[Agent], owner: Mapping[str, str], private_predicate: Mapping[str, str],
                   init: Mapping[Any, None]) -> list[Diagnostic]:
    """W931 for a public initial atom (public predicate, public objects) that some agents' files lack:
    each agent plans from what its file says; the joined task starts from all of them."""
    found: list[Diagnostic] = []
    for agent in agents:
        known = set(agent.problem.problem.init)
        for atom in init:
            if atom in known or not isinstance(atom, ast.Atom) or atom.predicate in private_predicate:
                continue
            if any(getattr(t, "name", None) in owner for t in atom.args):
                continue
            found.append(warning("W931", f"the initial atom {_flat(atom)} is public, but the problem of "
                                 f"{agent.name} does not hold it: the joined task starts with it",
                                 atom.span))
    return found
