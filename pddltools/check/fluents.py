"""Functions against the initial state: a numeric function read (in a precondition, a goal, a duration,
an update or the metric) that no problem gives a value and no effect assigns has no value when read.
"""

from __future__ import annotations

from collections.abc import Iterator

from pddltools.check.codes import finding
from pddltools.check.facts import DomainFacts
from pddltools.check.features import TOTAL_TIME
from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast


def _reads(node: ast.Node | None) -> Iterator[ast.FunctionTerm]:
    if node is not None:
        yield from (sub for sub in node.walk() if isinstance(sub, ast.FunctionTerm))


def uninitialised_functions(domain: ast.Domain, problem: ast.Problem, facts: DomainFacts,
                            object_functions: frozenset[str]) -> list[Diagnostic]:
    initialised = {e.fluent.function for e in problem.init if isinstance(e, ast.InitAssignment)}
    initialised |= {e.body.fluent.function for e in problem.init
                    if isinstance(e, ast.TimedInitial) and isinstance(e.body, ast.InitAssignment)}
    assigned = facts.assigned_functions
    declared = {f.name for f in domain.functions}
    found: list[Diagnostic] = []
    reads = dict(facts.first_function_reads)
    for formula in (problem.goal, problem.constraints, problem.metric.expression if problem.metric else None):
        for term in _reads(formula):
            reads.setdefault(term.function, term)
    for name, term in reads.items():
        if name in initialised or name in assigned or name == TOTAL_TIME or name not in declared:
            continue
        if name in object_functions:
            continue
        found.append(finding("W601", f"function {name} is read, but problem {problem.name} gives it no initial "
                             "value and no action assigns it", term.span,
                             notes=((f"problem {problem.name}", problem.span),)))
    return found
