"""0-ary functions written without parentheses (PDDL 3.1): `(> v 5)`, `(* #t a)`, `(:metric minimize d)`.

The grammar reads a bare name where an expression may stand as a `Constant`, since a name alone could
be an object (`(= ?x depot)`) as well as a 0-ary function (`(= d 0)`); only the declarations tell
which. `resolve_zero_ary` reads them: a bare name in an expression (either side of a comparison, an
operand of arithmetic, the amount of an update, the metric) that names a 0-ary function of the domain
becomes that function's `FunctionTerm` (with the name's span); any other name stays an object. A fluent
being assigned, and one in :init (`(= d 0)`), are function terms already in the grammar.

The checker and the semantics apply it to what they are given, so that they, and every pass after
them, see one form of the function, as PDDL 3.1's BNF means: `<f-exp> ::= <function-symbol>`.
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.pddl import ast

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    N = TypeVar("N", bound=ast.Node)

TOTAL_TIME = "total-time"

#: nodes whose sub-nodes are all expressions (an `Assign`'s value is handled apart from its fluent)
_EXPRESSION_HOLDERS = (ast.Comparison, ast.Arithmetic, ast.Metric)
#: nodes below which no expression stands: their names are objects (arguments) or literal values
_NO_EXPRESSIONS = (ast.Atom, ast.FunctionTerm, ast.InitAssignment, ast.TypedName)


def zero_ary_functions(domain: ast.Domain) -> frozenset[str]:
    return frozenset(f.name for f in domain.functions if not f.parameters)


def resolve_zero_ary(node: N, functions: frozenset[str]) -> N:
    """`node` with each bare name of a 0-ary function in `functions` that stands as an expression
    made a `FunctionTerm`; `node` itself when there is none (shared, not copied). Iterative: a formula
    nested thousands deep is rebuilt without recursion."""
    if not functions:
        return node
    order: list[ast.Node] = []  # depth first, parents before children
    kids: list[list[int]] = []  # each node's children, as indices into `order`
    targets: dict[int, ast.FunctionTerm] = {}
    stack: list[tuple[ast.Node, int, bool]] = [(node, -1, False)]
    while stack:
        current, parent, as_expression = stack.pop()
        index = len(order)
        order.append(current)
        kids.append([])
        if parent >= 0:
            kids[parent].append(index)
        if isinstance(current, ast.Constant):
            if as_expression and current.name in functions:
                targets[index] = ast.FunctionTerm(current.name, (), span=current.span)
            continue
        if isinstance(current, _NO_EXPRESSIONS):
            continue
        below = current.child_list()
        if isinstance(current, _EXPRESSION_HOLDERS):
            flags = [True] * len(below)
        elif isinstance(current, ast.Assign):
            flags = [child is current.value for child in below]
        else:
            flags = [False] * len(below)
        # pushed in reverse, so that children are visited, and listed in `kids`, in source order
        stack.extend((child, index, flag) for child, flag in zip(reversed(below), reversed(flags), strict=True))
    if not targets:
        return node
    rebuilt: dict[int, ast.Node] = dict(targets)
    for index in range(len(order) - 1, -1, -1):  # children before their parents
        children = kids[index]
        if index in rebuilt or not any(child in rebuilt for child in children):
            continue
        rebuilt[index] = order[index].rebuild([rebuilt.get(child, order[child]) for child in children])
    result = rebuilt.get(0, node)
    assert isinstance(result, type(node))
    return result


def resolve_problem(problem: ast.Problem, functions: frozenset[str]) -> ast.Problem:
    """`resolve_zero_ary` over the parts of a problem that hold expressions: its goal, constraints and
    metric (its :init, most of a large problem, holds none)."""
    goal = resolve_zero_ary(problem.goal, functions) if problem.goal is not None else None
    constraints = resolve_zero_ary(problem.constraints, functions) if problem.constraints is not None else None
    # the metric may also read `total-time`, which no domain declares
    metric = resolve_zero_ary(problem.metric, functions | {TOTAL_TIME}) if problem.metric is not None else None
    if goal is problem.goal and constraints is problem.constraints and metric is problem.metric:
        return problem
    return replace(problem, goal=goal, constraints=constraints, metric=metric)


def resolve_task(domain: ast.Domain, problem: ast.Problem) -> tuple[ast.Domain, ast.Problem]:
    """A domain and a problem of it, each with its bare 0-ary function names resolved."""
    functions = zero_ary_functions(domain)
    return resolve_zero_ary(domain, functions), resolve_problem(problem, functions)
