"""The action-costs convention: `total-cost` as a cost counter that starts at 0 when :init is silent.

PDDL leaves a function without an initial value undefined. But IPC benchmarks (IPC-2018 agricola,
IPC-2014 tetris, IPC-2018 settlers) leave `total-cost` out of :init, and Fast Downward and VAL read it
as 0: Fast Downward because action costs are only ever added up, VAL because an update of a value it
has never stored starts from 0. This module decides when `total-cost` is such a counter, so that the
semantics (its initial state) and the checker (its W601 and I604) read the same rule.
"""

from __future__ import annotations

from pddltools.pddl import ast

COST = "total-cost"


def _is_cost(node: ast.Node) -> bool:
    """`(total-cost)`, or `total-cost` written bare where a 0-ary function may be (a metric)."""
    return (isinstance(node, ast.FunctionTerm) and node.function == COST and not node.args) or (
        isinstance(node, ast.Constant) and node.name == COST)


def _initialised(problem: ast.Problem) -> bool:
    for element in problem.init:
        body = element.body if isinstance(element, ast.TimedInitial) else element
        if isinstance(body, ast.InitAssignment) and body.fluent.function == COST:
            return True
    return False


def only_increased(domain: ast.Domain) -> bool:
    """Every mention of `total-cost` in the domain is the fluent an `increase` effect adds to: nothing
    reads its value (a condition, a duration, another effect's amount) or sets it otherwise."""
    parts: list[ast.Node] = [*domain.structures, *domain.processes, *domain.events]  # axioms are structures
    if domain.constraints is not None:
        parts.append(domain.constraints)
    increased = mentioned = 0
    for part in parts:
        for node in part.walk():
            if isinstance(node, ast.Assign) and _is_cost(node.fluent):
                if node.op != "increase":
                    return False
                increased += 1
            elif _is_cost(node):
                mentioned += 1
    return increased == mentioned


def starts_at_zero(domain: ast.Domain, problem: ast.Problem) -> bool:
    """Whether `total-cost` is a cost counter the problem leaves without an initial value, to be read
    as 0: a 0-ary function of the domain, absent from :init, the whole metric (minimised), only ever
    increased by the domain, and not read by the goal or the problem's constraints."""
    declared = any(f.name == COST and not f.parameters for f in domain.functions)
    metric = problem.metric
    if not declared or metric is None or metric.direction != "minimize" or not _is_cost(metric.expression):
        return False
    if _initialised(problem):
        return False
    for formula in (problem.goal, problem.constraints):
        if formula is not None and any(_is_cost(node) for node in formula.walk()):
            return False
    return only_increased(domain)
