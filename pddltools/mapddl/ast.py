"""MA-PDDL's nodes. A domain is a PDDL domain (its actions PDDL actions, its predicates all declared)
beside which agent executes each action and which predicates are private; a problem is a PDDL problem
(its objects all declared) beside which objects are private to which agent."""

from __future__ import annotations

from dataclasses import dataclass

from pddltools.pddl import ast


@dataclass(frozen=True, slots=True)
class ActionAgent(ast.Node):
    """`:agent ?a - type` of action `action`."""

    action: str
    agent: ast.TypedName


@dataclass(frozen=True, slots=True)
class PrivatePredicates(ast.Node):
    """`(:private ?a - type (p ?a ...) ...)`: predicates private to each agent of the type."""

    agent: ast.TypedName
    predicates: tuple[ast.PredicateDecl, ...]


@dataclass(frozen=True, slots=True)
class PrivateNames(ast.Node):
    """`(:private agent o1 o2 - t)` among objects or constants: names private to `agent`."""

    agent: str
    names: tuple[ast.TypedName, ...]


@dataclass(frozen=True, slots=True)
class MADomain(ast.Node):
    domain: ast.Domain
    agents: tuple[ActionAgent, ...] = ()
    private_predicates: tuple[PrivatePredicates, ...] = ()
    private_constants: tuple[PrivateNames, ...] = ()

    @property
    def name(self) -> str:
        return self.domain.name

    def __str__(self) -> str:
        from pddltools.mapddl.printer import printed_domain

        return printed_domain(self)


@dataclass(frozen=True, slots=True)
class MAProblem(ast.Node):
    problem: ast.Problem
    private_objects: tuple[PrivateNames, ...] = ()

    @property
    def name(self) -> str:
        return self.problem.name

    def __str__(self) -> str:
        from pddltools.mapddl.printer import printed_problem

        return printed_problem(self)
