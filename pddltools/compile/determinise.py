"""Determinisation: a FOND or PPDDL task as a classical one, whose plans map back to (action, outcome) steps.

An effect with choices (FOND's `oneof`, PPDDL's `probabilistic`) has outcomes: `oneof` one per branch,
`probabilistic` one per branch with its probability and, when they sum below 1, the empty outcome with
the rest; an `and` of choices has the combinations of its parts' outcomes (probabilities multiplied), and
a choice under `when` or `forall` keeps its condition or quantifier around each outcome (the choice is
made once for the action, as the FF-Replan determinisations read it).

- **all outcomes**: one action per outcome of each action, named `ACTION_oN` (N counting from 1 in the
  order outcomes are written), with the action's parameters;
- **most likely**: each action with its most probable outcome (FOND: the first written), under its own
  name.

A plan of the determinised task is a weak plan of the original: each step names the outcome it relies
on. Its `Origin`s give each step's original action, arguments and outcome (`Origin.outcome`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Any, Literal

from pddltools.compile.task import Origin, ParsedTask, PassResult, names_in_use, unique_name
from pddltools.fond.ast import OneOf
from pddltools.pddl import ast
from pddltools.ppddl.ast import Probabilistic
from pddltools.ppddl.dialect import REWARD

Mode = Literal["all-outcomes", "most-likely"]
MODES: tuple[Mode, ...] = ("all-outcomes", "most-likely")


@dataclass(frozen=True)
class Outcome:
    effect: Any  # a deterministic PDDL effect
    probability: Fraction | None  # None: FOND (no probability)


def outcomes(effect: Any) -> list[Outcome]:
    """The outcomes of an effect, in the order they are written."""
    if isinstance(effect, OneOf):
        return [o for branch in effect.outcomes for o in outcomes(branch)]
    if isinstance(effect, Probabilistic):
        found = [Outcome(inner.effect, _times(branch.probability, inner.probability))
                 for branch in effect.outcomes for inner in outcomes(branch.effect)]
        if effect.remainder > 0:
            found.append(Outcome(ast.AndEffect((), span=effect.span), effect.remainder))
        return found
    if isinstance(effect, ast.AndEffect):
        parts = [outcomes(p) for p in effect.parts]
        if all(len(p) == 1 for p in parts):
            return [Outcome(effect, None)]
        return [Outcome(ast.AndEffect(tuple(o.effect for o in combo), span=effect.span),
                        _product([o.probability for o in combo])) for combo in product(*parts)]
    if isinstance(effect, ast.When):
        return [Outcome(replace(effect, body=o.effect), o.probability) for o in outcomes(effect.body)]
    if isinstance(effect, ast.ForallEffect):
        return [Outcome(replace(effect, body=o.effect), o.probability) for o in outcomes(effect.body)]
    return [Outcome(effect, None)]


def _times(a: Fraction, b: Fraction | None) -> Fraction:
    return a if b is None else a * b


def _product(values: Sequence[Fraction | None]) -> Fraction | None:
    known = [v for v in values if v is not None]
    if not known:
        return None
    result = Fraction(1)
    for value in known:
        result *= value
    return result


def determinise(task: ParsedTask, mode: Mode) -> tuple[PassResult, dict[str, str]]:
    """The classical task, with each action's origin (outcome included), and for the weak-plan check
    the determinised action of each `ACTION/N` (outcome N of ACTION)."""
    taken = names_in_use(task.domain)
    structures: list[Any] = []
    origins: dict[str, Origin] = {}
    named: dict[str, str] = {}
    pick: Callable[[list[Outcome]], int] = _most_likely
    for structure in task.domain.structures:
        if not isinstance(structure, ast.Action):
            structures.append(structure)
            continue
        args = tuple(range(len(structure.parameters)))
        found = outcomes(structure.effect) if structure.effect is not None else [Outcome(None, None)]
        if len(found) == 1 or mode == "most-likely":
            index = pick(found) if len(found) > 1 else 0
            structures.append(replace(structure, effect=found[index].effect))
            origins[structure.name] = Origin(structure.name, args, index + 1 if len(found) > 1 else None)
            named[f"{structure.name}/{index + 1}"] = structure.name
            continue
        taken.discard(structure.name)
        for number, outcome in enumerate(found, 1):
            name = unique_name(f"{structure.name}_o{number}", taken)
            structures.append(replace(structure, name=name, effect=outcome.effect))
            origins[name] = Origin(structure.name, args, number)
            named[f"{structure.name}/{number}"] = name
    requirements = tuple(r for r in task.domain.requirements
                         if r.name not in (":non-deterministic", ":probabilistic-effects", ":mdp", ":rewards"))
    domain = replace(task.domain, structures=tuple(_without_rewards(s) for s in structures), requirements=requirements)
    problem = task.problem
    if problem.metric is not None and any(isinstance(n, ast.FunctionTerm) and n.function == REWARD
                                          for n in problem.metric.walk()):
        problem = replace(problem, metric=None)  # PPDDL's reward is no classical metric
    notes = (f"{mode}: {len(task.domain.actions)} actions became {len(domain.actions)}",)
    return PassResult(ParsedTask(domain, problem), origins, notes=notes), named


def _without_rewards(structure: Any) -> Any:
    """PPDDL's changes of the reward fluent dropped (a classical planner has no reward)."""
    if not isinstance(structure, ast.Action) or structure.effect is None:
        return structure

    def strip(node: Any) -> Any:
        if isinstance(node, ast.AndEffect):
            kept = tuple(strip(p) for p in node.parts
                         if not (isinstance(p, ast.Assign) and p.fluent.function == REWARD))
            return replace(node, parts=kept)
        if isinstance(node, ast.When | ast.ForallEffect):
            return replace(node, body=strip(node.body))
        if isinstance(node, ast.Assign) and node.fluent.function == REWARD:
            return ast.AndEffect((), span=node.span)
        return node

    return replace(structure, effect=strip(structure.effect))


def _most_likely(found: list[Outcome]) -> int:
    """The most probable outcome (the first written of the most probable; FOND's first)."""
    best = 0
    for index, outcome in enumerate(found):
        if (outcome.probability or 0) > (found[best].probability or 0):
            best = index
    return best
