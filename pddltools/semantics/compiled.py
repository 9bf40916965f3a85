"""Lifted formulas and effects compiled once per task into closures over a binding and a state.

`Evaluator.holds` and `apply.collect` walked the formula tree on every call, dispatching on node types
and building each atom's key argument by argument. Here each node becomes a closure the first time it
is met: an atom's key is assembled by one `itemgetter` over the binding, a conjunction is a loop over
its parts' closures. Only the common cases are compiled (atoms of basic predicates whose arguments are
variables and constants, `not`, `and`, `or`, `imply`; adds and deletes under `and`); every other node
keeps its evaluation in `evaluate.py` / `apply.py`, so the meaning is defined in one place and this
is only a faster route to it.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from pddltools.pddl import ast
from pddltools.semantics.errors import UnboundVariable
from pddltools.semantics.grounding import Binding
from pddltools.semantics.state import FluentValue, GroundAtom, GroundFluent, State

if TYPE_CHECKING:
    from pddltools.semantics.apply import Effects
    from pddltools.semantics.evaluate import Evaluator

Holds = Callable[[Binding, State], bool]
#: adds the ground effects of one effect node to `Effects`
Collect = Callable[[Binding, State, "Effects"], None]

#: The numeric comparisons (`=` also of objects), shared with `Evaluator._comparison`.
COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: bool(a == b),
    "<": lambda a, b: bool(a < b),
    "<=": lambda a, b: bool(a <= b),
    ">": lambda a, b: bool(a > b),
    ">=": lambda a, b: bool(a >= b),
}


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


def compile_formula(ev: Evaluator, f: ast.Formula) -> Holds:
    if isinstance(f, ast.Atom) and f.predicate not in ev.derived_names:
        make = key_maker(f)
        if make is not None:
            def atom(b: Binding, s: State) -> bool:
                try:
                    return make(b) in s.atoms
                except KeyError as exc:
                    raise UnboundVariable(str(exc.args[0])) from None
            return atom
    elif isinstance(f, ast.Not):
        inner = ev.compiled(f.body)
        return lambda b, s: not inner(b, s)
    elif isinstance(f, ast.And):
        parts = [ev.compiled(p) for p in f.parts]

        def every(b: Binding, s: State) -> bool:
            for part in parts:  # noqa: SIM110 (a loop: no generator to create on every call)
                if not part(b, s):
                    return False
            return True
        return every
    elif isinstance(f, ast.Or):
        options = [ev.compiled(p) for p in f.parts]

        def some(b: Binding, s: State) -> bool:
            for option in options:  # noqa: SIM110
                if option(b, s):
                    return True
            return False
        return some
    elif isinstance(f, ast.Imply):
        condition, consequence = ev.compiled(f.condition), ev.compiled(f.consequence)
        return lambda b, s: not condition(b, s) or consequence(b, s)
    elif isinstance(f, ast.Comparison):
        compare = _compile_comparison(f)
        if compare is not None:
            return compare
    general: Callable[[Any, Binding, State], bool] = ev.dispatch[type(f)]
    return lambda b, s: general(f, b, s)


def _fluent_key(term: ast.FunctionTerm) -> Callable[[Binding], GroundFluent] | None:
    """A function from a binding to a fluent's key (as `key_maker` for atoms), or None."""
    return key_maker(ast.Atom(term.function, term.args))


def _operand(expr: ast.Expression) -> tuple[Callable[[Binding], GroundFluent] | None, FluentValue | None] | None:
    """`(key of a binding, None)` for a fluent whose arguments are variables and constants, `(None,
    value)` for a literal, None for anything else."""
    if isinstance(expr, ast.FunctionTerm):
        if not expr.args:
            key: GroundFluent = (expr.function,)
            return (lambda b: key), None
        return (found, None) if (found := _fluent_key(expr)) is not None else None
    if isinstance(expr, ast.Number):
        return None, expr.value
    return None


def _compile_comparison(f: ast.Comparison) -> Holds | None:
    """A comparison of fluents (with variables and constants for arguments) and literals (most numeric
    and PDDL+ conditions) as one read of each value: `Evaluator._comparison`'s meaning (an undefined
    value makes it false, objects compare only for equality) without its walk and its exception for an
    undefined fluent."""
    left, right = _operand(f.left), _operand(f.right)
    if left is None or right is None:
        return None
    (left_key, left_value), (right_key, right_value) = left, right
    op = f.op
    test = COMPARE[op]

    def compare(b: Binding, s: State) -> bool:
        values = s.values
        try:
            a = left_value if left_key is None else values.get(left_key(b))
            c = right_value if right_key is None else values.get(right_key(b))
        except KeyError as exc:
            raise UnboundVariable(str(exc.args[0])) from None
        if a is None or c is None:
            return False
        if isinstance(a, str) or isinstance(c, str):
            return op == "=" and a == c
        return test(a, c)
    return compare


def compile_effect(ev: Evaluator, effect: ast.Node, general: Callable[[ast.Node, Binding, State, Effects], None]
                   ) -> Collect:
    """Adds and deletes under `and` compiled; anything else through `general` (`apply._collect`)."""
    if isinstance(effect, ast.AndEffect):
        parts = [compile_effect(ev, p, general) for p in effect.parts]

        def every(b: Binding, s: State, out: Effects) -> None:
            for part in parts:
                part(b, s, out)
        return every
    if isinstance(effect, ast.Atom):
        add = key_maker(effect)
        if add is not None:
            return lambda b, s, out: out.adds.add(_key(add, b))
    if isinstance(effect, ast.Assign) and not effect.fluent.args and isinstance(effect.value, ast.Number):
        # `(increase (opened) 1)`: the key and the value are the same at every call
        key, update = (effect.fluent.function,), (effect.op, effect.value.value)
        return lambda b, s, out: out.updates.setdefault(key, []).append(update)
    if isinstance(effect, ast.Not) and isinstance(effect.body, ast.Atom):
        delete = key_maker(effect.body)
        if delete is not None:
            return lambda b, s, out: out.deletes.add(_key(delete, b))
    return lambda b, s, out: general(effect, b, s, out)


def _key(make: Callable[[Binding], GroundAtom], b: Binding) -> GroundAtom:
    try:
        return make(b)
    except KeyError as exc:
        raise UnboundVariable(str(exc.args[0])) from None
