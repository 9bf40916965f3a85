"""Compile soft goals (goal preferences of net-benefit tasks) into action costs, after Keyder & Geffner
(2009), "Soft goals can be compiled away".

Requires: preferences only in the goal (none in preconditions or trajectory constraints), and a metric
that is linear in `total-cost` and the `is-violated` counts, penalising violations (what IPC-2008's
net-benefit track writes: `maximize (- K (+ (total-cost) (* (is-violated p) c) ...))`).
Guarantees: no preferences and no `is-violated`. Every action requires a fresh `normal-mode` atom; an
`end` action leaves normal mode; then, for each soft goal `p`, either `collect-p` (requires `p`'s formula,
costs nothing) or `forgo-p` (requires nothing, costs `p`'s penalty in units of total-cost) marks `p` as
settled. The goal is the hard goals and every soft goal settled, the metric `minimize (total-cost)`: a
cheapest plan of the result is a best plan of the original. The new actions name the problem's objects,
so the result is problem-specific.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from pddltools.check.features import TOTAL_COST
from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import TRUE, conjoin, conjuncts
from pddltools.compile.task import Origin, ParsedTask, PassResult, identity, names_in_use, unique_name
from pddltools.pddl import ast

Linear = tuple[Fraction, dict[str, Fraction]]  # constant, coefficient per term ("total-cost", "pref:NAME")


def _linear(expression: ast.Expression) -> Linear:
    if isinstance(expression, ast.Number):
        return Fraction(expression.value), {}
    if isinstance(expression, ast.FunctionTerm) and expression.function == TOTAL_COST and not expression.args:
        return Fraction(0), {TOTAL_COST: Fraction(1)}
    if isinstance(expression, ast.IsViolated):
        return Fraction(0), {"pref:" + expression.preference: Fraction(1)}
    if isinstance(expression, ast.Arithmetic):
        parts = [_linear(a) for a in expression.args]
        if expression.op == "+" or (expression.op == "-" and len(parts) == 1):
            sign = -1 if expression.op == "-" else 1
            return _sum([(c * sign, {k: v * sign for k, v in t.items()}) for c, t in parts])
        if expression.op == "-":
            first, *rest = parts
            return _sum([first, *((-c, {k: -v for k, v in t.items()}) for c, t in rest)])
        if expression.op == "*" and sum(1 for _, t in parts if t) <= 1:
            factor = Fraction(1)
            for c, t in parts:
                if not t:
                    factor *= c
            varying = [(c, t) for c, t in parts if t]
            if not varying:
                return factor, {}
            c, t = varying[0]
            return factor * c, {k: v * factor for k, v in t.items()}
    raise compile_error("E801", f"the metric {expression} is not linear in total-cost and is-violated",
                        expression.span)


def _sum(parts: list[Linear]) -> Linear:
    constant, terms = Fraction(0), dict[str, Fraction]()
    for c, t in parts:
        constant += c
        for k, v in t.items():
            terms[k] = terms.get(k, Fraction(0)) + v
    return constant, terms


def _number(value: Fraction) -> ast.Number:
    return ast.Number(value.numerator if value.denominator == 1 else value)


def remove_soft_goals(task: ParsedTask) -> PassResult:
    """Compile the goal's preferences into costs (see the module docstring)."""
    domain, problem = task.domain, task.problem
    for structure in domain.structures:
        for node in structure.walk():
            if isinstance(node, ast.Preference):
                raise compile_error("E801", "preferences in preconditions cannot be compiled into costs", node.span)
    if problem.constraints is not None and any(isinstance(n, ast.Preference) for n in problem.constraints.walk()):
        raise compile_error("E801", "preferences over trajectories cannot be compiled into costs",
                            problem.constraints.span)
    hard: list[ast.Formula] = []
    soft: list[ast.Preference] = []
    for part in conjuncts(problem.goal):
        (soft if isinstance(part, ast.Preference) else hard).append(part)  # type: ignore[arg-type]
    direction = problem.metric.direction if problem.metric else "minimize"
    _, terms = _linear(problem.metric.expression) if problem.metric else (Fraction(0), {})
    sign = 1 if direction == "minimize" else -1
    unit = sign * terms.get(TOTAL_COST, Fraction(0))
    if unit < 0:
        raise compile_error("E801", "the metric rewards total cost; soft goals cannot be compiled into costs")
    taken = names_in_use(domain)
    normal = ast.Atom(unique_name("normal-mode", taken))
    ended = ast.Atom(unique_name("end-mode", taken))
    increase_cost = domain.functions and any(f.name == TOTAL_COST for f in domain.functions)
    structures = [replace(s, precondition=conjoin([s.precondition or TRUE, normal]))
                  if isinstance(s, ast.Action) else s for s in domain.structures]
    origins = identity(domain)
    end = unique_name("end", taken)
    structures.append(ast.Action(end, (), normal, ast.AndEffect((ast.Not(normal), ended))))
    origins[end] = Origin(None)
    predicates = [*domain.predicates, ast.PredicateDecl(normal.predicate), ast.PredicateDecl(ended.predicate)]
    settled: list[ast.Formula] = []
    cost = ast.FunctionTerm(TOTAL_COST)
    for n, preference in enumerate(soft, 1):
        label = preference.name or f"soft{n}"
        penalty = sign * terms.get("pref:" + label, Fraction(0)) if preference.name else Fraction(0)
        if penalty < 0:
            raise compile_error("E801", f"the metric rewards violating {label}", preference.span)
        penalty = penalty / unit if unit else penalty
        done = ast.Atom(unique_name(f"settled-{label}", taken))
        predicates.append(ast.PredicateDecl(done.predicate))
        settled.append(done)
        collect, forgo = unique_name(f"collect-{label}", taken), unique_name(f"forgo-{label}", taken)
        structures.append(ast.Action(collect, (), conjoin([ended, preference.body]), ast.AndEffect((done,))))
        effects: tuple[ast.Effect, ...] = (done, ast.Assign("increase", cost, _number(penalty))) if penalty else (done,)
        structures.append(ast.Action(forgo, (), ended, ast.AndEffect(effects)))
        origins[collect] = origins[forgo] = Origin(None)
    functions = domain.functions if increase_cost else (*domain.functions, ast.FunctionDecl(TOTAL_COST, (),
                                                                                            ast.TypeName("number")))
    init = problem.init
    if not any(isinstance(e, ast.InitAssignment) and e.fluent.function == TOTAL_COST for e in init):
        init = (*init, ast.InitAssignment(cost, ast.Number(0)))
    domain = replace(domain, predicates=tuple(predicates), functions=tuple(functions), structures=tuple(structures))
    problem = replace(problem, init=(*init, normal), goal=conjoin([*hard, ended, *settled]),
                      metric=ast.Metric("minimize", cost))
    return PassResult(ParsedTask(domain, problem), origins, problem_specific=True,
                notes=(f"{len(soft)} soft goals compiled into collect/forgo actions",))
