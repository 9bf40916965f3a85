"""What a domain author would like to know but is not wrong: static and unused predicates, unused
parameters, and goals that no action can ever make true."""

from __future__ import annotations

from collections.abc import Iterable

from pddltools.check.codes import finding
from pddltools.check.facts import DomainFacts
from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast


def domain_information(domain: ast.Domain, facts: DomainFacts) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    added, deleted, used = facts.added, facts.deleted, facts.read_predicates
    derived = {d.predicate.name for d in domain.derived_predicates}
    for predicate in domain.predicates:
        name = predicate.name
        if name not in used:
            found.append(finding("I403", f"predicate {name} is not used by any action or derived predicate",
                                 predicate.span))
        elif name not in added and name not in deleted and name not in derived:
            found.append(finding("I402", f"predicate {name} is static: no action changes it, so only the initial "
                                 "state sets it", predicate.span))
    for structure in (*domain.structures, *domain.processes, *domain.events):
        if isinstance(structure, ast.DerivedPredicate):
            continue
        mentioned = facts.mentioned.get(id(structure), set())
        for parameter in structure.parameters:
            if parameter.name not in mentioned:
                found.append(finding("I404", f"parameter {parameter.name} of {structure.name} is never used",
                                     parameter.span))
    return found


def unreachable_goals(domain: ast.Domain, problem: ast.Problem, facts: DomainFacts) -> list[Diagnostic]:
    """Hard goal literals that no action can make true (or false) and that init does not already satisfy."""
    if problem.goal is None:
        return []
    added, deleted = facts.added, facts.deleted
    derived = {d.predicate.name for d in domain.derived_predicates}
    literals = list(_goal_literals(problem.goal))
    suspects = [(atom, positive) for atom, positive in literals if atom.predicate not in derived
                and atom.predicate not in (added if positive else deleted)]
    if not suspects:
        return []
    wanted = {atom.predicate for atom, _ in suspects}
    init = {_key(e) for e in problem.init if isinstance(e, ast.Atom) and e.predicate in wanted}
    timed = {_key(e.body) for e in problem.init if isinstance(e, ast.TimedInitial) and isinstance(e.body, ast.Atom)}
    found: list[Diagnostic] = []
    for atom, positive in suspects:
        key = _key(atom)
        if positive and key not in init and key not in timed:
            found.append(finding("W401", f"goal {atom} can never be reached: no action adds {atom.predicate} and "
                                 "the initial state does not hold it", atom.span))
        elif not positive and key in init:
            found.append(finding("W401", f"goal (not {atom}) can never be reached: no action deletes "
                                 f"{atom.predicate} and the initial state holds {atom}", atom.span))
    return found


def _key(atom: ast.Atom) -> tuple[str, tuple[str, ...]]:
    return atom.predicate, tuple(getattr(arg, "name", str(arg)) for arg in atom.args)


def _goal_literals(goal: ast.Formula) -> Iterable[tuple[ast.Atom, bool]]:
    """The ground literals the goal requires outright (inside conjunctions; not soft, not disjunctive)."""
    stack: list[ast.Node] = [goal]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.And):
            stack.extend(node.parts)
        elif isinstance(node, ast.Atom) and all(isinstance(a, ast.Constant) for a in node.args):
            yield node, True
        elif isinstance(node, ast.Not) and isinstance(node.body, ast.Atom) \
                and all(isinstance(a, ast.Constant) for a in node.body.args):
            yield node.body, False
