"""MA-PDDL's nodes. A domain is a PDDL domain (its actions PDDL actions, its predicates and functions all
declared) beside which agent executes each action and which predicates and functions are private; a problem
is a PDDL problem (its objects all declared) beside which objects are private to which agent.

Both of CoDMAP's forms read into these nodes. Unfactored, a private group names its agent (`agent`); in
a factored file (one agent's domain or problem) it names none: `agent` is None, the agent being the
file's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pddltools.diagnostics import Span
from pddltools.pddl import ast


@dataclass(frozen=True, slots=True)
class ActionAgent(ast.Node):
    """`:agent ?a - type` of action `action`."""

    action: str
    agent: ast.TypedName


@dataclass(frozen=True, slots=True)
class PrivatePredicates(ast.Node):
    """`(:private ?a - type (p ?a ...) ...)`: predicates private to each agent of the type; factored,
    `(:private (p ...) ...)` (`agent` None): the file's agent's private predicates."""

    agent: ast.TypedName | None
    predicates: tuple[ast.PredicateDecl, ...]


@dataclass(frozen=True, slots=True)
class PrivateFunctions(ast.Node):
    """Factored, `(:private (f ...) - number ...)` among the functions: the file's agent's private functions."""

    functions: tuple[ast.FunctionDecl, ...]


@dataclass(frozen=True, slots=True)
class PrivateNames(ast.Node):
    """`(:private agent o1 o2 - t)` among objects or constants: names private to `agent`; factored,
    `(:private o1 o2 - t)` (`agent` None): names private to the file's agent.

    A group whose first name is followed by another name reads either way; it is read unfactored, with
    `agent_span` where that first name is, so that `factored_names` can read it the other way once the
    domain is known to be factored."""

    agent: str | None
    names: tuple[ast.TypedName, ...]
    agent_span: Span | None = field(default=None, compare=False, hash=False, repr=False, kw_only=True)

    def factored_names(self) -> tuple[ast.TypedName, ...]:
        """The group read as the factored form: every name in it private, the first (read as the agent
        when unfactored) of the type of the names after it."""
        if self.agent is None:
            return self.names
        kind = self.names[0].type if self.names else None
        return (ast.TypedName(self.agent, kind, span=self.agent_span), *self.names)


@dataclass(frozen=True, slots=True)
class MADomain(ast.Node):
    domain: ast.Domain
    agents: tuple[ActionAgent, ...] = ()
    private_predicates: tuple[PrivatePredicates, ...] = ()
    private_constants: tuple[PrivateNames, ...] = ()
    private_functions: tuple[PrivateFunctions, ...] = ()

    @property
    def name(self) -> str:
        return self.domain.name

    @property
    def factored(self) -> bool:
        """A domain of one agent (CoDMAP's factored form): it declares :factored-privacy, or a private
        group of it names no agent."""
        return any(r.name == ":factored-privacy" for r in self.domain.requirements) \
            or any(g.agent is None for g in self.private_predicates) \
            or any(g.agent is None for g in self.private_constants) or bool(self.private_functions)

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

    @property
    def factored(self) -> bool:
        """Written in the factored form for certain: a private group of it names no agent, or it declares
        :factored-privacy (a group that reads either way is only known factored from its domain)."""
        return any(r.name == ":factored-privacy" for r in self.problem.requirements) or any(
            g.agent is None for g in self.private_objects)

    def __str__(self) -> str:
        from pddltools.mapddl.printer import printed_problem

        return printed_problem(self)
