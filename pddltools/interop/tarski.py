"""pddltools' PDDL AST to and from a tarski (Functional STRIPS) problem.

`to_tarski(domain, problem)` builds what tarski's own PDDL reader builds for the same files: one
language (sorts, constants, predicates, functions, with the equality theory, and arithmetic with a
`number` sort when the domain has numeric functions), the actions with their formulas and effect
lists, the initial state as a model, the goal and the metric. tarski's conventions are followed where
its reader has them, so that both give equal problems:

- `(and)` is `Tautology`, `(and p)` is `p`; `(when c (and e1 e2))` puts the condition on each effect;
- `(increase f e)` is the functional effect `f := f + e` (likewise decrease, scale-up, scale-down);
- an unconditional `(increase (total-cost) e)` is the action's cost, and when one action has a cost
  every other gets cost 0;
- negative literals in `:init` are not stored (tarski's initial state is closed-world, as PDDL's is).

Refused, with an `InteropError` naming the construct and its place: `either` types, a type with two
parents, durative actions, `:vars`, preferences, trajectory constraints, timed initial literals,
`#t`, `is-violated`, `total-time`, `:length`, domain or problem `:constraints`, unary minus,
conditional effects nested in conditional effects, a conditional or repeated action cost, a second
`:derived` rule for the same predicate, and names
that tarski would need to be distinct (it has one namespace for types, constants, predicates and
functions). Every refused part is reported, not only the first.

`from_tarski(problem)` returns `(Domain, Problem)`. What tarski does not keep comes back in a fixed
form: requirements are recomputed from what is used, constants used by an action or axiom are domain
constants and the rest problem objects, an action cost is an `increase` of `total-cost` at the end of
the effect (a cost of 0 is left out), `f := f + e` reads as `(increase f e)`, and `(imply a b)`, which
tarski itself builds as `(or (not a) b)`, comes back as that disjunction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from pddltools.diagnostics import Diagnostic
from pddltools.interop.errors import FROM_FRAMEWORK, TO_TARSKI, InteropError, refuse, refuse_type_shapes, require
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import NUMBER, OBJECT, TypeHierarchy
from pddltools.static_typing import assert_never

TARGET = "tarski"
_ASSIGN_OPERATOR = {"increase": "+", "decrease": "-", "scale-up": "*", "scale-down": "/"}
_OPERATOR_ASSIGN = {v: k for k, v in _ASSIGN_OPERATOR.items()}
_NUMERIC_SORTS = frozenset({"number", "Real", "Integer", "Natural"})


def _no(construct: str, node: ast.Node | None, why: str = "") -> InteropError:
    return refuse(TO_TARSKI, TARGET, construct, node.span if node is not None else None, why)


def _number(value: int | Fraction) -> int | float:
    """tarski's reader keeps integral literals as `int` and the others as `float`."""
    if isinstance(value, int):
        return value
    return int(value) if value.denominator == 1 else float(value)


# ------------------------------------------------------------------------------------------------
# PDDL → tarski


class _ToTarski:
    def __init__(self, domain: ast.Domain, problem: ast.Problem) -> None:
        self.domain = domain
        self.problem = problem
        self.tarski = require("tarski", "tarski")
        self.fstrips = require("tarski.fstrips", "tarski")
        self.syntax = require("tarski.syntax", "tarski")
        self.builtins = require("tarski.syntax.builtins", "tarski")
        self.errors = require("tarski.errors", "tarski")

    def build(self) -> Any:
        numeric = any(_is_numeric(f) for f in self.domain.functions)
        theories = ["equality", "arithmetic"] if numeric else ["equality"]
        self.lang = self.fstrips.language(self.domain.name, theories=theories)
        if numeric:
            real = self.lang.get_sort("Real")
            self.lang.interval("number", real, real.lower_bound, real.upper_bound)
        self._sorts()
        self._constants()
        for p in self.domain.predicates:
            self._declare(p, lambda p=p: self.lang.predicate(p.name, *self._sorts_of(p.parameters)))
        for f in self.domain.functions:
            self._declare(f, lambda f=f: self.lang.function(f.name, *self._sorts_of(f.parameters), self._value_sort(f)))
        task = self.fstrips.create_fstrips_problem(self.lang, self.problem.name, self.domain.name)
        # Past the declarations, each part converts on its own: every refusal is collected and reported.
        refused: list[Diagnostic] = []
        if self.domain.constraints is not None:
            refused += _no("a domain's :constraints", self.domain.constraints).diagnostics
        for structure in self.domain.structures:
            _collect(refused, lambda s=structure: self._structure(task, s))
        for happening in self.domain.processes_and_events:  # PDDL+: never dropped unsaid
            kind = "process" if isinstance(happening, ast.Process) else "event"
            refused += _no(f"the PDDL+ {kind} {happening.name}", happening).diagnostics
        self._uniform_costs(task)
        for element in self.problem.init:
            _collect(refused, lambda e=element: self._init(task, e))
        _collect(refused, lambda: self._goal(task))
        if self.problem.constraints is not None:
            refused += _no("a problem's :constraints", self.problem.constraints).diagnostics
        if self.problem.length is not None:
            refused += _no(":length", self.problem.length).diagnostics
        if self.problem.metric is not None:
            _collect(refused, lambda: self._metric(task, self.problem.metric))
        if refused:
            raise InteropError(refused)
        return task

    def _structure(self, task: Any, structure: ast.Structure) -> None:
        if isinstance(structure, ast.DurativeAction):
            raise _no(f"the durative action {structure.name}", structure)
        if isinstance(structure, ast.Action):
            self._action(task, structure)
            return
        if structure.name in task.derived_predicates:
            raise _no(f"a second :derived rule for {structure.name}", structure,
                      "tarski keeps one rule per derived predicate")
        parameters = self._variables(structure.predicate.parameters)
        scope = {v.symbol: v for v in parameters}
        task.derived(structure.name, parameters, self._formula(structure.body, scope))

    def _goal(self, task: Any) -> None:
        goal = self.problem.goal
        task.goal = self._formula(goal, {}) if goal is not None else self.syntax.Tautology()

    def _metric(self, task: Any, metric: ast.Metric) -> None:
        kind = self.fstrips.OptimizationType.from_string(metric.direction)
        task.plan_metric = self.fstrips.OptimizationMetric(self._term(metric.expression, {}), kind)

    # Declarations ---------------------------------------------------------------------------------

    def _declare(self, node: ast.Node, make: Any) -> Any:
        """Run a tarski declaration, turning its name clashes into a refusal at the declaration."""
        try:
            return make()
        except self.errors.DuplicateDefinition as exc:
            raise _no(f"the name {getattr(node, 'name', '?')}", node,
                      f"tarski has one namespace for types, constants, predicates and functions ({exc})") from None

    def _sorts(self) -> None:
        hierarchy = TypeHierarchy.of(self.domain)
        declared = {t.name: t for t in self.domain.types}
        refuse_type_shapes(self.domain, hierarchy, TO_TARSKI, TARGET)
        created = {OBJECT}
        # Parents first, whatever the declaration order: tarski needs a sort's parent to exist.
        for name in self._parents_first(hierarchy, [t.name for t in self.domain.types]):
            if name in created or name == NUMBER:
                continue
            parent = hierarchy.parents[name][0] if hierarchy.parents.get(name) else OBJECT
            node = declared.get(name)
            self._declare(node or ast.TypeName(name), lambda n=name, p=parent: self.lang.sort(n, p))
            created.add(name)

    @staticmethod
    def _parents_first(hierarchy: TypeHierarchy, names: Sequence[str]) -> Iterator[str]:
        done: set[str] = set()
        for name in names:
            chain: list[str] = []
            current: str | None = name
            while current is not None and current not in done and current != OBJECT and current not in chain:
                chain.append(current)
                parents = hierarchy.parents.get(current, ())
                current = parents[0] if parents else None
            for t in reversed(chain):
                done.add(t)
                yield t

    def _sort(self, ref: ast.TypeRef | None) -> Any:
        if ref is None:
            return self.lang.get_sort(OBJECT)
        if isinstance(ref, ast.Either):
            raise _no("an (either ...) type", ref)
        if not self.lang.has_sort(ref.name):
            raise _no(f"the undeclared type {ref.name}", ref)
        return self.lang.get_sort(ref.name)

    def _sorts_of(self, parameters: Sequence[ast.TypedName]) -> list[Any]:
        return [self._sort(p.type) for p in parameters]

    def _value_sort(self, f: ast.FunctionDecl) -> Any:
        return self.lang.get_sort("number") if _is_numeric(f) else self._sort(f.type)

    def _constants(self) -> None:
        seen: set[str] = set()
        for obj in (*self.domain.constants, *self.problem.objects):
            if obj.name in seen:
                continue  # a repeated declaration is the checker's to report; the first one counts
            seen.add(obj.name)
            sort = self._sort(obj.type)
            self._declare(obj, lambda o=obj, s=sort: self.lang.constant(o.name, s))

    def _variables(self, parameters: Sequence[ast.TypedName]) -> list[Any]:
        return [self.lang.variable(p.name, self._sort(p.type)) for p in parameters]

    # Actions ----------------------------------------------------------------------------------------

    def _action(self, task: Any, action: ast.Action) -> None:
        if action.vars:
            raise _no(f"the :vars of action {action.name}", action.vars[0])
        parameters = self._variables(action.parameters)
        scope = {v.symbol: v for v in parameters}
        precondition = (self._formula(action.precondition, scope) if action.precondition is not None
                        else self.syntax.Tautology())
        effects: list[Any] = []
        cost: Any = None
        for part in _effect_parts(action.effect):
            if _is_cost(part):
                assert isinstance(part, ast.Assign)
                if cost is not None:
                    raise _no(f"a second total-cost effect in action {action.name}", part)
                cost = self.fstrips.action.AdditiveActionCost(self._term(part.value, scope))
            else:
                effects.extend(self._effect(part, scope, None))
        binding = self.syntax.formulas.VariableBinding(parameters)
        self._declare(action, lambda: task.action(action.name, binding, precondition, effects, cost))

    def _uniform_costs(self, task: Any) -> None:
        if any(a.cost for a in task.actions.values()):
            for a in task.actions.values():
                if not a.cost:
                    a.cost = self.fstrips.action.generate_zero_action_cost(self.lang)

    def _effect(self, effect: ast.Effect, scope: dict[str, Any], condition: Any) -> list[Any]:
        top = self.syntax.Tautology() if condition is None else condition
        match effect:
            case ast.Atom():
                return [self.fstrips.AddEffect(self._atom(effect, scope), top)]
            case ast.Not():
                if not isinstance(effect.body, ast.Atom):
                    raise _no("the negation of a non-atomic effect", effect)
                return [self.fstrips.DelEffect(self._atom(effect.body, scope), top)]
            case ast.AndEffect():
                return [e for part in effect.parts for e in self._effect(part, scope, condition)]
            case ast.Assign():
                if _is_cost(effect):
                    raise _no("a total-cost effect that is conditional or quantified", effect,
                              "tarski keeps an action's cost as one unconditional addend")
                lhs = self._term(effect.fluent, scope)
                rhs = self._term(effect.value, scope)
                if effect.op != "assign":
                    rhs = self._arithmetic(_ASSIGN_OPERATOR[effect.op], lhs, rhs)
                return [self.fstrips.FunctionalEffect(lhs, rhs, top)]
            case ast.When():
                if condition is not None:
                    raise _no("a conditional effect inside a conditional effect", effect)
                cond = self._formula(effect.condition, scope)
                inner = self._effect(effect.body, scope, cond)
                if any(isinstance(e, self.fstrips.UniversalEffect) for e in inner):
                    raise _no("a forall effect inside a conditional effect", effect.body)
                return inner
            case ast.ForallEffect():
                if condition is not None:
                    raise _no("a forall effect inside a conditional effect", effect)
                variables = self._variables(effect.variables)
                inner_scope = {**scope, **{v.symbol: v for v in variables}}
                return [self.fstrips.UniversalEffect(variables, self._effect(effect.body, inner_scope, None))]
            case ast.Timed():
                raise _no(f"a timed effect (at {effect.time} ...)", effect)
            case _:
                assert_never(effect)

    # Formulas and terms -----------------------------------------------------------------------------

    def _formula(self, formula: ast.Formula, scope: dict[str, Any]) -> Any:
        s = self.syntax
        match formula:
            case ast.Atom():
                return self._atom(formula, scope)
            case ast.And():
                parts = [self._formula(p, scope) for p in formula.parts]
                if not parts:
                    return s.Tautology()
                return parts[0] if len(parts) == 1 else s.CompoundFormula(s.Connective.And, parts)
            case ast.Or():
                return s.CompoundFormula(s.Connective.Or, [self._formula(p, scope) for p in formula.parts])
            case ast.Not():
                return s.neg(self._formula(formula.body, scope))
            case ast.Imply():
                return s.implies(self._formula(formula.condition, scope), self._formula(formula.consequence, scope))
            case ast.Exists() | ast.Forall():
                variables = self._variables(formula.variables)
                body = self._formula(formula.body, {**scope, **{v.symbol: v for v in variables}})
                quantify = s.exists if isinstance(formula, ast.Exists) else s.forall
                return quantify(*variables, body)
            case ast.Comparison():
                symbol = self.builtins.get_predicate_from_symbol(formula.op)
                left, right = self._term(formula.left, scope), self._term(formula.right, scope)
                return self.lang.dispatch_operator(symbol, s.Term, s.Term, left, right)
            case ast.Preference():
                raise _no("a preference", formula)
            case ast.Timed():
                raise _no(f"a timed condition (at {formula.time} ...)", formula)
            case (ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter()
                  | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
                raise _no(f"the trajectory constraint {type(formula).__name__}", formula)
            case _:
                assert_never(formula)

    def _atom(self, atom: ast.Atom, scope: dict[str, Any]) -> Any:
        if not self.lang.has_predicate(atom.predicate):
            raise _no(f"the undeclared predicate {atom.predicate}", atom)
        return self.lang.get_predicate(atom.predicate)(*(self._term(a, scope) for a in atom.args))

    def _term(self, term: ast.Expression, scope: dict[str, Any]) -> Any:
        match term:
            case ast.Variable():
                if term.name not in scope:
                    raise _no(f"the free variable {term.name}", term)
                return scope[term.name]
            case ast.Constant():
                if self.lang.has_constant(term.name):
                    return self.lang.get_constant(term.name)
                if self.lang.has_function(term.name):  # a 0-ary function written without parentheses
                    return self.lang.get_function(term.name)()
                raise _no(f"the undeclared constant {term.name}", term)
            case ast.Number():
                return _number(term.value)
            case ast.FunctionTerm():
                if term.function == "total-time":
                    raise _no("total-time", term, "tarski has no plan duration")
                if not self.lang.has_function(term.function):
                    raise _no(f"the undeclared function {term.function}", term)
                function = self.lang.get_function(term.function)
                args = [self._term(a, scope) for a in term.args]
                return function(*(d.to_constant(a) if not isinstance(a, self.syntax.Term) else a
                                  for d, a in zip(function.domain, args, strict=False)))
            case ast.Arithmetic():
                if len(term.args) == 1:
                    raise _no("unary minus", term, "tarski's PDDL language has binary arithmetic only")
                args = [self._term(a, scope) for a in term.args]
                result = args[0]
                for arg in args[1:]:  # (+ a b c) is ((a + b) + c)
                    result = self._arithmetic(term.op, result, arg)
                return result
            case ast.ContinuousTime():
                raise _no("#t", term)
            case ast.IsViolated():
                raise _no("is-violated", term)
            case _:
                assert_never(term)

    def _arithmetic(self, op: str, left: Any, right: Any) -> Any:
        symbol = self.builtins.get_function_from_symbol(op)
        return self.lang.dispatch_operator(symbol, self.syntax.Term, self.syntax.Term, left, right)

    # The initial state ------------------------------------------------------------------------------

    def _init(self, task: Any, element: ast.InitElement) -> None:
        if isinstance(element, ast.Atom):
            task.init.add(self._atom(element, {}))
        elif isinstance(element, ast.InitAssignment):
            fluent = self._term(element.fluent, {})
            value = element.value
            task.init.set(fluent, _number(value.value) if isinstance(value, ast.Number) else self._term(value, {}))
        elif isinstance(element, ast.TimedInitial):
            raise _no("a timed initial literal", element)
        # `(not p)` in :init says what the closed world already says.


def _collect(refused: list[Diagnostic], convert: Any) -> None:
    try:
        convert()
    except InteropError as exc:
        refused.extend(exc.diagnostics)


def _is_numeric(f: ast.FunctionDecl) -> bool:
    return f.type is None or (isinstance(f.type, ast.TypeName) and f.type.name == NUMBER)


def _is_cost(effect: ast.Effect) -> bool:
    return (isinstance(effect, ast.Assign) and effect.op == "increase"
            and effect.fluent.function == "total-cost" and not effect.fluent.args)


def _effect_parts(effect: ast.Effect | None) -> Iterator[ast.Effect]:
    """The top-level effects of an action, nested conjunctions flattened."""
    if effect is None:
        return
    if isinstance(effect, ast.AndEffect):
        for part in effect.parts:
            yield from _effect_parts(part)
    else:
        yield effect


def to_tarski(domain: ast.Domain, problem: ast.Problem) -> Any:
    """The tarski `fstrips.Problem` for a domain and problem; `InteropError` names what tarski cannot express."""
    return _ToTarski(domain, problem).build()


# ------------------------------------------------------------------------------------------------
# tarski → PDDL


def _from_no(construct: str) -> InteropError:
    return refuse(FROM_FRAMEWORK, "PDDL by pddltools", construct, None)


class _FromTarski:
    def __init__(self, task: Any) -> None:
        self.task = task
        self.lang = task.language
        self.syntax = require("tarski.syntax", "tarski")
        self.fstrips = require("tarski.fstrips", "tarski")
        self.used_constants: set[str] = set()
        self.requirements: set[str] = set()

    def build(self) -> tuple[ast.Domain, ast.Problem]:
        types = tuple(self._types())
        predicates = tuple(
            ast.PredicateDecl(p.name, self._parameters(p.domain))
            for p in self.lang.predicates if not p.builtin
        )
        functions = tuple(
            ast.FunctionDecl(f.name, self._parameters(f.domain), self._type(f.codomain))
            for f in self.lang.functions if not f.builtin
        )
        if functions:
            self.requirements.add(":numeric-fluents")
        structures: list[ast.Structure] = [self._action(a) for a in self.task.actions.values()]
        structures += [self._derived(d) for d in self.task.derived_predicates.values()]
        if self.task.constraints:
            raise _from_no("tarski state constraints")
        domain_constants = tuple(
            ast.TypedName(c.name, self._type(c.sort)) for c in self.lang.constants() if c.name in self.used_constants
        )
        objects = tuple(
            ast.TypedName(c.name, self._type(c.sort)) for c in self.lang.constants()
            if c.name not in self.used_constants
        )
        init = tuple(self._init())
        goal = self._formula(self.task.goal) if self.task.goal is not None else None
        metric = None
        if self.task.plan_metric is not None:
            m = self.task.plan_metric
            expression = self._term(m.opt_expression)
            metric = ast.Metric("minimize", expression) if str(m.opt_type) == "minimize" else \
                ast.Metric("maximize", expression)
        if types:
            self.requirements.add(":typing")
        requirements = tuple(ast.Requirement(r) for r in sorted(self.requirements))
        domain = ast.Domain(
            name=self.task.domain_name, requirements=requirements, types=types, constants=domain_constants,
            predicates=predicates, functions=functions, structures=tuple(structures),
        )
        problem = ast.Problem(name=self.task.name, domain=self.task.domain_name, objects=objects, init=init,
                              goal=goal, metric=metric)
        return domain, problem

    def _types(self) -> Iterator[ast.TypedName]:
        for sort in self.lang.sorts:
            if sort.name == OBJECT or sort.builtin or sort.name in _NUMERIC_SORTS:
                continue
            parent = self.lang.immediate_parent[sort]
            yield ast.TypedName(sort.name, ast.TypeName(parent.name) if parent is not None else None)

    def _type(self, sort: Any) -> ast.TypeName:
        if sort.name in _NUMERIC_SORTS or sort.builtin:
            return ast.TypeName(NUMBER)
        return ast.TypeName(sort.name)

    def _parameters(self, sorts: Sequence[Any]) -> tuple[ast.TypedName, ...]:
        return tuple(ast.TypedName(f"?x{i}", self._type(s)) for i, s in enumerate(sorts, 1))

    def _variables(self, variables: Sequence[Any]) -> tuple[ast.TypedName, ...]:
        return tuple(ast.TypedName(_variable_name(v.symbol), self._type(v.sort)) for v in variables)

    def _action(self, action: Any) -> ast.Action:
        parts = [self._effect(e) for e in action.effects]
        if action.cost is not None and not _is_zero(action.cost.addend):
            self.requirements.add(":action-costs")
            parts.append(ast.Assign("increase", ast.FunctionTerm("total-cost"), self._term(action.cost.addend)))
        precondition = self._formula(action.precondition)
        return ast.Action(
            name=action.name, parameters=self._variables(list(action.parameters)),
            precondition=None if precondition == ast.And() else precondition,
            effect=parts[0] if len(parts) == 1 else ast.AndEffect(tuple(parts)),
        )

    def _derived(self, derived: Any) -> ast.DerivedPredicate:
        self.requirements.add(":derived-predicates")
        declaration = ast.PredicateDecl(derived.predicate.name, self._variables(list(derived.parameters)))
        return ast.DerivedPredicate(declaration, self._formula(derived.formula))

    def _effect(self, effect: Any) -> ast.Effect:
        f = self.fstrips
        if isinstance(effect, f.UniversalEffect):
            self.requirements.add(":conditional-effects")
            inner = [self._effect(e) for e in effect.effects]
            body: ast.Effect = inner[0] if len(inner) == 1 else ast.AndEffect(tuple(inner))
            single: ast.Effect = ast.ForallEffect(self._variables(effect.variables), body)
        elif isinstance(effect, f.AddEffect):
            single = self._atom(effect.atom)
        elif isinstance(effect, f.DelEffect):
            single = ast.Not(self._atom(effect.atom))
        elif isinstance(effect, f.FunctionalEffect):
            single = self._assignment(effect)
        else:
            raise _from_no(f"the tarski effect {type(effect).__name__}")
        condition = effect.condition
        if condition is None or isinstance(condition, self.syntax.Tautology):
            return single
        self.requirements.add(":conditional-effects")
        return ast.When(self._formula(condition), single)

    def _assignment(self, effect: Any) -> ast.Assign:
        fluent = self._term(effect.lhs)
        assert isinstance(fluent, ast.FunctionTerm)
        rhs = effect.rhs
        # `f := f op e` is how tarski's reader writes increase, decrease, scale-up and scale-down.
        if (isinstance(rhs, self.syntax.CompoundTerm) and rhs.symbol.builtin and len(rhs.subterms) == 2
                and str(rhs.symbol.symbol) in _OPERATOR_ASSIGN and self._term(rhs.subterms[0]) == fluent):
            op = _OPERATOR_ASSIGN[str(rhs.symbol.symbol)]
            return ast.Assign(op, fluent, self._term(rhs.subterms[1]))  # type: ignore[arg-type]
        return ast.Assign("assign", fluent, self._term(rhs))

    def _formula(self, formula: Any) -> ast.Formula:
        s = self.syntax
        if isinstance(formula, s.Tautology):
            return ast.And()
        if isinstance(formula, s.Contradiction):
            return ast.Or()
        if isinstance(formula, s.Atom):
            if formula.predicate.builtin:
                self.requirements.add(":equality" if str(formula.predicate.symbol) == "=" else ":numeric-fluents")
                left, right = formula.subterms
                return ast.Comparison(str(formula.predicate.symbol), self._term(left),  # type: ignore[arg-type]
                                      self._term(right))
            return self._atom(formula)
        if isinstance(formula, s.CompoundFormula):
            parts = tuple(self._formula(p) for p in formula.subformulas)
            if formula.connective == s.Connective.And:
                return ast.And(parts)
            if formula.connective == s.Connective.Or:
                self.requirements.add(":disjunctive-preconditions")
                return ast.Or(parts)
            if formula.connective == s.Connective.Not:
                self.requirements.add(":negative-preconditions")
                return ast.Not(parts[0])
            # No other connective: tarski's `implies` builds `(or (not a) b)` itself.
            raise _from_no(f"the tarski connective {formula.connective}")
        if isinstance(formula, s.QuantifiedFormula):
            variables = self._variables(formula.variables)
            body = self._formula(formula.formula)
            if formula.quantifier == s.Quantifier.Exists:
                self.requirements.add(":existential-preconditions")
                return ast.Exists(variables, body)
            self.requirements.add(":universal-preconditions")
            return ast.Forall(variables, body)
        raise _from_no(f"the tarski formula {type(formula).__name__}")

    def _atom(self, atom: Any) -> ast.Atom:
        return ast.Atom(atom.predicate.name, tuple(self._object_term(t) for t in atom.subterms))

    def _object_term(self, term: Any) -> ast.Term:
        result = self._term(term)
        if isinstance(result, ast.Number | ast.Arithmetic):
            raise _from_no(f"the number {term} as an argument")
        return result  # type: ignore[return-value]

    def _term(self, term: Any) -> ast.Expression:
        s = self.syntax
        if isinstance(term, s.Variable):
            return ast.Variable(_variable_name(term.symbol))
        if isinstance(term, s.Constant):
            if term.sort.builtin or term.sort.name in _NUMERIC_SORTS:
                return ast.Number(_exact(term.symbol))
            self.used_constants.add(term.name)
            return ast.Constant(term.name)
        if isinstance(term, s.CompoundTerm):
            args = tuple(self._term(t) for t in term.subterms)
            if term.symbol.builtin:
                symbol = str(term.symbol.symbol)
                if symbol not in ("+", "-", "*", "/"):
                    raise _from_no(f"the tarski function {symbol}")
                return ast.Arithmetic(symbol, args)  # type: ignore[arg-type]
            return ast.FunctionTerm(term.symbol.name, args)  # type: ignore[arg-type]
        if isinstance(term, int | float | Fraction):
            return ast.Number(_exact(term))
        raise _from_no(f"the tarski term {type(term).__name__}")

    def _init(self) -> Iterator[ast.InitElement]:
        for element in self.task.init.as_atoms():
            if isinstance(element, tuple):
                fluent, value = element
                term = self._term(fluent)
                assert isinstance(term, ast.FunctionTerm)
                converted = self._term(value)
                if not isinstance(converted, ast.Number | ast.Constant):
                    raise _from_no(f"the initial value {value}")
                yield ast.InitAssignment(term, converted)
            else:
                yield self._atom(element)


def _variable_name(symbol: str) -> str:
    return symbol if symbol.startswith("?") else f"?{symbol}"


def _exact(value: Any) -> int | Fraction:
    """Numbers back in pddltools' exact form: `int`, or the `Fraction` of the shortest decimal."""
    if isinstance(value, int):
        return value
    number = Fraction(str(value))
    return int(number) if number.denominator == 1 else number


def _is_zero(term: Any) -> bool:
    symbol = getattr(term, "symbol", term)
    return isinstance(symbol, int | float) and symbol == 0


def from_tarski(task: Any) -> tuple[ast.Domain, ast.Problem]:
    """pddltools' `(Domain, Problem)` for a tarski `fstrips.Problem`."""
    return _FromTarski(task).build()


__all__ = ["from_tarski", "to_tarski"]

