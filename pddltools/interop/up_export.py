"""pddltools' PDDL AST to a Unified Planning problem, built as UP's own PDDL reader builds it.

Following the reader's conventions is what makes `to_up` and `PDDLReader().parse_problem` give equal
problems:

- types hang under a UP type `object` only when something is declared with type `object` (or untyped);
  a parent used but never declared is a type of its own;
- predicates are Boolean fluents, numeric functions real fluents; parameter names lose their `?`
  (an object function is a fluent of its type, where UP's reader would make it real);
- a precondition is one expression; effects are added breadth first, a `when` condition simplified;
- `(- e)` is `(* -1 e)`; `(>= a b)` is UP's `b <= a` (its expression manager writes every comparison so);
- durative actions: `(= ?duration e)` is a fixed duration and `(and (>= ?duration a) (<= ?duration b))`
  an interval; `over all` is the open interval from start to end; `(increase f (* #t e))` is a
  continuous effect over the closed interval;
- `(minimize (total-cost))` over a domain where `total-cost` only counts (it starts at 0 and is only
  increased, unconditionally) becomes `MinimizeActionCosts`, and the fluent disappears;
  `(minimize (total-time))` is `MinimizeMakespan`;
- timed initial literals are timed effects; negative literals in `:init` say what the closed world says.

Refused (an `InteropError` naming the construct and its place): `either` types, a type with two parents,
`:derived` predicates, `:vars`, preferences, the trajectory constraints UP has no operator for
(`within`, `always-within`, `hold-during`, `hold-after`), a domain's `:constraints`, `is-violated`,
`?duration` or `#t` where UP has no place for them, durations other than the two forms above,
`scale-up` and `scale-down`, conditional effects nested in conditional effects, a forall effect
nested in a forall effect, timed conditions or effects other than at start / at end / over all,
`:length`, and names UP needs distinct (one namespace for types, fluents, objects and actions).
Every refused part is reported, not only the first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from pddltools.diagnostics import Diagnostic
from pddltools.interop.errors import TO_UP, InteropError, refuse, refuse_type_shapes, require
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import NUMBER, OBJECT, TypeHierarchy
from pddltools.static_typing import assert_never

TARGET = "Unified Planning"
COST = "total-cost"
DURATION = "?duration"


def _no(construct: str, node: ast.Node | None, why: str = "") -> InteropError:
    return refuse(TO_UP, TARGET, construct, node.span if node is not None else None, why)


def _name(variable: str) -> str:
    return variable[1:] if variable.startswith("?") else variable


def _is_numeric(f: ast.FunctionDecl) -> bool:
    return f.type is None or (isinstance(f.type, ast.TypeName) and f.type.name == NUMBER)


class _ToUP:
    def __init__(self, domain: ast.Domain, problem: ast.Problem) -> None:
        self.domain = domain
        self.problem = problem
        self.up = require("unified_planning", "up")
        self.model = require("unified_planning.model", "up")
        self.exceptions = require("unified_planning.exceptions", "up")
        env = require("unified_planning.environment", "up").get_environment()
        self.env = env
        self.em = env.expression_manager
        self.tm = env.type_manager
        self.types: dict[str, Any] = {}
        self.costs: dict[Any, Any] = {}
        self.cost_mode = _counts_cost(domain, problem)

    def build(self) -> Any:
        m = self.model
        self.task = m.Problem(self.domain.name, self.env, initial_defaults={self.tm.BoolType(): self.em.FALSE()})
        self._types()
        for p in self.domain.predicates:
            self._add(p, lambda p=p: self.task.add_fluent(
                m.Fluent(p.name, self.tm.BoolType(), self._signature(p.parameters), self.env)))
        for f in self.domain.functions:
            if f.name == COST and self.cost_mode:
                continue  # the costs become the metric's, as UP's reader does
            value = self.tm.RealType() if _is_numeric(f) else self._type(f.type, f)
            self._add(f, lambda f=f, v=value: self.task.add_fluent(
                m.Fluent(f.name, v, self._signature(f.parameters), self.env)))
        for c in self.domain.constants:
            self._object(c)
        # Past the declarations, each part converts on its own: every refusal is collected and reported.
        refused: list[Diagnostic] = []
        if self.domain.constraints is not None:
            refused += _no("a domain's :constraints", self.domain.constraints).diagnostics
        for structure in self.domain.structures:
            _collect(refused, lambda s=structure: self._structure(s))
        for happening in self.domain.processes_and_events:  # PDDL+: never dropped unsaid
            kind = "process" if isinstance(happening, ast.Process) else "event"
            refused += _no(f"the PDDL+ {kind} {happening.name}", happening,
                           "pddltools does not convert processes and events yet").diagnostics
        self.task.name = self.problem.name
        for o in self.problem.objects:
            if not self.task.has_object(o.name):  # a repeated declaration is the checker's to report
                self._object(o)
        _collect(refused, self._init)
        if self.problem.goal is not None:
            _collect(refused, lambda: self.task.add_goal(self._expr(self.problem.goal, None, {})))
        if self.problem.constraints is not None:
            _collect(refused, lambda: self._constraints(self.problem.constraints))
        if self.problem.length is not None:
            refused += _no(":length", self.problem.length).diagnostics
        _collect(refused, self._metric)
        if refused:
            raise InteropError(refused)
        return self.task

    def _structure(self, structure: ast.Structure) -> None:
        if isinstance(structure, ast.DerivedPredicate):
            raise _no(f"the derived predicate {structure.name}", structure)
        action = self._action(structure) if isinstance(structure, ast.Action) else self._durative(structure)
        self._add(structure, lambda: self.task.add_action(action))

    def _add(self, node: ast.Node, make: Any) -> None:
        """Run a UP declaration, turning its name clashes into a refusal at the declaration."""
        try:
            make()
        except self.exceptions.UPProblemDefinitionError as exc:
            raise _no(f"the name {getattr(node, 'name', '?')}", node, str(exc)) from None

    # Types and objects -----------------------------------------------------------------------------

    def _types(self) -> None:
        hierarchy = TypeHierarchy.of(self.domain)
        declared = {t.name: t for t in self.domain.types}
        refuse_type_shapes(self.domain, hierarchy, TO_UP, TARGET)
        self.object_needed = _object_type_needed(self.domain)
        # A parent is declared before its children (UP types are immutable once made).
        order: list[str] = []
        for t in self.domain.types:
            self._order(t.name, declared, order)
        for name in order:
            if name in self.types:
                continue
            father = None
            own = declared.get(name)
            parent = own.type.name if own is not None and isinstance(own.type, ast.TypeName) else None
            if name == OBJECT:
                parent = None
            elif parent is None or parent == OBJECT:
                if self.object_needed:
                    father = self._object_type()
            else:
                father = self.types[parent]
            self.types[name] = self.tm.UserType(name, father)
            # The reader declares every type, used or not; UP's public API adds a type only with its users.
            self.task._add_user_type(self.types[name])
        if self.object_needed:
            self._object_type()

    def _order(self, name: str, declared: dict[str, ast.TypedName], order: list[str]) -> None:
        chain: list[str] = []
        current: str | None = name
        while current is not None and current not in order and current not in chain and current != OBJECT:
            chain.append(current)
            own = declared.get(current)
            current = own.type.name if own is not None and isinstance(own.type, ast.TypeName) else None
        if name == OBJECT and OBJECT not in order:
            chain = [OBJECT]
        order.extend(reversed(chain))

    def _object_type(self) -> Any:
        if OBJECT not in self.types:
            self.types[OBJECT] = self.tm.UserType(OBJECT, None)
        return self.types[OBJECT]

    def _type(self, ref: ast.TypeRef | None, where: ast.Node) -> Any:
        if isinstance(ref, ast.Either):
            raise _no("an (either ...) type", ref)
        name = OBJECT if ref is None else ref.name
        if name == OBJECT:
            return self._object_type()
        if name not in self.types:
            raise _no(f"the undeclared type {name}", ref or where)
        return self.types[name]

    def _signature(self, parameters: Sequence[ast.TypedName]) -> OrderedDict[str, Any]:
        signature: OrderedDict[str, Any] = OrderedDict()
        for p in parameters:
            if _name(p.name) in signature:
                raise _no(f"the repeated parameter {p.name}", p)
            signature[_name(p.name)] = self._type(p.type, p)
        return signature

    def _object(self, declared: ast.TypedName) -> None:
        kind = self._type(declared.type, declared)
        self._add(declared, lambda: self.task.add_object(self.model.Object(declared.name, kind, self.env)))

    # Actions ---------------------------------------------------------------------------------------

    def _action(self, action: ast.Action) -> Any:
        if action.vars:
            raise _no(f"the :vars of action {action.name}", action.vars[0])
        act = self.model.InstantaneousAction(action.name, self._signature(action.parameters), self.env)
        if action.precondition is not None:
            act.add_precondition(self._expr(action.precondition, act, {}))
        if action.effect is not None:
            self._effects(act, action.effect, None)
        return act

    def _durative(self, action: ast.DurativeAction) -> Any:
        m = self.model
        act = m.DurativeAction(action.name, self._signature(action.parameters), self.env)
        self._duration(act, action)
        if action.condition is not None:
            self._conditions(act, action.condition, {})
        if action.effect is not None:
            self._timed_effects(act, action.effect)
        return act

    def _duration(self, act: Any, action: ast.DurativeAction) -> None:
        d = action.duration
        if d is None:
            raise _no(f"the durative action {action.name} without a :duration", action)
        if isinstance(d, ast.Comparison) and d.op == "=" and _is_duration(d.left):
            act.set_fixed_duration(self._expr(d.right, act, {}))
            return
        if isinstance(d, ast.And):
            lower = upper = None
            left_open = right_open = False
            for part in d.parts:
                if not (isinstance(part, ast.Comparison) and _is_duration(part.left)):
                    raise _no("this duration constraint", part, "UP has a fixed duration or an interval")
                if part.op in (">=", ">") and lower is None:
                    lower, left_open = self._expr(part.right, act, {}), part.op == ">"
                elif part.op in ("<=", "<") and upper is None:
                    upper, right_open = self._expr(part.right, act, {}), part.op == "<"
                else:
                    raise _no("this duration constraint", part, "UP has a fixed duration or an interval")
            if lower is not None and upper is not None:
                act.set_duration_constraint(self.model.DurationInterval(lower, upper, left_open, right_open))
                return
        raise _no("this duration constraint", d, "UP has a fixed duration or an interval")

    def _conditions(self, act: Any, condition: ast.Formula, variables: dict[str, Any]) -> None:
        m = self.model
        if isinstance(condition, ast.And):
            for part in condition.parts:
                self._conditions(act, part, variables)
        elif isinstance(condition, ast.Forall):
            self._conditions(act, condition.body, {**variables, **self._variables(condition.variables)})
        elif isinstance(condition, ast.Timed):
            assert not isinstance(condition.body, ast.AndEffect | ast.ForallEffect | ast.When | ast.Assign)
            expression = self._expr(condition.body, act, variables)
            if variables:
                expression = self.em.Forall(expression, *variables.values())
            timing = {"start": m.StartTiming(), "end": m.EndTiming(),
                      "all": m.OpenTimeInterval(m.StartTiming(), m.EndTiming())}[condition.time]
            act.add_condition(timing, expression)
        else:
            raise _no("a durative action's condition without at start, at end or over all", condition)

    def _timed_effects(self, act: Any, effect: ast.Effect) -> None:
        m = self.model
        queue: list[tuple[ast.Effect, dict[str, Any]]] = [(effect, {})]
        while queue:
            eff, variables = queue.pop(0)
            if isinstance(eff, ast.AndEffect):
                queue.extend((part, variables) for part in eff.parts)
            elif isinstance(eff, ast.When):
                cond, body = eff.condition, eff.body
                if not (isinstance(cond, ast.Timed) and isinstance(body, ast.Timed) and cond.time == body.time
                        and cond.time in ("start", "end")):
                    raise _no("a conditional effect whose condition and effect are not at the same time", eff)
                timing = m.StartTiming() if cond.time == "start" else m.EndTiming()
                condition = self._expr(cond.body, act, variables)  # type: ignore[arg-type]
                self._effects(act, body.body, timing, condition, variables)  # type: ignore[arg-type]
            elif isinstance(eff, ast.Timed) and eff.time in ("start", "end"):
                timing = m.StartTiming() if eff.time == "start" else m.EndTiming()
                self._effects(act, eff.body, timing, None, variables)  # type: ignore[arg-type]
            elif isinstance(eff, ast.Assign) and _continuous_rate(eff) is not None:
                self._continuous(act, eff, variables)
            elif isinstance(eff, ast.ForallEffect):
                if variables:
                    raise _no("a forall effect inside a forall effect", eff)
                queue.append((eff.body, self._variables(eff.variables)))
            else:
                raise _no("a durative action's effect without at start or at end", eff)

    def _continuous(self, act: Any, eff: ast.Assign, variables: dict[str, Any]) -> None:
        if variables:
            raise _no("a continuous effect inside a forall effect", eff)
        if eff.op not in ("increase", "decrease"):
            raise _no(f"a continuous {eff.op} effect", eff)
        rate = _continuous_rate(eff)
        assert rate is not None
        m = self.model
        interval = m.timing.ClosedTimeInterval(m.StartTiming(), m.EndTiming())
        value = 1 if isinstance(rate, ast.ContinuousTime) else self._expr(rate, act, variables)
        fluent = self._expr(eff.fluent, act, variables)
        if eff.op == "increase":
            act.add_increase_continuous_effect(interval, fluent, value)
        else:
            act.add_decrease_continuous_effect(interval, fluent, value)

    def _effects(self, act: Any, effect: ast.Effect, timing: Any, condition: Any = None,
                 variables: dict[str, Any] | None = None) -> None:
        """Add an effect as UP's reader does: breadth first, one UP effect per atom or assignment."""
        queue: list[tuple[ast.Effect, Any, dict[str, Any]]] = [(effect, condition, variables or {})]
        while queue:
            eff, cond, scope = queue.pop(0)
            if isinstance(eff, ast.AndEffect):
                queue.extend((part, cond, scope) for part in eff.parts)
            elif isinstance(eff, ast.When):
                if cond is not None:
                    raise _no("a conditional effect inside a conditional effect", eff)
                simplified = self._expr(eff.condition, act, scope).simplify()
                if not simplified.is_false():
                    queue.append((eff.body, simplified, scope))
            elif isinstance(eff, ast.ForallEffect):
                if scope:
                    raise _no("a forall effect inside a forall effect", eff)
                queue.append((eff.body, cond, self._variables(eff.variables)))
            elif isinstance(eff, ast.Timed):
                raise _no(f"a timed effect (at {eff.time} ...) here", eff)
            elif isinstance(eff, ast.Assign) and self.cost_mode and _is_cost(eff):
                self.costs[act] = self._expr(eff.value, act, scope)
            else:
                self._simple(act, eff, timing, True if cond is None else cond, scope)

    def _simple(self, act: Any, eff: ast.Effect, timing: Any, cond: Any, scope: dict[str, Any]) -> None:
        forall = tuple(scope.values())
        at = () if timing is None else (timing,)
        if isinstance(eff, ast.Atom):
            act.add_effect(*at, self._expr(eff, act, scope), self.em.TRUE(), cond, forall=forall)
        elif isinstance(eff, ast.Not) and isinstance(eff.body, ast.Atom):
            act.add_effect(*at, self._expr(eff.body, act, scope), self.em.FALSE(), cond, forall=forall)
        elif isinstance(eff, ast.Assign):
            if _continuous_rate(eff) is not None or any(isinstance(n, ast.ContinuousTime) for n in eff.walk()):
                raise _no("#t here", eff, "UP has continuous change over a durative action's whole interval only")
            fluent, value = self._expr(eff.fluent, act, scope), self._expr(eff.value, act, scope)
            if eff.op == "assign":
                act.add_effect(*at, fluent, value, cond, forall=forall)
            elif eff.op == "increase":
                act.add_increase_effect(*at, fluent, value, cond, forall=forall)
            elif eff.op == "decrease":
                act.add_decrease_effect(*at, fluent, value, cond, forall=forall)
            else:
                raise _no(f"a {eff.op} effect", eff, "UP has assign, increase and decrease")
        else:
            raise _no(f"the effect {type(eff).__name__}", eff)

    def _variables(self, declared: Sequence[ast.TypedName]) -> dict[str, Any]:
        return {_name(v.name): self.model.Variable(_name(v.name), self._type(v.type, v), self.env) for v in declared}

    # Expressions -----------------------------------------------------------------------------------

    def _expr(self, node: ast.Formula | ast.Expression, act: Any, scope: dict[str, Any]) -> Any:
        em = self.em
        match node:
            case ast.Atom():
                return em.FluentExp(self._fluent(node.predicate, node),
                                    tuple(self._expr(a, act, scope) for a in node.args))
            case ast.And():
                return em.And(*(self._expr(p, act, scope) for p in node.parts))
            case ast.Or():
                return em.Or(*(self._expr(p, act, scope) for p in node.parts))
            case ast.Not():
                return em.Not(self._expr(node.body, act, scope))
            case ast.Imply():
                return em.Implies(self._expr(node.condition, act, scope), self._expr(node.consequence, act, scope))
            case ast.Exists() | ast.Forall():
                variables = self._variables(node.variables)
                body = self._expr(node.body, act, {**scope, **variables})
                quantify = em.Exists if isinstance(node, ast.Exists) else em.Forall
                return quantify(body, *variables.values())
            case ast.Comparison():
                build = {"=": em.Equals, "<": em.LT, "<=": em.LE, ">": em.GT, ">=": em.GE}[node.op]
                return build(self._expr(node.left, act, scope), self._expr(node.right, act, scope))
            case ast.Variable():
                name = _name(node.name)
                if name in scope:
                    return em.VariableExp(scope[name])
                if node.name == DURATION:
                    raise _no("?duration here", node, "UP has it in a durative action's duration only")
                if act is None or not any(p.name == name for p in act.parameters):
                    raise _no(f"the free variable {node.name}", node)
                return em.ParameterExp(act.parameter(name))
            case ast.Constant():
                if self.task.has_fluent(node.name):  # a 0-ary function written without parentheses
                    return em.FluentExp(self.task.fluent(node.name))
                if not self.task.has_object(node.name):
                    raise _no(f"the undeclared constant {node.name}", node)
                return em.ObjectExp(self.task.object(node.name))
            case ast.Number():
                value = Fraction(node.value)
                return em.Int(value.numerator) if value.denominator == 1 else em.Real(value)
            case ast.FunctionTerm():
                if node.function == "total-time":
                    raise _no("total-time here", node, "UP has it as the metric (minimize (total-time)) only")
                return em.FluentExp(self._fluent(node.function, node),
                                    tuple(self._expr(a, act, scope) for a in node.args))
            case ast.Arithmetic():
                args = [self._expr(a, act, scope) for a in node.args]
                if node.op == "-" and len(args) == 1:
                    return em.Times(-1, args[0])
                build = {"+": em.Plus, "-": em.Minus, "*": em.Times, "/": em.Div}[node.op]
                return build(*args)
            case ast.Preference():
                raise _no("a preference", node)
            case ast.ContinuousTime():
                raise _no("#t here", node, "UP has continuous change over a durative action's whole interval only")
            case ast.IsViolated():
                raise _no("is-violated", node)
            case ast.Timed():
                raise _no(f"a timed condition (at {node.time} ...) here", node)
            case ast.Always() | ast.Sometime() | ast.AtMostOnce() | ast.SometimeAfter() | ast.SometimeBefore():
                raise _no(f"the trajectory constraint {type(node).__name__} here", node,
                          "UP has them in :constraints")
            case ast.Within() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter():
                raise _no(f"the trajectory constraint {type(node).__name__}", node)
            case _:
                assert_never(node)

    def _fluent(self, name: str, node: ast.Node) -> Any:
        if not self.task.has_fluent(name):
            raise _no(f"the undeclared predicate or function {name}", node)
        return self.task.fluent(name)

    def _constraints(self, constraints: ast.Formula) -> None:
        em = self.em
        def convert(node: ast.Formula, scope: dict[str, Any]) -> Any:
            if isinstance(node, ast.And):
                return em.And(*(convert(p, scope) for p in node.parts))
            if isinstance(node, ast.Forall):
                variables = self._variables(node.variables)
                return em.Forall(convert(node.body, {**scope, **variables}), *variables.values())
            if isinstance(node, ast.Always):
                return em.Always(self._expr(node.body, None, scope))
            if isinstance(node, ast.Sometime):
                return em.Sometime(self._expr(node.body, None, scope))
            if isinstance(node, ast.AtMostOnce):
                return em.AtMostOnce(self._expr(node.body, None, scope))
            if isinstance(node, ast.SometimeAfter):
                return em.SometimeAfter(self._expr(node.condition, None, scope),
                                        self._expr(node.consequence, None, scope))
            if isinstance(node, ast.SometimeBefore):
                return em.SometimeBefore(self._expr(node.condition, None, scope),
                                         self._expr(node.antecedent, None, scope))
            if isinstance(node, ast.Preference):
                raise _no("a preference", node)
            raise _no(f"the trajectory constraint {type(node).__name__}", node,
                      "UP has always, sometime, at-most-once, sometime-before and sometime-after")

        try:
            self.task.add_trajectory_constraint(convert(constraints, {}))
        except AssertionError:  # UP checks the form with an assertion, and says no more
            raise _no("this form of :constraints", constraints, "UP takes a conjunction of always, sometime, "
                      "at-most-once, sometime-before and sometime-after, each alone or under one forall") from None

    # The initial state and the metric ----------------------------------------------------------------

    def _init(self) -> None:
        em = self.em
        for element in self.problem.init:
            if isinstance(element, ast.Atom):
                self.task.set_initial_value(self._expr(element, None, {}), em.TRUE())
            elif isinstance(element, ast.InitAssignment):
                if self.cost_mode and element.fluent.function == COST:
                    continue
                self.task.set_initial_value(self._expr(element.fluent, None, {}),
                                            self._expr(element.value, None, {}))
            elif isinstance(element, ast.TimedInitial):
                timing = self.model.StartTiming(Fraction(element.time.value))
                body = element.body
                if isinstance(body, ast.Atom):
                    self.task.add_timed_effect(timing, self._expr(body, None, {}), em.TRUE())
                elif isinstance(body, ast.Not) and isinstance(body.body, ast.Atom):
                    self.task.add_timed_effect(timing, self._expr(body.body, None, {}), em.FALSE())
                elif isinstance(body, ast.InitAssignment):
                    self.task.add_timed_effect(timing, self._expr(body.fluent, None, {}),
                                               self._expr(body.value, None, {}))
                else:
                    raise _no("this timed initial literal", element)
            # `(not p)` in :init says what the closed world already says.

    def _metric(self) -> None:
        metric = self.problem.metric
        if metric is None:
            return
        metrics = self.model.metrics
        expression = metric.expression
        if isinstance(expression, ast.FunctionTerm) and expression.function == "total-time" and not expression.args:
            if metric.direction != "minimize":
                raise _no("(maximize (total-time))", metric)
            self.task.add_quality_metric(metrics.MinimizeMakespan())
        elif self.cost_mode:
            self.task.add_quality_metric(metrics.MinimizeActionCosts(self.costs, self.em.Int(0)))
        elif metric.direction == "minimize":
            self.task.add_quality_metric(metrics.MinimizeExpressionOnFinalState(self._expr(expression, None, {})))
        else:
            self.task.add_quality_metric(metrics.MaximizeExpressionOnFinalState(self._expr(expression, None, {})))


def _collect(refused: list[Diagnostic], convert: Any) -> None:
    try:
        convert()
    except InteropError as exc:
        refused.extend(exc.diagnostics)


def _is_duration(node: ast.Expression) -> bool:
    return isinstance(node, ast.Variable) and node.name == DURATION


def _is_cost(effect: ast.Effect) -> bool:
    return isinstance(effect, ast.Assign) and effect.fluent.function == COST and not effect.fluent.args


def _continuous_rate(eff: ast.Assign) -> ast.Expression | None:
    """`e` in `(increase f (* #t e))` or `(* e #t)`, `#t` itself in `(increase f #t)`; None otherwise."""
    value = eff.value
    if isinstance(value, ast.ContinuousTime):
        return value
    if isinstance(value, ast.Arithmetic) and value.op == "*" and len(value.args) == 2:
        first, second = value.args
        if isinstance(first, ast.ContinuousTime):
            return second
        if isinstance(second, ast.ContinuousTime):
            return first
    return None


def _object_type_needed(domain: ast.Domain) -> bool:
    """UP's reader makes a type `object` only when a declaration is untyped or says `object`."""
    def untyped(names: Sequence[ast.TypedName]) -> bool:
        return any(n.type is None or (isinstance(n.type, ast.TypeName) and n.type.name == OBJECT) for n in names)

    declarations: list[ast.PredicateDecl | ast.FunctionDecl | ast.Action | ast.DurativeAction] = [
        *domain.predicates, *domain.functions, *domain.actions, *domain.durative_actions]
    return any(untyped(d.parameters) for d in declarations) or untyped(domain.constants)


def _counts_cost(domain: ast.Domain, problem: ast.Problem) -> bool:
    """Whether `total-cost` only counts action costs, so that UP's reader makes it `MinimizeActionCosts`:
    minimised, starting at 0, never read, and changed only by one unconditional increase per action."""
    metric = problem.metric
    if metric is None or metric.direction != "minimize" or metric.expression != ast.FunctionTerm(COST):
        return False
    if not any(f.name == COST and not f.parameters for f in domain.functions):
        return False
    starts = [e for e in problem.init if isinstance(e, ast.InitAssignment) and e.fluent == ast.FunctionTerm(COST)]
    if not starts or not isinstance(starts[0].value, ast.Number) or starts[0].value.value != 0:
        return False
    timed = [e for e in problem.init if isinstance(e, ast.TimedInitial)]
    if any(_reads_cost(e) for e in timed) or (problem.goal is not None and _reads_cost(problem.goal)):
        return False
    for structure in domain.structures:
        if isinstance(structure, ast.DerivedPredicate):
            continue
        conditions = (structure.precondition,) if isinstance(structure, ast.Action) else \
            (structure.duration, structure.condition)
        if any(c is not None and _reads_cost(c) for c in conditions):
            return False
        writes = 0
        for node in structure.effect.walk() if structure.effect is not None else ():
            if isinstance(node, ast.When | ast.ForallEffect) and any(
                    isinstance(n, ast.Assign) and _is_cost(n) for n in node.walk()):
                return False
            if isinstance(node, ast.When) and _reads_cost(node.condition):
                return False
            if isinstance(node, ast.Assign):
                if _reads_cost(node.value):
                    return False
                if _is_cost(node):
                    writes += 1
                    if node.op != "increase" or writes > 1:
                        return False
    return True


def _reads_cost(node: ast.Node) -> bool:
    return any(isinstance(n, ast.FunctionTerm) and n.function == COST for n in node.walk())


def to_up(domain: ast.Domain, problem: ast.Problem) -> Any:
    """The `unified_planning.model.Problem` for a domain and problem; `InteropError` names what UP cannot express."""
    return _ToUP(domain, problem).build()
