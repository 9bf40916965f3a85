"""Remove disjunctions (and `imply`) from preconditions and goals.

Requires: a task of actions. Guarantees: every precondition is a conjunction of literals (and of
whatever quantifiers are left: they count as one literal each); the goal too. A precondition becomes
its disjunctive normal form, one copy of the action per disjunct (`NAME-or1`, `NAME-or2` ...); a
disjunctive goal becomes goal-achieving actions (one per disjunct) that add a fresh `goal-reached`
atom, the new goal, and end the plan (every action requires `goal-open`, which they delete).
An effect under a disjunctive condition becomes one conditional effect per disjunct (adds and deletes
are idempotent), unless it assigns a number. The domain stays domain-level, unless a goal-achieving
action names objects of the problem.

Size guard: an action whose normal form would have more than `limit` disjuncts is refused, naming it.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import FALSE, TRUE, conjoin, conjuncts, contradicts, nnf
from pddltools.compile.task import (
    Origin,
    ParsedTask,
    PassResult,
    names_in_use,
    rewrite_actions,
    same_action,
    unique_name,
)
from pddltools.pddl import ast
from pddltools.static_typing import assert_never

LIMIT = 4096
GOAL_DNF = 16  # a goal with more disjuncts than this is checked part by part instead


def _goal_checks(goal: ast.Formula, reached: ast.Atom, domain: ast.Domain, taken: set[str]
                 ) -> list[tuple[ast.Formula, list[ast.Atom]]]:
    """Goal-achieving actions that check a goal in negation normal form part by part, linear in its
    size: one flag per conjunction and disjunction, set by one action per way it can hold. The first
    check ends the plan (it deletes `goal-open`), so every part is checked in the same state."""
    checks: list[tuple[ast.Formula, list[ast.Atom]]] = []
    flags: dict[ast.Formula, ast.Atom] = {}

    def holds(node: ast.Formula) -> ast.Formula:
        """A condition that holds once `node` has been checked (the node itself for a literal)."""
        if not isinstance(node, ast.And | ast.Or):
            return node
        if node in flags:
            return flags[node]
        flag = reached if not flags and node is goal else ast.Atom(unique_name("goal-part", taken))
        flags[node] = flag
        if isinstance(node, ast.And):
            checks.append((conjoin(holds(p) for p in node.parts), [flag]))
        else:
            for part in node.parts:
                checks.append((holds(part), [flag]))
        return flag

    holds(goal)
    return checks


def dnf_size(formula: ast.Formula) -> int:
    """How many disjuncts the normal form of a formula in negation normal form has, before pruning."""
    if isinstance(formula, ast.Or):
        return sum(dnf_size(p) for p in formula.parts)
    if isinstance(formula, ast.And):
        size = 1
        for part in formula.parts:
            size *= dnf_size(part)
        return size
    return 1


def dnf(formula: ast.Formula) -> list[ast.Formula]:
    """The disjuncts (each a conjunction) of a formula in negation normal form; contradictions dropped."""
    if isinstance(formula, ast.Or):
        return [d for p in formula.parts for d in dnf(p)]
    if isinstance(formula, ast.And):
        out: list[ast.Formula] = []
        for combo in itertools.product(*(dnf(p) for p in formula.parts)):
            conjunction = conjoin(combo)
            if conjunction != FALSE and not contradicts(conjuncts(conjunction)) and conjunction not in out:
                out.append(conjunction)
        return out
    return [formula]  # false, the empty disjunction, has no disjuncts above


def _effect_nnf(effect: ast.Effect) -> ast.Effect:
    match effect:
        case ast.AndEffect():
            return ast.AndEffect(tuple(_effect_nnf(p) for p in effect.parts))
        case ast.When():
            condition, body = nnf(effect.condition), _effect_nnf(effect.body)
            cases = dnf(condition)
            # Adds and deletes are idempotent, so an effect under a disjunction may fire once per disjunct
            # that holds; an assignment may not (an increase would count twice), and keeps its disjunction.
            if len(cases) > 1 and not any(isinstance(n, ast.Assign) for n in body.walk()):
                return ast.AndEffect(tuple(ast.When(case, body) for case in cases))
            return ast.When(condition, body) if cases else ast.AndEffect()
        case ast.ForallEffect():
            return replace(effect, body=_effect_nnf(effect.body))
        case ast.Atom() | ast.Not() | ast.Assign() | ast.Timed():
            return effect
        case _:
            assert_never(effect)


def _normal(name: str, formula: ast.Formula, limit: int) -> list[ast.Formula]:
    formula = nnf(formula)
    size = dnf_size(formula)
    if size > limit:
        raise compile_error("E803", f"the precondition of {name} has {size} disjuncts in normal form "
                            f"(more than {limit}); compile it with fewer disjunctions", formula.span)
    return dnf(formula)


def remove_disjunction(task: ParsedTask, limit: int = LIMIT) -> PassResult:
    """Split disjunctive preconditions and goals (see the module docstring)."""
    taken = names_in_use(task.domain)

    def split(action: ast.Action) -> list[tuple[ast.Action, Origin]]:
        effect = _effect_nnf(action.effect) if action.effect is not None else None
        cases = _normal(action.name, action.precondition, limit) if action.precondition else [TRUE]
        if len(cases) == 1:
            return [(replace(action, precondition=cases[0], effect=effect), same_action(action))]
        # no case at all: the action can never apply, and goes
        return [(replace(action, name=unique_name(f"{action.name}-or{i}", taken), precondition=case, effect=effect),
                 same_action(action)) for i, case in enumerate(cases, 1)]

    structures, origins = rewrite_actions(task.domain, split)
    domain, problem = task.domain, task.problem
    if problem.goal is not None:
        goal = nnf(problem.goal)
        goals = _normal("the goal", goal, limit) if dnf_size(goal) <= GOAL_DNF else []
        if len(goals) == 1:
            problem = replace(problem, goal=goals[0])
        else:
            reached = ast.Atom(unique_name("goal-reached", taken))
            # The goal-achieving action ends the plan: after it nothing may undo the goal it saw.
            open_ = ast.Atom(unique_name("goal-open", taken))
            structures = [replace(s, precondition=conjoin([s.precondition or TRUE, open_]))
                          if isinstance(s, ast.Action) else s for s in structures]
            domain = replace(domain, predicates=(*domain.predicates, ast.PredicateDecl(reached.predicate),
                                                 ast.PredicateDecl(open_.predicate)))
            checks = [(conjoin([case, open_]), [reached]) for case in goals] if goals else \
                _goal_checks(goal, reached, domain, taken)
            for i, (condition, adds) in enumerate(checks, 1):
                name = unique_name(f"reach-goal-{i}", taken)
                structures.append(ast.Action(name, (), condition, ast.AndEffect((*adds, ast.Not(open_)))))
                origins[name] = Origin(None)
            parts = dict.fromkeys(a.predicate for _, adds in checks for a in adds if a != reached)
            domain = replace(domain, predicates=(*domain.predicates, *(ast.PredicateDecl(p) for p in parts)))
            problem = replace(problem, goal=reached, init=(*problem.init, open_))
    domain = replace(domain, structures=tuple(structures))
    # Goal-achieving actions name the problem's objects: the domain is then this problem's alone.
    constants = {c.name for c in task.domain.constants}
    specific = any(isinstance(n, ast.Constant) and n.name not in constants
                   for s in structures if isinstance(s, ast.Action) and origins[s.name].action is None
                   for n in (s.precondition.walk() if s.precondition else ()))
    return PassResult(ParsedTask(domain, problem), origins, problem_specific=specific)
