"""What formulas, expressions and effects mean: every node kind compiled once to a closure.

This is the one place the meaning of each construct is written. A node becomes a closure over a binding
and a state the first time it is met (`Evaluator.compiled`, `Evaluator.expression`, `Evaluator.effect`
keep them per node), built from its parts' closures, so that reading it again walks no tree and
dispatches on no type: an atom's key is assembled by one `itemgetter` over the binding, a conjunction is
a loop over its parts' closures, a comparison of fluents is one read of each value. `Evaluator.holds`,
`value`, `number`, `term` and `fluent` call these closures; `explain` and the validators read formulas
only through them. Each node union of the syntax tree is matched exhaustively (`assert_never`): a new
kind of node is a type error here until its meaning is written.

A fluent without a value makes a comparison that reads it false (VAL's reading), and an atom whose
argument is an undefined object fluent false.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from fractions import Fraction
from operator import itemgetter

from pddltools.pddl import ast
from pddltools.semantics.errors import ArithmeticFault, UnboundVariable, UndefinedValue, Unsupported
from pddltools.semantics.grounding import Binding
from pddltools.semantics.state import FluentValue, GroundAtom, GroundFluent, Number, State, normal, show_atom
from pddltools.static_typing import assert_never

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from pddltools.semantics.apply import Effects
    from pddltools.semantics.evaluate import Evaluator

#: whether a formula holds under a binding in a state
Holds = Callable[[Binding, State], bool]
#: adds the ground effects of one effect node to `Effects`
Collect = Callable[[Binding, State, "Effects"], None]
#: an expression's value under a binding in a state (with the preferences' violations, for a metric)
Reads = Callable[[Binding, State, "Mapping[str, int] | None"], FluentValue]
#: the object a term stands for
Term = Callable[[Binding, State], str]
#: a fluent's ground key
Key = Callable[[Binding, State], GroundFluent]

#: The numeric comparisons (`=` also of objects).
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: bool(a == b),
    "<": lambda a, b: bool(a < b),
    "<=": lambda a, b: bool(a <= b),
    ">": lambda a, b: bool(a > b),
    ">=": lambda a, b: bool(a >= b),
}

#: The same comparisons of two `int`s (the operator module's, without a Python frame).
_INTEGER_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def key_maker(atom: ast.Atom) -> Callable[[Binding], GroundAtom] | None:
    """A function from a binding to the atom's ground key, or None when an argument is not a variable
    or a constant (an object fluent is read in the state)."""
    predicate = atom.predicate
    spec: list[tuple[bool, str]] = []
    for term in atom.args:
        if isinstance(term, ast.Variable):
            spec.append((True, term.name))
        elif isinstance(term, ast.Constant):
            spec.append((False, term.name))
        else:
            return None
    names = [name for is_variable, name in spec if is_variable]
    if not spec:
        constant: GroundAtom = (predicate,)
        return lambda b: constant
    if len(names) == len(spec):
        if len(names) == 1:
            only = names[0]
            return lambda b: (predicate, b[only])  # type: ignore[return-value]
        get = itemgetter(*names)
        return lambda b: (predicate, *get(b))
    return lambda b: (predicate, *[str(b[name]) if is_variable else name for is_variable, name in spec])


def _bound(make: Callable[[Binding], GroundAtom]) -> Callable[[Binding, State], GroundAtom]:
    """`make` (a `key_maker`) with a variable missing from the binding raised as `UnboundVariable`."""
    def key(b: Binding, s: State) -> GroundAtom:
        try:
            return make(b)
        except KeyError as exc:
            raise UnboundVariable(str(exc.args[0])) from None
    return key


def compile_atom_key(ev: Evaluator, name: str, args: tuple[ast.Term, ...]) -> Callable[[Binding, State], GroundAtom]:
    """The ground key of an atom or a fluent `(name args...)`: the objects its arguments stand for."""
    if not args:
        constant: GroundAtom = (name,)
        return lambda b, s: constant
    make = key_maker(ast.Atom(name, args))
    if make is not None:
        return _bound(make)
    terms = [ev.term_of(t) for t in args]
    return lambda b, s: (name, *[t(b, s) for t in terms])


# --------------------------------------------------------------------------------------------------
# Terms and expressions


def compile_term(ev: Evaluator, term: ast.Term) -> Term:
    """The object a term stands for: a variable's value, a constant, an object fluent's value."""
    match term:
        case ast.Variable(name=name):
            def variable(b: Binding, s: State) -> str:
                found = b.get(name)
                if found is None:
                    raise UnboundVariable(name)
                return str(found)
            return variable
        case ast.Constant(name=name):
            return lambda b, s: name
        case ast.FunctionTerm():
            key = ev.fluent_of(term)

            def object_fluent(b: Binding, s: State) -> str:
                k = key(b, s)
                found = s.values.get(k)
                if not isinstance(found, str):
                    raise UndefinedValue(show_atom(k))
                return found
            return object_fluent
        case _:
            assert_never(term)


def compile_expression(ev: Evaluator, expr: ast.Expression) -> Reads:
    """A numeric expression's value (or an object, for an object-valued term)."""
    match expr:
        case ast.Number(value=value):
            return lambda b, s, v: value
        case ast.FunctionTerm():
            key = ev.fluent_of(expr)

            def fluent(b: Binding, s: State, v: Mapping[str, int] | None) -> FluentValue:
                k = key(b, s)
                found = s.values.get(k)
                if found is None:
                    raise UndefinedValue(show_atom(k))
                return found
            return fluent
        case ast.Variable(name=name):
            def variable(b: Binding, s: State, v: Mapping[str, int] | None) -> FluentValue:
                value = b.get(name)
                if value is None:
                    raise UnboundVariable(name)
                return value
            return variable
        case ast.Constant(name=name) if name in ev.constant_functions:  # a 0-ary function without parentheses
            key0: GroundFluent = (name,)

            def constant_function(b: Binding, s: State, v: Mapping[str, int] | None) -> FluentValue:
                found = s.values.get(key0)
                if found is None:
                    raise UndefinedValue(f"({name})")
                return found
            return constant_function
        case ast.Constant(name=name):
            return lambda b, s, v: name
        case ast.Arithmetic(op=op, args=parts):
            args = [compile_number(ev, a) for a in parts]
            if len(args) == 2:
                first, second = args
                return lambda b, s, v: arithmetic(op, [first(b, s, v), second(b, s, v)])
            return lambda b, s, v: arithmetic(op, [a(b, s, v) for a in args])
        case ast.IsViolated(preference=preference):
            return lambda b, s, v: (v or {}).get(preference, 0)
        case ast.ContinuousTime():
            def elapsed(b: Binding, s: State, v: Mapping[str, int] | None) -> FluentValue:
                # #t has a value only inside a continuous effect, which `continuous` reads as a rate
                raise Unsupported("continuous effects (#t) are not supported by this validator", expr.span)
            return elapsed
        case _:
            assert_never(expr)


def compile_number(ev: Evaluator, expr: ast.Expression) -> Callable[[Binding, State, Mapping[str, int] | None], Number]:
    """An expression that must stand for a number."""
    value = ev.expression(expr)
    if isinstance(expr, ast.Number | ast.Arithmetic):  # never an object
        return value  # type: ignore[return-value]

    def number(b: Binding, s: State, v: Mapping[str, int] | None) -> Number:
        found = value(b, s, v)
        if isinstance(found, str):
            raise UndefinedValue(f"{found} (an object where a number is needed)")
        return found
    return number


def arithmetic(op: str, args: list[Number]) -> Number:
    """`(op args...)`, exactly; division by zero is an `ArithmeticFault`."""
    if op == "+":
        return normal(sum(args, 0))
    if op == "-":
        if len(args) == 1:
            return -args[0]
        out = args[0]
        for a in args[1:]:
            out = out - a
        return normal(out)
    if op == "*":
        prod: Number = 1
        for a in args:
            prod = prod * a
        return normal(prod)
    quotient = Fraction(args[0])
    for a in args[1:]:
        if a == 0:
            raise ArithmeticFault("division by zero")
        quotient = quotient / a
    return normal(quotient)


# --------------------------------------------------------------------------------------------------
# Formulas


def compile_formula(ev: Evaluator, f: ast.Formula) -> Holds:
    """Whether `f` holds: each kind of formula's meaning."""
    match f:
        case ast.Atom():
            return _atom(ev, f)
        case ast.Not(body=ast.Atom(predicate=predicate, args=())) if predicate not in ev.derived_names:
            absent: GroundAtom = (predicate,)  # `(not (open))`: one lookup, the commonest negation
            return lambda b, s: absent not in s.atoms
        case ast.Not(body=body):
            inner = ev.compiled(body)
            return lambda b, s: not inner(b, s)
        case ast.And(parts=parts):
            tests = [ev.compiled(p) for p in parts]
            # `(and c)` is `c`, `(and c d)` two calls: no loop for the conjunctions most conditions are
            if len(tests) == 1:
                return tests[0]
            if len(tests) == 2:
                first, second = tests
                return lambda b, s: first(b, s) and second(b, s)

            def every(b: Binding, s: State) -> bool:
                for test in tests:  # noqa: SIM110 (a loop: no generator to create on every call)
                    if not test(b, s):
                        return False
                return True
            return every
        case ast.Or(parts=parts):
            options = [ev.compiled(p) for p in parts]

            def some(b: Binding, s: State) -> bool:
                for option in options:  # noqa: SIM110
                    if option(b, s):
                        return True
                return False
            return some
        case ast.Imply(condition=condition, consequence=consequence):
            if_, then = ev.compiled(condition), ev.compiled(consequence)
            return lambda b, s: not if_(b, s) or then(b, s)
        case ast.Exists():
            return _exists(ev, f)
        case ast.Forall(variables=variables, body=body):
            inner_test, bindings = ev.compiled(body), ev.grounder.bindings
            return lambda b, s: all(inner_test(inner, s) for inner in bindings(variables, b))
        case ast.Comparison():
            return _comparison(ev, f)
        case ast.Preference():
            # soft: counted by `pddltools.semantics.preferences`, never what makes a formula false
            return lambda b, s: True
        case ast.Timed(body=body):
            return ev.compiled(body)  # type: ignore[arg-type]  # a condition's body is a formula
        case (ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter()
              | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
            def modal(b: Binding, s: State) -> bool:
                raise Unsupported(f"{f} is a trajectory constraint: it is read over a plan's states "
                                  "(pddltools.semantics.preferences), not in one state", f.span)
            return modal
        case _:
            assert_never(f)


def _atom(ev: Evaluator, f: ast.Atom) -> Holds:
    """A basic atom is in the state's atoms; a derived one in its derived atoms (and, while a recursive
    stratum's fixpoint is computed, a derived atom found false is noted as a miss)."""
    make = key_maker(f)
    if not f.args and f.predicate not in ev.derived_names:
        ground: GroundAtom = (f.predicate,)  # a 0-ary atom: its key is the same in every call
        return lambda b, s: ground in s.atoms
    if make is not None and f.predicate not in ev.derived_names:
        def atom(b: Binding, s: State) -> bool:
            try:
                return make(b) in s.atoms
            except KeyError as exc:
                raise UnboundVariable(str(exc.args[0])) from None
        return atom
    key = compile_atom_key(ev, f.predicate, f.args)
    derived = f.predicate in ev.derived_names

    def general(b: Binding, s: State) -> bool:
        try:
            k = key(b, s)
        except UndefinedValue:  # an undefined object fluent as an argument
            return False
        if not derived:
            return k in s.atoms
        if k in ev.derived(s):
            return True
        ev.missed(k)
        return False
    return general


def _exists(ev: Evaluator, f: ast.Exists) -> Holds:
    """Some binding of the variables satisfies the body; the bindings tried are those a positive atom of
    the body allows in the state (`Evaluator.candidates`). Nested existentials are bound together."""
    variables = list(f.variables)
    body = f.body
    while isinstance(body, ast.Exists):  # (exists (?a) (exists (?b) ...)) binds ?a and ?b together
        variables.extend(body.variables)
        body = body.body
    parts = body.parts if isinstance(body, ast.And) else (body,)
    test, candidates = ev.compiled(body), ev.candidates
    return lambda b, s: any(test(inner, s) for inner in candidates(variables, parts, b, s, f))


def _operand(expr: ast.Expression) -> tuple[Callable[[Binding], GroundFluent] | None, FluentValue | None] | None:
    """`(key of a binding, None)` for a fluent whose arguments are variables and constants, `(None,
    value)` for a literal, None for anything else."""
    if isinstance(expr, ast.FunctionTerm):
        if not expr.args:
            key: GroundFluent = (expr.function,)
            return (lambda b: key), None
        found = key_maker(ast.Atom(expr.function, expr.args))
        return (found, None) if found is not None else None
    if isinstance(expr, ast.Number):
        return None, expr.value
    return None


def _comparison(ev: Evaluator, f: ast.Comparison) -> Holds:
    """Both sides compared; an undefined value makes it false, and objects compare only for equality.
    A comparison of fluents (with variables and constants for arguments) and literals (most numeric and
    PDDL+ conditions) is one read of each value, with no exception raised for an undefined fluent."""
    op = f.op
    test, fast = COMPARE[op], _INTEGER_COMPARE[op]
    left, right = _operand(f.left), _operand(f.right)
    if left is not None and right is not None:
        (left_key, left_value), (right_key, right_value) = left, right

        def compare(b: Binding, s: State) -> bool:
            values = s.values
            try:
                a = left_value if left_key is None else values.get(left_key(b))
                c = right_value if right_key is None else values.get(right_key(b))
            except KeyError as exc:
                raise UnboundVariable(str(exc.args[0])) from None
            if a is None or c is None:
                return False
            kind_a, kind_c = type(a), type(c)
            if kind_a is int and kind_c is int:
                return fast(a, c)  # type: ignore[arg-type]  # both ints, as just checked
            if kind_a is str or kind_c is str:
                return op == "=" and a == c
            if (kind_a is Fraction or kind_a is int) and (kind_c is Fraction or kind_c is int):
                # over integers (denominators are positive): a `Fraction` comparison checks its
                # operand's abstract type first, which costs more than the products
                return fast(a.numerator * c.denominator, c.numerator * a.denominator)  # type: ignore[union-attr]
            return test(a, c)
        return compare
    return general_comparison(ev, f)


def general_comparison(ev: Evaluator, f: ast.Comparison) -> Holds:
    """A comparison of any two expressions, each read by its compiled value."""
    op, test = f.op, COMPARE[f.op]
    left_of, right_of = ev.expression(f.left), ev.expression(f.right)

    def general(b: Binding, s: State) -> bool:
        try:
            a = left_of(b, s, None)
            c = right_of(b, s, None)
        except UndefinedValue:
            return False
        if isinstance(a, str) or isinstance(c, str):
            return op == "=" and a == c
        return test(a, c)
    return general


# --------------------------------------------------------------------------------------------------
# Effects


def compile_effect(ev: Evaluator, effect: ast.Effect) -> Collect:
    """The ground effects of `effect`, added to an `Effects`: adds, deletes (of the atoms the arguments
    stand for), conditional effects (their condition read in the state before), universal effects over
    the objects of the variables' types, and updates of fluents with their values read in that state."""
    match effect:
        case ast.AndEffect(parts=parts):
            collects = [ev.effect(p) for p in parts]
            if len(collects) == 1:
                return collects[0]

            def every(b: Binding, s: State, out: Effects) -> None:
                for part in collects:
                    part(b, s, out)
            return every
        case ast.Atom(predicate=predicate, args=args):
            add = compile_atom_key(ev, predicate, args)
            return lambda b, s, out: out.adds.add(add(b, s))
        case ast.Not(body=ast.Atom(predicate=predicate, args=args)):
            delete = compile_atom_key(ev, predicate, args)
            return lambda b, s, out: out.deletes.add(delete(b, s))
        case ast.Not():
            raise Unsupported(f"{effect} is not an effect: only an atom is negated in an effect", effect.span)
        case ast.When(condition=condition, body=body):
            if_, then = ev.compiled(condition), ev.effect(body)

            def when(b: Binding, s: State, out: Effects) -> None:
                if if_(b, s):
                    then(b, s, out)
            return when
        case ast.ForallEffect(variables=variables, body=body):
            each, bindings = ev.effect(body), ev.grounder.bindings

            def forall(b: Binding, s: State, out: Effects) -> None:
                for inner in bindings(variables, b):
                    each(inner, s, out)
            return forall
        case ast.Assign():
            return _assign(ev, effect)
        case ast.Timed(body=body):
            return ev.effect(body)  # type: ignore[arg-type]  # an effect's body is an effect
        case _:
            assert_never(effect)


def _assign(ev: Evaluator, effect: ast.Assign) -> Collect:
    """An update of a fluent: its operation and the value, read in the state before the step. An
    assigned constant or variable is an object (unless it names a 0-ary function), an assigned fluent
    a number or an object, anything else a number."""
    op, value = effect.op, effect.value
    if not effect.fluent.args and isinstance(value, ast.Number):
        # `(increase (opened) 1)`: the key and the value are the same at every call
        key0, update = (effect.fluent.function,), (op, value.value)
        return lambda b, s, out: out.updates.setdefault(key0, []).append(update)
    return general_update(ev, effect)


def general_update(ev: Evaluator, effect: ast.Assign) -> Collect:
    """Any update of a fluent, its key and value read under the binding in the state."""
    op, value = effect.op, effect.value
    key = ev.fluent_of(effect.fluent)
    read: Callable[[Binding, State], FluentValue]
    if op == "assign" and isinstance(value, ast.Constant | ast.Variable) and value.name not in ev.constant_functions:
        read = ev.term_of(value)
    elif op == "assign" and isinstance(value, ast.FunctionTerm):
        of = ev.expression(value)
        read = lambda b, s: of(b, s, None)  # noqa: E731
    else:
        number = compile_number(ev, value)
        read = lambda b, s: number(b, s, None)  # noqa: E731

    def assign(b: Binding, s: State, out: Effects) -> None:
        k = key(b, s)
        out.updates.setdefault(k, []).append((op, read(b, s)))
    return assign
