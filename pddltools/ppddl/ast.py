"""PPDDL's nodes: the probabilistic effect, its outcomes, and a problem with its goal reward.

Probabilities are exact (`fractions.Fraction`), as written: `1/4` and `0.25` are the same number.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pddltools.pddl import ast


@dataclass(frozen=True, slots=True)
class Outcome(ast.Node):
    """One branch of a probabilistic effect: `effect` happens with `probability`."""

    probability: Fraction
    #: a PDDL effect or a nested probabilistic one; typed as a node so that `walk`, `map_children` and
    #: `substitute` reach it (a field typed `Any` is no child of the tree)
    effect: ast.Node


@dataclass(frozen=True, slots=True)
class Probabilistic(ast.Node):
    """`(probabilistic p1 e1 ... pn en)`: at most one outcome happens; none with 1 - sum(pi)."""

    outcomes: tuple[Outcome, ...]

    @property
    def remainder(self) -> Fraction:
        """The probability that no outcome happens."""
        return 1 - sum((o.probability for o in self.outcomes), Fraction(0))


@dataclass(frozen=True, slots=True)
class PPDDLProblem(ast.Node):
    """A problem with `(:goal-reward n)`, the reward for reaching the goal (IPPC)."""

    problem: ast.Problem
    goal_reward: Any = None  # a PDDL expression

    @property
    def name(self) -> str:
        return self.problem.name

    def __str__(self) -> str:
        from pddltools.ppddl.printer import printed

        return printed(self)


@dataclass(frozen=True, slots=True)
class PPDDLFile(ast.Node):
    """mdpsim's kind of file: several definitions (a domain and its problems) one after the other."""

    definitions: tuple[Any, ...]  # PDDL domains, problems and `PPDDLProblem`s, in file order

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.definitions)
