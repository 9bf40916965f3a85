"""Remove object fluents (functions whose values are objects) in favour of predicates.

Requires: object fluents used as arguments of atoms and comparisons in formulas, assigned an object, a
variable or another object fluent's value; not nested inside the arguments of an assignment's target.
Guarantees: no object fluent. A function `(f ?x) - t` becomes a predicate `(f ?x ?value - t)`, true of
the current value only: the initial `(= (f a) b)` becomes `(f a b)`; a formula that reads `(f a)` reads
it through a fresh existential variable, `(exists (?v - t) (and (f a ?v) ...))` (an equality `(= (f a)
b)` simply becomes `(f a b)`); `(assign (f a) b)` deletes every `(f a ?o)` and adds `(f a b)` (PDDL
applies adds after deletes), and assigning another fluent's value copies it under a `forall`/`when`.
So the predicate stays functional. The result uses existential preconditions and universal (and maybe
conditional) effects, which later passes remove. The domain stays domain-level.
"""

from __future__ import annotations

from dataclasses import replace

from pddltools.check.features import object_functions
from pddltools.compile.errors import compile_error
from pddltools.compile.formulas import Fresh, Rewriter, conjoin, variables_in
from pddltools.compile.task import ParsedTask, PassResult, identity, names_in_use, unique_name
from pddltools.pddl import ast


class _Rewriter(Rewriter):
    """Object fluents become predicates with the value as a last argument; `fresh` names the variables
    their values are read through, for the structure being rewritten."""

    def __init__(self, functions: dict[str, ast.FunctionDecl], names: dict[str, str]) -> None:
        self.functions = functions
        self.names = names
        self.fresh = Fresh(())

    def value_type(self, function: str) -> ast.TypeRef | None:
        return self.functions[function].type

    def is_fluent(self, term: object) -> bool:
        return isinstance(term, ast.FunctionTerm) and term.function in self.functions

    def atom(self, term: ast.FunctionTerm, value: ast.Term) -> ast.Atom:
        return ast.Atom(self.names[term.function], (*term.args, value))

    def formula(self, formula: ast.Formula) -> ast.Formula:
        if isinstance(formula, ast.Comparison) and formula.op == "=":
            left, right = formula.left, formula.right
            if self.is_fluent(left) and isinstance(right, ast.Variable | ast.Constant):
                return self.formula(self.atom(left, right))  # type: ignore[arg-type]
            if self.is_fluent(right) and isinstance(left, ast.Variable | ast.Constant):
                return self.formula(self.atom(right, left))  # type: ignore[arg-type]
            if self.is_fluent(left) and self.is_fluent(right):  # one value both have
                value = ast.Variable(self.fresh("?val"))
                both = conjoin([self.atom(left, value), self.atom(right, value)])  # type: ignore[arg-type]
                return ast.Exists((ast.TypedName(value.name, self.value_type(left.function)),),  # type: ignore[union-attr]
                                  self.formula(both))
        if isinstance(formula, ast.Atom | ast.Comparison):
            return self.lift(formula)
        return super().formula(formula)

    def lift(self, formula: ast.Atom | ast.Comparison) -> ast.Formula:
        """Read each object fluent among the literal's arguments through an existential variable."""
        found: list[tuple[ast.FunctionTerm, ast.Variable]] = []

        def term(t: ast.Expression) -> ast.Expression:
            if isinstance(t, ast.FunctionTerm):
                inner = replace(t, args=tuple(term(a) for a in t.args))  # type: ignore[misc]
                if inner.function in self.functions:
                    variable = ast.Variable(self.fresh("?val"))
                    found.append((inner, variable))
                    return variable
                return inner
            return t

        if isinstance(formula, ast.Atom):
            rebuilt: ast.Formula = replace(formula, args=tuple(term(a) for a in formula.args))  # type: ignore[misc]
        else:
            rebuilt = replace(formula, left=term(formula.left), right=term(formula.right))
        if not found:
            return formula
        reads = [self.atom(f, v) for f, v in found]
        variables = tuple(ast.TypedName(v.name, self.value_type(f.function)) for f, v in found)
        return ast.Exists(variables, conjoin([*reads, rebuilt]))

    def literal(self, effect: ast.Effect) -> ast.Effect:
        """A literal or an assignment: assignments to object fluents become predicate updates."""
        if isinstance(effect, ast.Atom | ast.Not):
            target = effect if isinstance(effect, ast.Atom) else effect.body
            if isinstance(target, ast.Atom) and any(self.is_fluent(a) for a in target.args):
                raise compile_error("E801", f"an effect on {target} names an object fluent's value", effect.span)
            return effect
        if isinstance(effect, ast.Assign) and effect.fluent.function in self.functions:
            fluent = effect.fluent
            if effect.op != "assign" or any(self.is_fluent(a) for a in fluent.args):
                raise compile_error("E801", f"cannot compile {effect} into predicates", effect.span)
            old = ast.Variable(self.fresh("?old"))
            value_type = self.value_type(fluent.function)
            clear = ast.ForallEffect((ast.TypedName(old.name, value_type),), ast.Not(self.atom(fluent, old)))
            value = effect.value
            if isinstance(value, ast.Variable | ast.Constant):
                return ast.AndEffect((clear, self.atom(fluent, value)))
            if self.is_fluent(value) and not any(self.is_fluent(a) for a in value.args):  # type: ignore[union-attr]
                new = ast.Variable(self.fresh("?new"))
                copy = ast.ForallEffect((ast.TypedName(new.name, value_type),), ast.When(
                    self.atom(value, new), self.atom(fluent, new)))  # type: ignore[arg-type]
                return ast.AndEffect((clear, copy))
            raise compile_error("E801", f"cannot compile {effect} into predicates", effect.span)
        return effect


def remove_object_fluents(task: ParsedTask) -> PassResult:
    """Replace object fluents by functional predicates (see the module docstring)."""
    domain, problem = task.domain, task.problem
    objects = object_functions(domain)
    functions = {f.name: f for f in domain.functions if f.name in objects}
    taken = names_in_use(domain) - set(functions)
    names = {name: unique_name(name, taken) for name in functions}
    rewriter = _Rewriter(functions, names)
    structures: list[ast.Structure] = []
    for s in domain.structures:
        rewriter.fresh = Fresh(variables_in(s))
        if isinstance(s, ast.Action):
            s = replace(s, precondition=rewriter.formula(s.precondition) if s.precondition else None,
                        effect=rewriter.effect(s.effect) if s.effect else None)
        elif isinstance(s, ast.DerivedPredicate):
            s = replace(s, body=rewriter.formula(s.body))
        structures.append(s)
    predicates = [*domain.predicates, *(ast.PredicateDecl(names[f.name], (
        *f.parameters, ast.TypedName("?value", f.type))) for f in functions.values())]
    init: list[ast.InitElement] = []
    for element in problem.init:
        if isinstance(element, ast.InitAssignment) and element.fluent.function in functions:
            if isinstance(element.value, ast.Constant):
                init.append(rewriter.atom(element.fluent, element.value))
        else:
            init.append(element)
    goal = None
    if problem.goal is not None:
        rewriter.fresh = Fresh(variables_in(problem.goal))
        goal = rewriter.formula(problem.goal)
    domain = replace(domain, predicates=tuple(predicates),
                     functions=tuple(f for f in domain.functions if f.name not in functions),
                     structures=tuple(structures))
    return PassResult(ParsedTask(domain, replace(problem, init=tuple(init), goal=goal)), identity(domain))
