"""A Unified Planning problem back to pddltools' PDDL AST: `(Domain, Problem)`.

What UP does not keep comes back in a fixed form:
- requirements are recomputed from what is used;
- objects used by an action are domain constants, the others problem objects;
- `MinimizeActionCosts` is a `total-cost` function that starts at 0, an `(increase (total-cost) c)` at
  the end of each action with a non-zero cost (at end for a durative action), and
  `(:metric minimize (total-cost))`; `MinimizeSequentialPlanLength` is the same with every cost 1;
- a precondition or condition is one conjunction; UP's `b <= a` for `(>= a b)` stays `(<= b a)`;
  `(* -1 e)` stays a product.

Refused (`InteropError`, code E703): what PDDL has no syntax for — processes and events, sensing or
hierarchical problems, timings other than start, end and start-to-end, Boolean fluents assigned other
than true or false, integer-bounded types, metrics other than makespan, action costs and
minimising or maximising an expression.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from pddltools.interop.errors import FROM_FRAMEWORK, InteropError, refuse, require
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import NUMBER, OBJECT

COST = "total-cost"


def _no(construct: str) -> InteropError:
    return refuse(FROM_FRAMEWORK, "PDDL by pddltools", construct, None)


class _FromUP:
    def __init__(self, task: Any, domain_name: str | None) -> None:
        self.task = task
        self.domain_name = domain_name
        self.model = require("unified_planning.model", "up")
        self.kinds = require("unified_planning.model.operators", "up").OperatorKind
        self.used: set[str] = set()
        self.requirements: set[str] = set()
        self.costs: dict[str, ast.Expression] = {}

    def build(self) -> tuple[ast.Domain, ast.Problem]:
        m = self.model
        task = self.task
        if type(task) is not m.Problem:
            raise _no(f"a {type(task).__name__}")
        if getattr(task, "processes", None) or getattr(task, "events", None):
            raise _no("processes and events")
        self.typed = any(t.name != OBJECT for t in task.user_types)
        self._metric_costs()
        types = tuple(self._types())
        predicates = tuple(ast.PredicateDecl(f.name, self._parameters(f.signature))
                           for f in task.fluents if f.type.is_bool_type())
        functions = [ast.FunctionDecl(f.name, self._parameters(f.signature), self._value_type(f.type))
                     for f in task.fluents if not f.type.is_bool_type()]
        if self.costs or self.cost_metric:
            functions.append(ast.FunctionDecl(COST, (), ast.TypeName(NUMBER)))
            self.requirements.add(":action-costs")
        structures = tuple(self._action(a) for a in task.actions)
        constants = tuple(self._typed(o) for o in task.all_objects if o.name in self.used)
        objects = tuple(self._typed(o) for o in task.all_objects if o.name not in self.used)
        init = tuple(self._init())
        goal = self._conjunction(task.goals)
        constraints = self._conjunction(task.trajectory_constraints) if task.trajectory_constraints else None
        if constraints is not None:
            self.requirements.add(":constraints")
        metric = self._metric()
        if types:
            self.requirements.add(":typing")
        if functions and any(f.name != COST for f in functions):
            self.requirements.add(":numeric-fluents")
        domain = ast.Domain(
            name=self.domain_name or f"{_pddl_name(task.name)}-domain",
            requirements=tuple(ast.Requirement(r) for r in sorted(self.requirements)),
            types=types, constants=constants, predicates=predicates, functions=tuple(functions),
            structures=structures,
        )
        problem = ast.Problem(name=_pddl_name(task.name), domain=domain.name, objects=objects, init=init,
                              goal=goal, constraints=constraints, metric=metric)
        return domain, problem

    # Declarations ----------------------------------------------------------------------------------

    def _types(self) -> Iterator[ast.TypedName]:
        for t in self.task.user_types:
            if t.name == OBJECT:
                continue  # PDDL's own root
            yield ast.TypedName(t.name, ast.TypeName(t.father.name if t.father is not None else OBJECT))

    def _type(self, t: Any) -> ast.TypeName | None:
        """A type, or none in an untyped problem. `object` is written out when there are types: an untyped
        name before a typed one in a PDDL list would take the later one's type."""
        if not t.is_user_type():
            raise _no(f"the type {t} as a parameter or object type")
        return ast.TypeName(t.name) if self.typed else None

    def _value_type(self, t: Any) -> ast.TypeName:
        if t.is_real_type() or t.is_int_type():
            if t.lower_bound is not None or t.upper_bound is not None:
                raise _no(f"the bounded number type {t}")
            return ast.TypeName(NUMBER)
        if t.is_user_type():
            self.requirements.add(":object-fluents")
            return ast.TypeName(t.name)
        raise _no(f"a fluent of type {t}")

    def _parameters(self, parameters: Sequence[Any]) -> tuple[ast.TypedName, ...]:
        return tuple(ast.TypedName(f"?{p.name}", self._type(p.type)) for p in parameters)

    def _typed(self, o: Any) -> ast.TypedName:
        return ast.TypedName(o.name, self._type(o.type))

    # Actions ---------------------------------------------------------------------------------------

    def _action(self, action: Any) -> ast.Action | ast.DurativeAction:
        m = self.model
        if isinstance(action, m.DurativeAction):
            return self._durative(action)
        if type(action) is not m.InstantaneousAction:
            raise _no(f"the action {action.name} of kind {type(action).__name__}")
        effects = [self._effect(e) for e in action.effects]
        cost = self.costs.get(action.name)
        if cost is not None:
            effects.append(ast.Assign("increase", ast.FunctionTerm(COST), cost))
        precondition = self._conjunction(action.preconditions)
        return ast.Action(
            name=action.name, parameters=self._parameters(action.parameters),
            precondition=None if precondition == ast.And() else precondition, effect=_and_effect(effects),
        )

    def _durative(self, action: Any) -> ast.DurativeAction:
        self.requirements.add(":durative-actions")
        conditions: list[ast.Formula] = []
        for interval, formulas in action.conditions.items():
            time = self._interval(interval)
            conditions.extend(ast.Timed(time, self._formula(f)) for f in formulas)
        effects: list[ast.Effect] = []
        for timing, listed in action.effects.items():
            time = self._timing(timing)
            effects.extend(self._effect(e, time) for e in listed)
        for interval, listed in action.continuous_effects.items():
            if self._interval(interval, closed=True) != "all":
                raise _no(f"a continuous effect over {interval}")
            self.requirements.add(":continuous-effects")
            for e in listed:
                rate = ast.Arithmetic("*", (ast.ContinuousTime(), self._term(e.value)))
                op: ast.AssignOp = "increase" if e.kind.name == "CONTINUOUS_INCREASE" else "decrease"
                effects.append(ast.Assign(op, self._fluent_term(e.fluent), rate))
        cost = self.costs.get(action.name)
        if cost is not None:
            effects.append(ast.Timed("end", ast.Assign("increase", ast.FunctionTerm(COST), cost)))
        return ast.DurativeAction(
            name=action.name, parameters=self._parameters(action.parameters), duration=self._duration(action.duration),
            condition=_and(conditions) if conditions else None, effect=_and_effect(effects),
        )

    def _duration(self, d: Any) -> ast.Formula:
        duration = ast.Variable("?duration")
        lower, upper = self._term(d.lower), self._term(d.upper)
        if d.lower == d.upper and not d.is_left_open() and not d.is_right_open():
            return ast.Comparison("=", duration, lower)
        self.requirements.add(":duration-inequalities")
        return ast.And((ast.Comparison(">" if d.is_left_open() else ">=", duration, lower),
                        ast.Comparison("<" if d.is_right_open() else "<=", duration, upper)))

    def _timing(self, timing: Any) -> ast.TimeSpecifier:
        if timing.delay == 0 and timing.is_from_start():
            return "start"
        if timing.delay == 0 and timing.is_from_end():
            return "end"
        raise _no(f"the timing {timing}")

    def _interval(self, interval: Any, closed: bool = False) -> ast.TimeSpecifier:
        m = self.model
        if isinstance(interval, m.timing.Timing):
            return self._timing(interval)
        if interval.lower == interval.upper:  # a point: UP keeps `at start` as the interval [start, start]
            return self._timing(interval.lower)
        lower, upper = self._timing(interval.lower), self._timing(interval.upper)
        open_ends = interval.is_left_open() and interval.is_right_open()
        closed_ends = not interval.is_left_open() and not interval.is_right_open()
        if (lower, upper) == ("start", "end") and (closed_ends if closed else open_ends):
            return "all"
        raise _no(f"the interval {interval}")

    def _effect(self, e: Any, time: ast.TimeSpecifier | None = None) -> ast.Effect:
        fluent = self._fluent_term(e.fluent)
        body: ast.Effect
        if e.fluent.type.is_bool_type():
            if not e.is_assignment() or not e.value.is_bool_constant():
                raise _no(f"the effect {e} (a Boolean fluent set to an expression)")
            atom = ast.Atom(fluent.function, fluent.args)
            body = atom if e.value.bool_constant_value() else ast.Not(atom)
        else:
            op: ast.AssignOp = "assign" if e.is_assignment() else "increase" if e.is_increase() else "decrease"
            if op == "assign" and e.fluent.type.is_user_type():
                self.requirements.add(":object-fluents")
            body = ast.Assign(op, fluent, self._term(e.value))
        if time is not None:
            body = ast.Timed(time, body)
        if not e.condition.is_true():
            self.requirements.add(":conditional-effects")
            condition = self._formula(e.condition)
            body = ast.When(ast.Timed(time, condition) if time is not None else condition, body)
        if e.forall:
            self.requirements.add(":conditional-effects")
            body = ast.ForallEffect(tuple(ast.TypedName(f"?{v.name}", self._type(v.type)) for v in e.forall), body)
        return body

    # Expressions -----------------------------------------------------------------------------------

    def _conjunction(self, formulas: Sequence[Any]) -> ast.Formula:
        parts = [self._formula(f) for f in formulas if not f.is_true()]
        return parts[0] if len(parts) == 1 else ast.And(tuple(parts))

    def _formula(self, node: Any) -> ast.Formula:
        k = self.kinds
        kind = node.node_type
        args = node.args
        if node.is_fluent_exp():
            term = self._fluent_term(node)
            return ast.Atom(term.function, term.args)
        if node.is_bool_constant():
            return ast.And() if node.bool_constant_value() else ast.Or()
        if kind == k.AND:
            return ast.And(tuple(self._formula(a) for a in args))
        if kind == k.OR:
            self.requirements.add(":disjunctive-preconditions")
            return ast.Or(tuple(self._formula(a) for a in args))
        if kind == k.NOT:
            self.requirements.add(":negative-preconditions")
            return ast.Not(self._formula(args[0]))
        if kind == k.IMPLIES:
            self.requirements.add(":disjunctive-preconditions")
            return ast.Imply(self._formula(args[0]), self._formula(args[1]))
        if kind in (k.EXISTS, k.FORALL):
            variables = tuple(ast.TypedName(f"?{v.name}", self._type(v.type)) for v in node.variables())
            body = self._formula(args[0])
            if kind == k.EXISTS:
                self.requirements.add(":existential-preconditions")
                return ast.Exists(variables, body)
            self.requirements.add(":universal-preconditions")
            return ast.Forall(variables, body)
        comparisons = {k.EQUALS: "=", k.LE: "<=", k.LT: "<"}
        if kind in comparisons:
            left, right = self._term(args[0]), self._term(args[1])
            numeric = not args[0].type.is_user_type()
            self.requirements.add(":numeric-fluents" if numeric else ":equality")
            return ast.Comparison(comparisons[kind], left, right)  # type: ignore[arg-type]
        if kind == k.ALWAYS:
            return ast.Always(self._formula(args[0]))
        if kind == k.SOMETIME:
            return ast.Sometime(self._formula(args[0]))
        if kind == k.AT_MOST_ONCE:
            return ast.AtMostOnce(self._formula(args[0]))
        if kind == k.SOMETIME_AFTER:
            return ast.SometimeAfter(self._formula(args[0]), self._formula(args[1]))
        if kind == k.SOMETIME_BEFORE:
            return ast.SometimeBefore(self._formula(args[0]), self._formula(args[1]))
        raise _no(f"the expression {node} ({kind.name}) as a formula")

    def _fluent_term(self, node: Any) -> ast.FunctionTerm:
        return ast.FunctionTerm(node.fluent().name, tuple(self._object_term(a) for a in node.args))

    def _object_term(self, node: Any) -> ast.Term:
        term = self._term(node)
        if not isinstance(term, ast.Variable | ast.Constant | ast.FunctionTerm):
            raise _no(f"the argument {node}")
        return term

    def _term(self, node: Any) -> ast.Expression:
        k = self.kinds
        kind = node.node_type
        if node.is_parameter_exp():
            return ast.Variable(f"?{node.parameter().name}")
        if node.is_variable_exp():
            return ast.Variable(f"?{node.variable().name}")
        if node.is_object_exp():
            self.used.add(node.object().name)
            return ast.Constant(node.object().name)
        if node.is_int_constant() or node.is_real_constant():
            value = Fraction(node.constant_value())
            return ast.Number(value.numerator if value.denominator == 1 else value)
        if node.is_fluent_exp():
            return self._fluent_term(node)
        ops = {k.PLUS: "+", k.MINUS: "-", k.TIMES: "*", k.DIV: "/"}
        if kind in ops:
            return ast.Arithmetic(ops[kind], tuple(self._term(a) for a in node.args))  # type: ignore[arg-type]
        raise _no(f"the expression {node} ({kind.name}) as a term")

    # The initial state and the metric --------------------------------------------------------------

    def _init(self) -> Iterator[ast.InitElement]:
        for fluent, value in self.task.explicit_initial_values.items():
            term = self._fluent_term(fluent)
            if fluent.type.is_bool_type():
                if value.bool_constant_value():
                    yield ast.Atom(term.function, term.args)
                continue  # false is what the closed world says
            converted = self._term(value)
            if not isinstance(converted, ast.Number | ast.Constant):
                raise _no(f"the initial value {value}")
            yield ast.InitAssignment(term, converted)
        if self.costs or self.cost_metric:
            yield ast.InitAssignment(ast.FunctionTerm(COST), ast.Number(0))
        for timing, effects in self.task.timed_effects.items():
            if not timing.is_from_start():
                raise _no(f"the timed effect at {timing}")
            self.requirements.add(":timed-initial-literals")
            time = Fraction(timing.delay)
            at = ast.Number(time.numerator if time.denominator == 1 else time)
            for e in effects:
                if not e.is_assignment() or not e.condition.is_true() or e.forall:
                    raise _no(f"the timed effect {e}")
                term = self._fluent_term(e.fluent)
                body: ast.InitElement
                if e.fluent.type.is_bool_type():
                    atom = ast.Atom(term.function, term.args)
                    body = atom if e.value.bool_constant_value() else ast.Not(atom)
                else:
                    value = self._term(e.value)
                    if not isinstance(value, ast.Number | ast.Constant):
                        raise _no(f"the timed effect {e}")
                    body = ast.InitAssignment(term, value)
                yield ast.TimedInitial(at, body)

    def _metric_costs(self) -> None:
        """Action costs become `total-cost` effects: read them before the actions are converted."""
        metrics = self.model.metrics
        self.cost_metric = False
        for metric in self.task.quality_metrics:
            if isinstance(metric, metrics.MinimizeActionCosts):
                self.cost_metric = True
                for action in self.task.actions:
                    cost = metric.get_action_cost(action)
                    if cost is not None and not (cost.is_constant() and cost.constant_value() == 0):
                        self.costs[action.name] = self._term(cost)
            elif isinstance(metric, metrics.MinimizeSequentialPlanLength):
                self.cost_metric = True
                self.costs.update((a.name, ast.Number(1)) for a in self.task.actions)

    def _metric(self) -> ast.Metric | None:
        metrics = self.model.metrics
        found = self.task.quality_metrics
        if len(found) > 1:
            raise _no("more than one quality metric")
        if not found:
            return None
        metric = found[0]
        if self.cost_metric:
            return ast.Metric("minimize", ast.FunctionTerm(COST))
        if isinstance(metric, metrics.MinimizeMakespan):
            return ast.Metric("minimize", ast.FunctionTerm("total-time"))
        if isinstance(metric, metrics.MinimizeExpressionOnFinalState):
            return ast.Metric("minimize", self._term(metric.expression))
        if isinstance(metric, metrics.MaximizeExpressionOnFinalState):
            return ast.Metric("maximize", self._term(metric.expression))
        raise _no(f"the quality metric {type(metric).__name__}")


def _and(parts: Sequence[ast.Formula]) -> ast.Formula:
    return parts[0] if len(parts) == 1 else ast.And(tuple(parts))


def _and_effect(parts: Sequence[ast.Effect]) -> ast.Effect | None:
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else ast.AndEffect(tuple(parts))


def _pddl_name(name: str) -> str:
    return name if name else "problem"


def from_up(task: Any, domain_name: str | None = None) -> tuple[ast.Domain, ast.Problem]:
    """pddltools' `(Domain, Problem)` for a `unified_planning.model.Problem`.

    A UP problem has one name (UP's reader gives it the problem's); the domain is called `domain_name`,
    or the problem's name followed by `-domain`.
    """
    return _FromUP(task, domain_name).build()
