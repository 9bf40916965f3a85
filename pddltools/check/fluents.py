"""Functions against the initial state: a numeric function read (in a precondition, a goal, a duration,
an update or the metric) that no problem gives a value and no effect assigns has no value when read;
except `total-cost` as a cost counter, which starts at 0 (`pddltools.pddl.action_costs`).
"""

from __future__ import annotations

from collections.abc import Iterator

from pddltools.check.codes import finding
from pddltools.check.facts import DomainFacts
from pddltools.check.features import TOTAL_TIME
from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast
from pddltools.pddl.action_costs import COST, starts_at_zero


def _reads(node: ast.Node | None) -> Iterator[ast.FunctionTerm]:
    if node is not None:
        yield from (sub for sub in node.walk() if isinstance(sub, ast.FunctionTerm))


def uninitialised_functions(domain: ast.Domain, problem: ast.Problem, facts: DomainFacts,
                            object_functions: frozenset[str]) -> list[Diagnostic]:
    assigned = facts.assigned_functions
    declared = {f.name for f in domain.functions}
    found: list[Diagnostic] = []
    reads = dict(facts.first_function_reads)
    for formula in (problem.goal, problem.constraints, problem.metric.expression if problem.metric else None):
        for term in _reads(formula):
            reads.setdefault(term.function, term)
    wanted = {name: term for name, term in reads.items() if name not in assigned and name != TOTAL_TIME
              and name in declared and name not in object_functions}
    if not wanted:  # nothing to look for in :init, the whole of a large problem
        return found
    initialised: set[str] = set()
    for element in problem.init:
        if isinstance(element, ast.Atom):
            continue
        body = element.body if isinstance(element, ast.TimedInitial) else element
        if isinstance(body, ast.InitAssignment):
            initialised.add(body.fluent.function)
    counter: bool | None = None  # whether total-cost starts at 0: another look through :init, when needed
    for name, term in wanted.items():
        if name in initialised:
            continue
        where = ((f"problem {problem.name}", problem.span),)
        if name == COST and counter is None:
            counter = starts_at_zero(domain, problem)
        if name == COST and counter:
            found.append(finding("I604", f"{COST} has no initial value in problem {problem.name}: it is read as 0, "
                                 "as Fast Downward and VAL read it (the domain only increases it and the metric "
                                 "minimises it)", term.span, notes=where))
            continue
        found.append(finding("W601", f"function {name} is read, but problem {problem.name} gives it no initial "
                             f"value{_changed(name, facts)}", term.span, notes=where))
    return found


def _changed(name: str, facts: DomainFacts) -> str:
    """What the domain does to a function without an initial value: no action assigns it (an assign
    would give it one); an increase, decrease or scale changes a value that is not there."""
    if name in facts.changed_functions:
        return ", and the actions that change it (increase, decrease, scale) need a value to change"
    return " and no action assigns it"
