"""Contingent PDDL's nodes. A domain is a PDDL domain (its actions PDDL actions) beside what the actions
sense and the declared variables; a problem is a PDDL problem whose `init` may hold `InitOneOf`,
`InitOr`, `InitInvariant` and `Unknown`, beside its hidden initial states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pddltools.pddl import ast


@dataclass(frozen=True, slots=True)
class Sensing(ast.Node):
    """What action `action` senses: `:observe <formula>` (CLG) or `:sensing-model <effect>` (cp2fsc)."""

    action: str
    observe: Any = None  # a PDDL formula
    model: Any = None  # a PDDL effect whose literals are observed


@dataclass(frozen=True, slots=True)
class StateVariable(ast.Node):
    """`(:variable name values...)` or `(:obs-variable (name ?x - t) values...)`: a multi-valued (state
    or observation) variable, whose values are formulas (atoms, or `forall`s of atoms)."""

    observation: bool
    name: str
    parameters: tuple[ast.TypedName, ...]
    values: tuple[Any, ...]
    parenthesised: bool = False  # written `(name ...)`, as it must be when it has parameters


@dataclass(frozen=True, slots=True)
class ContingentDomain(ast.Node):
    domain: ast.Domain
    sensing: tuple[Sensing, ...] = ()
    variables: tuple[StateVariable, ...] = ()
    default_sensing: Any = None  # a PDDL effect

    @property
    def name(self) -> str:
        return self.domain.name

    def __str__(self) -> str:
        from pddltools.contingent.printer import printed_domain

        return printed_domain(self)


@dataclass(frozen=True, slots=True)
class InitOneOf(ast.Node):
    """Exactly one of `parts` holds initially."""

    parts: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class InitOr(ast.Node):
    """At least one of `parts` holds initially."""

    parts: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class InitInvariant(ast.Node):
    """cp2fsc's `(invariant ...)`: a clause every state satisfies (at least one of `parts` holds)."""

    parts: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Unknown(ast.Node):
    """`(unknown atom)`: the atom may hold initially or not."""

    atom: ast.Atom


@dataclass(frozen=True, slots=True)
class Hidden(ast.Node):
    """One `(:hidden ...)`: the literals of one hidden initial state."""

    literals: tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class ContingentProblem(ast.Node):
    """A problem with hidden initial states; `problem` is None in a file of hidden states only (no
    `(:domain ...)`: the simulator's files)."""

    name: str
    problem: ast.Problem | None
    hidden: tuple[Hidden, ...] = ()

    def __str__(self) -> str:
        from pddltools.contingent.printer import printed_problem

        return printed_problem(self)
