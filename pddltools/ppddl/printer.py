"""How the PPDDL nodes print: the printer's rules for its own nodes and the layout of its files.

Apart from `ppddl/dialect.py` (which registers the language, with its checks) so that a node prints
without importing the checker: the AST is below the checks (docs/architecture.md, "Floors").
"""

from __future__ import annotations

from fractions import Fraction

from pddltools.pddl import printer
from pddltools.pddl.exact_numbers import format_number
from pddltools.pddl.printer import add_printer_rules, flat, sexp
from pddltools.ppddl.ast import Outcome, PPDDLProblem, Probabilistic


def probability_text(p: Fraction) -> str:
    """A decimal when it has one (0.4), else the fraction (1/3)."""
    rest = p.denominator
    for factor in (2, 5):
        while rest % factor == 0:
            rest //= factor
    return format_number(p) if rest == 1 else f"{p.numerator}/{p.denominator}"


add_printer_rules(Outcome, lambda n: f"{probability_text(n.probability)} {flat(n.effect)}")
add_printer_rules(Probabilistic, lambda n: sexp("probabilistic", *map(flat, n.outcomes)),
                  lambda n: ("probabilistic", list(n.outcomes)))


def printed(node: PPDDLProblem) -> str:
    reward = [f"(:goal-reward {flat(node.goal_reward)})"] if node.goal_reward is not None else []
    return printer.problem(node.problem, reward)
