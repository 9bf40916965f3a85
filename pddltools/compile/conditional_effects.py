"""Remove conditional effects (`when`), by one of two compilations chosen per action by size.

Requires: no `forall` effects (remove universal effects first) and no durative actions.
Guarantees: no `when` in any effect; a plan of the result maps back to a plan of the input.

- Direct split: one copy of the action for each combination of its effect conditions holding or not,
  the combination added to the precondition (a negated condition, in negation normal form, may be a
  disjunction that a later pass splits). Exponential in the number of conditions: good for few.
- Polynomial (sequencing, in the spirit of Nebel 2000): the action becomes a start action that takes a
  global lock, then one auxiliary step per condition evaluates it in the unchanged state and remembers
  the outcome, then the remembered deletes, the unconditional effects and the remembered adds are
  applied in turn (deletes before adds, as PDDL's semantics wants), and a last step releases the lock.
  Every action requires the lock to be free and the goal requires it released, so no sequence is left
  half done. Linear in the number of conditions, at the price of longer plans.

The size of each is estimated as the number of actions it makes once later passes have split the
negated conditions' disjunctions. The direct split wins unless it is more than `DIRECT_BIAS` times the
larger: the sequencing makes every plan longer by its steps, which costs a planner more than a few
extra actions do (IPC-1998 logistics: 64 direct copies solve, 39 sequenced actions do not, in pyperplan).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, cast

from pddltools.compile.formulas import (
    FALSE,
    TRUE,
    Conditional,
    build_effect,
    conjoin,
    conjuncts,
    contradicts,
    disjuncts,
    flatten_effect,
    negate_literal,
    nnf,
)
from pddltools.compile.task import Origin, ParsedTask, PassResult, names_in_use, unique_name
from pddltools.pddl import ast
from pddltools.progress import in_words

Method = Literal["auto", "direct", "polynomial"]
DIRECT_BIAS = 2
_Primitive = ast.Atom | ast.Not | ast.Assign


@dataclass(frozen=True)
class _Split:
    unconditional: list[Conditional]
    groups: list[tuple[ast.Formula, list[Conditional]]]  # each condition with the effects under it


def _split(action: ast.Action) -> _Split:
    items = flatten_effect(action.effect)
    pre = set(conjuncts(action.precondition))
    unconditional: list[Conditional] = []
    groups: dict[ast.Formula, list[Conditional]] = {}
    for item in items:
        condition = nnf(item.condition)
        parts = conjuncts(condition)
        if condition == FALSE or any(negate_literal(p) in pre for p in parts if not isinstance(p, ast.And | ast.Or)):
            continue  # can never fire in a state the precondition admits
        rest = [p for p in parts if p not in pre]
        if len(rest) == 1 and isinstance(item.effect, ast.Atom | ast.Not) and rest[0] in (item.effect, _opposite(
                item.effect)):
            # `(when p p)` and `(when (not p) (not p))` change nothing; `(when p (not p))` may as well
            # delete p always (deleting a false atom changes nothing, and an add of p wins anyway).
            # Not so `(when (not p) p)`: made unconditional, it would win over a delete of p.
            if rest[0] == item.effect:
                continue
            if isinstance(item.effect, ast.Not):
                unconditional.append(Conditional(TRUE, item.effect))
                continue
        if not rest:
            unconditional.append(Conditional(TRUE, item.effect))
        else:
            groups.setdefault(conjoin(rest), []).append(Conditional(TRUE, item.effect))
    return _Split(unconditional, list(groups.items()))


def _opposite(effect: ast.Atom | ast.Not) -> ast.Formula:
    return effect.body if isinstance(effect, ast.Not) else ast.Not(effect)


def _negation_size(condition: ast.Formula) -> int:
    return len(disjuncts(nnf(ast.Not(condition))))


def direct_size(split: _Split) -> int:
    size = 1
    for condition, _ in split.groups:
        size *= len(disjuncts(condition)) + _negation_size(condition)
    return size


def polynomial_size(split: _Split) -> int:
    deletes = sum(1 for _, effects in split.groups if any(isinstance(e.effect, ast.Not) for e in effects))
    adds = sum(1 for _, effects in split.groups if any(not isinstance(e.effect, ast.Not) for e in effects))
    evals = sum(len(disjuncts(c)) + _negation_size(c) for c, _ in split.groups)
    return 3 + evals + 2 * deletes + 2 * adds


def _choose(split: _Split, method: Method) -> tuple[bool, int, int]:
    """Whether the action gets the direct split, and the two size estimates the choice was made on."""
    direct, polynomial = direct_size(split), polynomial_size(split)
    return method == "direct" or (method == "auto" and direct <= DIRECT_BIAS * polynomial), direct, polynomial


def estimated_actions(task: ParsedTask, method: Method = "auto") -> int:
    """How many actions the pass will make of `task`'s (before making them: a planner's user is told
    when the answer is a compilation too big to wait for)."""
    total = 0
    for action in task.domain.actions:
        split = _split(action)
        if not split.groups:
            total += 1
            continue
        use_direct, direct, polynomial = _choose(split, method)
        total += direct if use_direct else polynomial
    return total


def _direct(action: ast.Action, split: _Split, taken: set[str]) -> list[ast.Action]:
    copies: list[ast.Action] = []
    combos = itertools.product((True, False), repeat=len(split.groups))
    for combo in combos:
        conditions: list[ast.Formula] = [action.precondition or TRUE]
        effects = list(split.unconditional)
        for holds, (condition, group) in zip(combo, split.groups, strict=True):
            conditions.append(condition if holds else nnf(ast.Not(condition)))
            if holds:
                effects.extend(group)
        precondition = conjoin(conditions)
        if precondition == FALSE or contradicts(conjuncts(precondition)):
            continue
        if effects:  # a copy that changes nothing is never needed in a plan
            copies.append(replace(action, precondition=precondition, effect=build_effect(effects)))
    if len(copies) == 1:
        return copies
    return [replace(c, name=unique_name(f"{action.name}-ce{i}", taken)) for i, c in enumerate(copies, 1)]


class _Sequencer:
    """Builds the polynomial compilation of the actions that get it; owns the lock predicate."""

    def __init__(self, taken: set[str]) -> None:
        self.taken = taken
        self.lock = unique_name("ce-idle", taken)
        self.predicates: list[ast.PredicateDecl] = []
        self.used = False

    def flag(self, name: str, parameters: Sequence[ast.TypedName] = ()) -> ast.Atom:
        name = unique_name(name, self.taken)
        self.predicates.append(ast.PredicateDecl(name, tuple(parameters)))
        return ast.Atom(name, tuple(ast.Variable(p.name) for p in parameters))

    def compile(self, action: ast.Action, split: _Split) -> list[ast.Action]:
        self.used = True
        lock = ast.Atom(self.lock)
        run = self.flag(f"ce-run-{action.name}", action.parameters)
        steps: list[tuple[str, list[tuple[ast.Formula, list[ast.Effect]]]]] = []
        # Each step is a list of alternatives (condition, effects); exactly one applies in any state.
        fired: list[tuple[ast.Atom, ast.Atom]] = []
        for i, (condition, _) in enumerate(split.groups, 1):
            fire, skip = self.flag(f"ce-{action.name}-fire{i}"), self.flag(f"ce-{action.name}-skip{i}")
            fired.append((fire, skip))
            steps.append((f"eval{i}", [(condition, [fire]), (nnf(ast.Not(condition)), [skip])]))
        last_use: dict[int, str] = {}
        for i, (_, group) in enumerate(split.groups):
            last_use[i] = "add" if any(not isinstance(e.effect, ast.Not) for e in group) else "del"
        for phase in ("del", "add"):
            if phase == "add":
                middle: list[ast.Effect] = [e.effect for e in split.unconditional]
                if middle:
                    steps.append(("apply", [(TRUE, middle)]))
            for i, (_, group) in enumerate(split.groups):
                chosen = [e.effect for e in group if isinstance(e.effect, ast.Not) == (phase == "del")]
                if not chosen:
                    continue
                fire, skip = fired[i]
                done: list[ast.Effect] = [ast.Not(fire)] if last_use[i] == phase else []
                skipped: list[ast.Effect] = [ast.Not(skip)] if last_use[i] == phase else []
                steps.append((f"{phase}{i + 1}", [(fire, chosen + done), (skip, skipped)]))
        phases = [self.flag(f"ce-{action.name}-{label}") for label, _ in steps]
        start_effect: list[ast.Effect] = [ast.Not(lock), run, phases[0]]
        out = [replace(action, precondition=conjoin([action.precondition or TRUE, lock]),
                       effect=ast.AndEffect(tuple(start_effect)))]
        for n, (label, alternatives) in enumerate(steps):
            advance: list[ast.Effect] = [ast.Not(phases[n])]
            advance += [phases[n + 1]] if n + 1 < len(steps) else [ast.Not(run), lock]
            for j, (condition, effects) in enumerate(alternatives):
                suffix = "" if len(alternatives) == 1 else ("-yes" if j == 0 else "-no")
                name = unique_name(f"{action.name}--{label}{suffix}", self.taken)
                effect = build_effect(Conditional(TRUE, cast(_Primitive, e)) for e in [*effects, *advance])
                out.append(ast.Action(name, action.parameters, conjoin([run, phases[n], condition]), effect))
        return out


def remove_conditional_effects(task: ParsedTask, method: Method = "auto") -> PassResult:
    """Remove every `when` (see the module docstring); the notes say which compilation each action got."""
    taken = names_in_use(task.domain)
    sequencer = _Sequencer(taken)
    origins: dict[str, Origin] = {}
    notes: list[str] = []
    built: list[ast.Structure | None] = []
    sequenced: list[str] = []
    for structure in task.domain.structures:
        if not isinstance(structure, ast.Action):
            built.append(structure)
            continue
        split = _split(structure)
        identity = tuple(range(len(structure.parameters)))
        if not split.groups:
            origins[structure.name] = Origin(structure.name, identity)
            built.append(replace(structure, effect=build_effect(split.unconditional)))
            continue
        use_direct, direct, polynomial = _choose(split, method)
        if use_direct:
            copies = _direct(structure, split, taken)
            for copy in copies:
                origins[copy.name] = Origin(structure.name, identity)
        else:
            copies = sequencer.compile(structure, split)
            origins[copies[0].name] = Origin(structure.name, identity)
            for aux in copies[1:]:
                origins[aux.name] = Origin(None)
            sequenced.append(structure.name)
        notes.append(f"{structure.name}: {len(split.groups)} effect conditions, "
                     f"{'direct split' if use_direct else 'polynomial sequencing'} "
                     f"(estimated actions: direct {in_words(direct)}, polynomial {in_words(polynomial)})")
        built.extend(copies)
    structures = [s for s in built if s is not None]
    domain, problem = task.domain, task.problem
    if sequencer.used:
        lock = ast.Atom(sequencer.lock)
        first = {name for name, origin in origins.items() if origin.action is not None}
        structures = [replace(s, precondition=conjoin([s.precondition or TRUE, lock]))
                      if isinstance(s, ast.Action) and s.name in first and s.name not in sequenced else s
                      for s in structures]
        predicates = (*domain.predicates, ast.PredicateDecl(sequencer.lock), *sequencer.predicates)
        domain = replace(domain, predicates=predicates)
        problem = replace(problem, init=(*problem.init, lock),
                          goal=conjoin([problem.goal or TRUE, lock]))
    domain = replace(domain, structures=tuple(structures))
    return PassResult(ParsedTask(domain, problem), origins, notes=tuple(notes))
