"""Centralisation: an MA-PDDL task (CoDMAP-2015's unfactored files) as one classical task for all agents.

CoDMAP's centralised reading: each action's `:agent ?a - t` becomes its first parameter, private
predicates (which name their agent as a parameter) and private objects are declared beside the public
ones, and the multi-agent requirements go. A plan of the result is a joint plan whose every step names
its agent first; the privacy the files declared is kept per agent in `Privacy`, for the plan map (which
agent owns which objects and predicates) and for checking a plan's steps against it.

An action named as an atom in a precondition (Kovacs's concurrency constraints: `(not (load ?t2 ?o ?l))`,
no other agent loads the same package at the same time) is read sequentially: in a sequential plan no
other action happens at the same time, so such an atom is false — its negation true.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pddltools.compile.formulas import FALSE, TRUE, Rewriter, nnf
from pddltools.compile.task import Origin, ParsedTask, PassResult
from pddltools.mapddl.ast import MADomain, MAProblem
from pddltools.mapddl.dialect import centralised_domain
from pddltools.pddl import ast

#: The requirement flags of MA-PDDL, which a classical planner does not read.
MULTI_AGENT_FLAGS = frozenset({":multi-agent", ":unfactored-privacy", ":factored-privacy", ":concurrency-constraints"})


@dataclass(frozen=True)
class Privacy:
    """What the MA-PDDL files kept private, per agent: `objects` (agent -> its private objects and
    constants), `predicates` (agent type -> the predicates private to each agent of that type) and
    `agents` (action -> the type of its agent)."""

    objects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    predicates: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    agents: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"agent_parameter": 0, "agent_types": dict(self.agents),
                "private_objects": {a: list(o) for a, o in self.objects.items()},
                "private_predicates": {t: list(p) for t, p in self.predicates.items()}}


class _Sequential(Rewriter):
    """Concurrency constraints read sequentially: an action's atom is false."""

    def __init__(self, actions: frozenset[str]) -> None:
        self.actions = actions

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Atom) and formula.predicate in self.actions:
            return FALSE
        if isinstance(formula, ast.Not) and isinstance(formula.body, ast.Atom) \
                and formula.body.predicate in self.actions:
            return TRUE
        rewritten = super().formula(formula)
        if isinstance(rewritten, ast.Forall) and rewritten.body == TRUE:
            return TRUE
        if isinstance(rewritten, ast.Exists) and rewritten.body == FALSE:
            return FALSE
        return rewritten


def _names_actions(node: ast.Node | None, actions: frozenset[str]) -> bool:
    return node is not None and any(isinstance(n, ast.Atom) and n.predicate in actions for n in node.walk())


def centralise(domain: MADomain, problem: MAProblem | ast.Problem) -> tuple[PassResult, Privacy]:
    """The classical task of CoDMAP's centralised reading, each action's origin (itself, its agent the
    first argument) and the files' privacy."""
    central = centralised_domain(domain)
    actions = frozenset(a.name for a in central.actions)
    declared = {p.name for p in central.predicates}
    sequential = _Sequential(actions - declared)
    structures: list[ast.Structure] = []
    for structure in central.structures:
        if isinstance(structure, ast.Action) and _names_actions(structure.precondition, sequential.actions):
            assert structure.precondition is not None
            structure = replace(structure, precondition=sequential.formula(nnf(structure.precondition)))
        structures.append(structure)
    requirements = tuple(r for r in central.requirements if r.name not in MULTI_AGENT_FLAGS)
    if not any(r.name in (":strips", ":typing", ":adl") for r in requirements):
        requirements = (ast.Requirement(":strips"), *requirements)
    classical = replace(central, structures=tuple(structures), requirements=requirements)
    if isinstance(problem, MAProblem):
        private_objects = problem.private_objects
        plain = problem.problem
    else:
        private_objects, plain = (), problem
    plain = replace(plain, requirements=tuple(r for r in plain.requirements if r.name not in MULTI_AGENT_FLAGS))
    objects: dict[str, tuple[str, ...]] = {}
    for group in (*domain.private_constants, *private_objects):
        if group.agent is not None:  # a factored file's own group: its agent is the file's, unnamed here
            objects[group.agent] = objects.get(group.agent, ()) + tuple(n.name for n in group.names)
    agents = {a.action: _type_name(a.agent.type) for a in domain.agents}
    if not agents and domain.factored:  # one agent's factored domain: each action's agent is its first parameter
        agents = {a.name: _type_name(a.parameters[0].type) for a in central.actions if a.parameters}
    predicates: dict[str, tuple[str, ...]] = {}
    for pgroup in domain.private_predicates:
        kind = _type_name(pgroup.agent.type) if pgroup.agent is not None else next(iter(agents.values()), "object")
        predicates[kind] = predicates.get(kind, ()) + tuple(p.name for p in pgroup.predicates)
    origins = {a.name: Origin(a.name, tuple(range(len(a.parameters)))) for a in classical.actions}
    notes = (f"centralised: {len(agents)} agent actions, {sum(map(len, objects.values()))} private objects "
             f"of {len(objects)} agents",)
    return (PassResult(ParsedTask(classical, plain), origins, notes=notes),
            Privacy(objects, predicates, agents))


def _type_name(kind: ast.TypeRef | None) -> str:
    return kind.name if isinstance(kind, ast.TypeName) else "object"
