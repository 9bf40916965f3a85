"""Formula and effect helpers shared by the passes: negation normal form, flattening, objects, fresh names.

Substitution is the AST's own (`ast.substitute`, scope-aware, from `pddltools.tree`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import TypeHierarchy, objects_by_type, type_names, typed_objects
from pddltools.static_typing import assert_never

TRUE = ast.And(())
FALSE = ast.Or(())


class Rewriter:
    """A pass over formulas and effects that rebuilds each connective, quantifier and effect over its
    rewritten parts (conjunctions and disjunctions flattened by `conjoin`/`disjoin`, the one flattening
    rule of every pass; the other connectives rebuilt through the tree layer's `map_children`). A pass
    overrides `formula`, `effect`, `condition` or `literal` for the nodes it changes and leaves the rest
    to this class, as Unified Planning's compilers subclass one walker."""

    def formula(self, formula: ast.Formula) -> ast.Formula:
        match formula:
            case ast.And():
                return conjoin(self.formula(p) for p in formula.parts)
            case ast.Or():
                return disjoin(self.formula(p) for p in formula.parts)
            case ast.Not() | ast.Imply() | ast.Exists() | ast.Forall() | ast.Preference() | ast.Timed():
                # the sub-nodes that are no formula (a quantifier's variables, a time) come back unchanged
                return formula.map_children(self._part)
            case ast.Atom() | ast.Comparison():
                return formula
            case (ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter()
                  | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
                return formula  # trajectory constraints: the passes rewrite actions and goals, not these
            case _:
                assert_never(formula)

    def _part(self, node: ast.Node) -> ast.Node:
        return self.formula(node) if isinstance(node, _FORMULA_NODES) else node

    def condition(self, formula: ast.Formula) -> ast.Formula:
        """The rewritten condition of a `when` effect."""
        return self.formula(formula)

    def effect(self, effect: ast.Effect) -> ast.Effect:
        match effect:
            case ast.AndEffect():
                return ast.AndEffect(tuple(self.effect(p) for p in effect.parts))
            case ast.When():
                return ast.When(self.condition(effect.condition), self.effect(effect.body))
            case ast.ForallEffect():
                return replace(effect, body=self.effect(effect.body))
            case ast.Atom() | ast.Not() | ast.Assign() | ast.Timed():
                return self.literal(effect)
            case _:
                assert_never(effect)

    def literal(self, effect: ast.Effect) -> ast.Effect:
        """The rewritten effect part that is no `and`, `when` or `forall` (a literal, an assignment)."""
        return effect


_CONNECTIVES = (ast.Not, ast.Imply, ast.Exists, ast.Forall, ast.Preference, ast.Timed)
_FORMULA_NODES = (ast.And, ast.Or, *_CONNECTIVES, ast.Atom, ast.Comparison)


def conjuncts(formula: ast.Formula | None) -> tuple[ast.Formula, ...]:
    """The parts of a (nested) conjunction; a formula that is no conjunction is its own single part."""
    if formula is None:
        return ()
    if isinstance(formula, ast.And):
        return tuple(p for part in formula.parts for p in conjuncts(part))
    return (formula,)


def disjuncts(formula: ast.Formula) -> tuple[ast.Formula, ...]:
    if isinstance(formula, ast.Or):
        return tuple(p for part in formula.parts for p in disjuncts(part))
    return (formula,)


def conjoin(parts: Iterable[ast.Formula]) -> ast.Formula:
    """A flat conjunction without repeated parts; one part stands alone; any false part makes it false."""
    return _junction(parts, conjuncts, FALSE, ast.And)


def disjoin(parts: Iterable[ast.Formula]) -> ast.Formula:
    """A flat disjunction without repeated parts; one part stands alone; any true part makes it true."""
    return _junction(parts, disjuncts, TRUE, ast.Or)


def _junction(parts: Iterable[ast.Formula], split: Callable[[ast.Formula], tuple[ast.Formula, ...]],
              absorbing: ast.Formula, make: Callable[[tuple[ast.Formula, ...]], ast.Formula]) -> ast.Formula:
    out: list[ast.Formula] = []
    for part in parts:
        for p in split(part):
            if p == absorbing:
                return absorbing
            if p not in out:
                out.append(p)
    return out[0] if len(out) == 1 else make(tuple(out))


def nnf(formula: ast.Formula, positive: bool = True) -> ast.Formula:
    """Negation normal form: no `imply`; `not` only directly above atoms and comparisons.

    The feature detector reads connectives by polarity, so this form uses exactly the features the
    input did (`(not (and a b))` was already a disjunction)."""
    match formula:
        case ast.Atom() | ast.Comparison():
            return formula if positive else ast.Not(formula)
        case ast.Not():
            return nnf(formula.body, not positive)
        case ast.And():
            parts = [nnf(p, positive) for p in formula.parts]
            return conjoin(parts) if positive else disjoin(parts)
        case ast.Or():
            parts = [nnf(p, positive) for p in formula.parts]
            return disjoin(parts) if positive else conjoin(parts)
        case ast.Imply():
            parts = [nnf(formula.condition, not positive), nnf(formula.consequence, positive)]
            return disjoin(parts) if positive else conjoin(parts)
        case ast.Exists():
            body = nnf(formula.body, positive)
            return ast.Exists(formula.variables, body) if positive else ast.Forall(formula.variables, body)
        case ast.Forall():
            body = nnf(formula.body, positive)
            return ast.Forall(formula.variables, body) if positive else ast.Exists(formula.variables, body)
        case (ast.Preference() | ast.Timed() | ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce()
              | ast.SometimeAfter() | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
            return formula if positive else ast.Not(formula)  # opaque to negation normal form
        case _:
            assert_never(formula)


def is_literal(formula: ast.Formula) -> bool:
    return isinstance(formula, ast.Atom | ast.Comparison) or (
        isinstance(formula, ast.Not) and isinstance(formula.body, ast.Atom | ast.Comparison))


def negate_literal(formula: ast.Formula) -> ast.Formula:
    return formula.body if isinstance(formula, ast.Not) else ast.Not(formula)


def contradicts(literals: Sequence[ast.Formula]) -> bool:
    """Whether a conjunction of literals holds both some literal and its negation."""
    seen = set(literals)
    return any(isinstance(lit, ast.Not) and lit.body in seen for lit in literals)


# ------------------------------------------------------------------------------------------------
# Effects


@dataclass(frozen=True)
class Conditional:
    """One primitive effect (an add, a delete or an assignment) and the conjunction it happens under."""

    condition: ast.Formula  # TRUE when unconditional
    effect: ast.Atom | ast.Not | ast.Assign


def flatten_effect(effect: ast.Effect | None, condition: ast.Formula = TRUE) -> list[Conditional]:
    """The primitive effects of an effect without `forall`, nested `when`s conjoined."""
    match effect:
        case None:
            return []
        case ast.AndEffect():
            return [c for part in effect.parts for c in flatten_effect(part, condition)]
        case ast.When():
            return flatten_effect(effect.body, conjoin([condition, effect.condition]))
        case ast.Atom() | ast.Not() | ast.Assign():
            return [Conditional(condition, effect)]
        case ast.ForallEffect() | ast.Timed():
            raise ValueError(f"cannot flatten {type(effect).__name__} effects")
        case _:
            assert_never(effect)


def build_effect(items: Iterable[Conditional]) -> ast.Effect:
    """An effect from primitive effects, those under one condition gathered in one `when`."""
    groups: dict[ast.Formula, list[ast.Effect]] = {}
    for item in items:
        groups.setdefault(item.condition, []).append(item.effect)
    parts: list[ast.Effect] = []
    for condition, effects in groups.items():
        unique = list(dict.fromkeys(effects))
        if condition == TRUE:
            parts.extend(unique)
        elif condition != FALSE:
            parts.append(ast.When(condition, unique[0] if len(unique) == 1 else ast.AndEffect(tuple(unique))))
    return ast.AndEffect(tuple(parts))


# ------------------------------------------------------------------------------------------------
# Objects


class Universe:
    """The objects a quantified variable of a given type ranges over, in one problem."""

    def __init__(self, domain: ast.Domain, problem: ast.Problem) -> None:
        self.hierarchy = TypeHierarchy.of(domain)
        self.by_type = objects_by_type(self.hierarchy, typed_objects(domain, problem))

    def objects(self, type_: ast.TypeRef | None) -> tuple[str, ...]:
        out: dict[str, None] = {}
        for name in type_names(type_):
            out.update(dict.fromkeys(self.by_type.get(name, ())))
        return tuple(out)

    def bindings(self, variables: Sequence[ast.TypedName]) -> list[dict[str, ast.Term]]:
        """Every assignment of objects to `variables`, each from its type."""
        out: list[dict[str, ast.Term]] = [{}]
        for variable in variables:
            objects = self.objects(variable.type)
            out = [{**b, variable.name: ast.Constant(o)} for b in out for o in objects]
        return out


class Fresh:
    """Variable names not used anywhere in an action (`?v1`, `?v2` ...)."""

    def __init__(self, taken: Iterable[str]) -> None:
        self.taken = set(taken)
        self.n = 0

    def __call__(self, hint: str = "?v") -> str:
        while True:
            self.n += 1
            name = f"{hint}{self.n}"
            if name not in self.taken:
                self.taken.add(name)
                return name


def variables_in(node: ast.Node) -> set[str]:
    return {n.name for n in node.walk() if isinstance(n, ast.Variable)} | {
        v.name for n in node.walk() if isinstance(n, ast.Exists | ast.Forall | ast.ForallEffect) for v in n.variables}


def flat_effect(effect: ast.Effect) -> ast.Effect:
    """The effect with nested conjunctions merged into one (and repeated parts dropped)."""
    def parts(e: ast.Effect) -> Iterable[ast.Effect]:
        match e:
            case ast.AndEffect():
                for p in e.parts:
                    yield from parts(p)
            case ast.When():
                yield ast.When(e.condition, flat_effect(e.body))
            case ast.ForallEffect():
                yield ast.ForallEffect(e.variables, flat_effect(e.body))
            case ast.Atom() | ast.Not() | ast.Assign() | ast.Timed():
                yield e
            case _:
                assert_never(e)
    return ast.AndEffect(tuple(dict.fromkeys(parts(effect))))
