"""The grounded task: the ground operators relaxed reachability reaches, simplified as Fast Downward's
translator simplifies them.

Grounding follows `Reachability`: only the ground actions it reaches are instantiated, only the atoms it
reaches are variables. Each action's precondition and effect conditions are then made ground and
simplified: static atoms (of predicates no effect changes) and object equalities are decided by the
initial state, a fluent atom that is never reached is false, quantifiers are expanded over the objects
of their types, and a disjunctive precondition splits the action into one operator per disjunct (as
Fast Downward's `split_disjunctions`). An operator whose precondition is false is dropped; an atom an
operator both adds and deletes is added (PDDL applies deletes first).

Derived predicates become axioms, as in Fast Downward's translator: each reached derived atom is ground
with every rule for its predicate, and each disjunct of the ground body is one axiom (`Axiom`: the
atom holds when the conjunction does). Derived atoms are atoms like the others, except that no operator
changes them and the initial state does not give them: `axioms.py` orders them in layers.

Reads: STRIPS with negative preconditions, equality, typing, ADL conditions and conditional or
universal effects, derived predicates (stratified), and action costs (`(increase (total-cost) N)`, N a
number or a static function). Durative actions, numeric fluents other than the total cost and
preferences are refused with E801.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from operator import itemgetter
from typing import NamedTuple

from pddltools.analysis.program import Literal as EffectLiteral
from pddltools.analysis.program import effect_literals, precondition, schemas_of
from pddltools.analysis.reach import Reachability
from pddltools.diagnostics import CompileError, compile_error
from pddltools.pddl import ast
from pddltools.semantics.derived import strata
from pddltools.semantics.errors import NotStratified
from pddltools.semantics.state import GroundAtom
from pddltools.static_typing import assert_never

#: A literal of the ground task: (index of the atom, True for the atom, False for its negation).
Literal = tuple[int, bool]
#: A ground condition before it is split: True, False, ("lit", index, positive), ("and"|"or", [parts]).
Ground = bool | tuple[object, ...]
#: Beyond this many disjuncts a condition is refused rather than split.
MAX_DISJUNCTS = 256
#: The same for a derived predicate's body, where a disjunct is one more axiom, not one more operator
#: (an `exists` over the objects is a disjunction of one disjunct per object).
MAX_AXIOM_DISJUNCTS = 16_384
COST = "total-cost"


class Effect(NamedTuple):
    # named tuples, not frozen dataclasses: a large task makes millions of them, and a frozen
    # dataclass's __init__ sets each field through object.__setattr__
    conditions: tuple[Literal, ...]
    atom: int
    add: bool


class Axiom(NamedTuple):
    """A ground rule of a derived predicate: `head` holds when every literal of `condition` does."""

    head: int
    condition: tuple[Literal, ...]


class Operator(NamedTuple):
    """A ground action (one disjunct of its precondition, if that was split)."""

    schema: str
    args: tuple[str, ...]
    precondition: tuple[Literal, ...]
    effects: tuple[Effect, ...]
    cost: int | Fraction = 1

    @property
    def name(self) -> str:
        return " ".join((self.schema, *self.args))


@dataclass
class GroundTask:
    """Atoms (by index), the initial state (the atoms true in it), the goal, and the operators."""

    domain: ast.Domain
    problem: ast.Problem
    atoms: list[GroundAtom]
    init: set[int]
    goal: tuple[Literal, ...] | None  # None: the goal can never hold (the task is unsolvable)
    operators: list[Operator]
    metric: bool  # whether costs count (the problem minimises total-cost)
    reach: Reachability = field(repr=False)
    mutexes: list[list[Literal]] = field(default_factory=list)  # filled by the invariant synthesis
    #: ground actions (one per disjunct) whose precondition is not false and that have some effect: what
    #: Fast Downward's `instantiate` counts; `operators` also leaves out those whose effects change nothing
    instantiated: int = 0
    #: the derived atoms' rules, one per disjunct of a ground body (none in a task without derived predicates)
    axioms: list[Axiom] = field(default_factory=list)
    #: the derived predicates: their atoms are not changed by operators but by the axioms
    derived: frozenset[str] = frozenset()


def ground(domain: ast.Domain, problem: ast.Problem, reach: Reachability | None = None) -> GroundTask:
    """Raises `CompileError` (E801) for what the grounder does not read."""
    _refuse_unsupported(domain, problem)
    with paused_gc():
        reach = reach or Reachability(domain, problem)
        return _Grounder(domain, problem, reach).task()


@contextmanager
def paused_gc() -> Iterator[None]:
    """Python's cycle collector paused: grounding makes millions of tuples and no cycles, and each of the
    collector's passes walks every tuple made so far (on a rovers task of 318,158 operators, half the
    time of instantiating them)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _refuse_unsupported(domain: ast.Domain, problem: ast.Problem) -> None:
    def refuse(what: str, node: ast.Node | None) -> CompileError:
        return compile_error("E801", f"the grounder does not read {what}", node.span if node else None)

    for structure in domain.structures:
        if isinstance(structure, ast.DurativeAction):
            raise refuse("durative actions", structure)
    if domain.processes or domain.events:
        raise refuse("processes and events", (domain.processes or domain.events)[0])
    for schema in schemas_of(domain):
        if schema.effect is None:
            continue
        for node in ast.effect_parts(schema.effect):
            if isinstance(node, ast.Assign) and (node.fluent.function != COST or node.op != "increase"):
                raise refuse("numeric fluents (only (increase (total-cost) ...))", node)
    for formula in (problem.constraints, domain.constraints):
        if formula is not None:
            raise refuse("trajectory constraints", formula)
    for sub in (problem.goal.walk() if problem.goal is not None else ()):
        if isinstance(sub, ast.Preference):
            raise refuse("preferences", sub)
    rules = domain.derived_predicates
    if rules:
        try:
            strata(rules)
        except NotStratified as exc:
            rule = next(r for r in rules if r.name == exc.predicate)
            raise compile_error("E802", f"the derived predicate {exc.predicate} is not stratified: its definition "
                                f"uses (not ({exc.negated} ...)), which depends on {exc.predicate} in turn",
                                rule.span) from None


class _Grounder:
    def __init__(self, domain: ast.Domain, problem: ast.Problem, reach: Reachability) -> None:
        self.domain = domain
        self.problem = problem
        self.reach = reach
        self.objects = reach.program.grounder
        literals = reach.program.literals
        self.derived = frozenset(rule.name for rule in domain.derived_predicates)
        # derived atoms are variables too: whether they hold depends on the state
        self.fluent = {lit.atom.predicate for lit in literals} | self.derived
        self.init_facts = reach.program.facts
        atoms = sorted(a for a in reach.atoms if a[0] in self.fluent)
        self.atoms = atoms
        self.index = {a: i for i, a in enumerate(atoms)}
        self.values: dict[GroundAtom, int | Fraction] = {}
        # each conjunction's and disjunction's parts, those the initial state decides first (by node id:
        # the nodes live as long as the domain this grounder reads)
        self._ordered: dict[int, list[ast.Formula]] = {}
        # ground actions whose precondition is not false and that have an effect (before effects the
        # precondition makes void are dropped): what Fast Downward's `instantiate` counts
        self.instantiated = 0
        for element in problem.init:
            if isinstance(element, ast.InitAssignment) and isinstance(element.value, ast.Number):
                key = (element.fluent.function, *(getattr(a, "name", "") for a in element.fluent.args))
                self.values[key] = element.value.value

    def task(self) -> GroundTask:
        operators: list[Operator] = []
        for schema in schemas_of(self.domain):
            if not isinstance(schema, ast.Action):
                continue
            params = [p.name for p in schema.parameters]
            pre = precondition(schema)
            effects = list(effect_literals(schema))
            costs = [n for n in ast.effect_parts(schema.effect) if isinstance(n, ast.Assign)] \
                if schema.effect is not None else []
            if schema.vars:
                raise compile_error("E801", "the grounder does not read :vars (PDDL 1.2)", schema.span)
            template = _Template.of(schema, effects, self) if not costs or _constant_costs(costs) else None
            for args in sorted(self.reach.bindings(schema)):
                if template is not None:
                    made = template.instantiate(args)
                    if made is not None:
                        self.instantiated += made[2]
                        if made[1]:
                            operators.append(Operator(schema.name, args, made[0], made[1], template.cost))
                    continue
                binding = dict(zip(params, args, strict=True))
                condition = self.formula(pre, binding) if pre is not None else True
                alternatives = self.disjuncts(condition, schema)
                if not alternatives:
                    continue
                effect = tuple(self.effects(effects, binding))
                cost = sum((self.cost(c.value, binding) for c in costs), start=0) if costs else 1
                if not costs and self.metric:
                    cost = 0
                for conjunct in alternatives:
                    self.instantiated += bool(effect)
                    tidy = _tidy(effect, conjunct)
                    if tidy:  # an operator that changes nothing is no use to a plan
                        operators.append(Operator(schema.name, args, conjunct, tidy, cost))
        goal_condition = self.formula(self.problem.goal, {}) if self.problem.goal is not None else True
        goal_alternatives = self.disjuncts(goal_condition, self.problem)
        if len(goal_alternatives) > 1:
            raise compile_error("E801", "the grounder does not read a goal that stays a disjunction once ground",
                                self.problem.goal.span if self.problem.goal else None)
        goal = goal_alternatives[0] if goal_alternatives else None
        init = {self.index[a] for a in self.init_facts if a in self.index and a[0] not in self.derived}
        return GroundTask(self.domain, self.problem, self.atoms, init, goal, operators, self.metric, self.reach,
                          instantiated=self.instantiated, axioms=self.axioms(), derived=self.derived)

    def axioms(self) -> list[Axiom]:
        """Each reached derived atom's rules, one per disjunct of each ground body; a disjunct that needs
        the atom itself says nothing and is left out, as are those that repeat one of the same head."""
        out: list[Axiom] = []
        by_predicate: dict[str, list[int]] = {}
        for i, atom in enumerate(self.atoms):
            if atom[0] in self.derived:
                by_predicate.setdefault(atom[0], []).append(i)
        for rule in self.domain.derived_predicates:
            params = [p.name for p in rule.predicate.parameters]
            for head in by_predicate.get(rule.name, ()):
                binding = dict(zip(params, self.atoms[head][1:], strict=True))
                condition = self.formula(rule.body, binding)
                for conjunct in self.disjuncts(condition, rule, MAX_AXIOM_DISJUNCTS):
                    if (head, True) not in conjunct:
                        out.append(Axiom(head, conjunct))
        return list(dict.fromkeys(out))

    @property
    def metric(self) -> bool:
        metric = self.problem.metric
        return metric is not None and isinstance(metric.expression, ast.FunctionTerm) \
            and metric.expression.function == COST

    # ---------------------------------------------------------------------------------------------

    def cost(self, value: ast.Expression, binding: dict[str, str]) -> int | Fraction:
        if isinstance(value, ast.Number):
            return value.value
        if isinstance(value, ast.FunctionTerm):
            key = (value.function, *(self.term(a, binding) for a in value.args))
            found = self.values.get(key)
            if found is None:
                raise compile_error("E801", f"the cost {value} has no value in :init", value.span)
            return found
        raise compile_error("E801", f"the grounder reads costs that are numbers or functions, not {value}",
                            value.span)

    def term(self, term: ast.Node, binding: dict[str, str]) -> str:
        if isinstance(term, ast.Variable):
            return binding[term.name]
        if isinstance(term, ast.Constant):
            return term.name
        raise compile_error("E801", "the grounder does not read object fluents", term.span)

    def formula(self, f: ast.Formula, b: dict[str, str]) -> Ground:
        match f:
            case ast.Atom():
                key = (f.predicate, *(self.term(a, b) for a in f.args))
                if f.predicate in self.fluent:
                    found = self.index.get(key)
                    return False if found is None else ("lit", found, True)
                return key in self.init_facts
            case ast.Not():
                return _negate(self.formula(f.body, b))
            case ast.And():
                return self._junction("and", f, b)
            case ast.Or():
                return self._junction("or", f, b)
            case ast.Imply():
                return _junction("or", [_negate(self.formula(f.condition, b)), self.formula(f.consequence, b)])
            case ast.Exists() | ast.Forall():
                kind = "or" if isinstance(f, ast.Exists) else "and"
                parts: list[Ground] = []
                for inner in self._bindings(f.variables, b):
                    part = self.formula(f.body, inner)
                    if part is (kind == "or"):
                        return part  # decided: the other bindings cannot change it
                    parts.append(part)
                return _junction(kind, parts)
            case ast.Comparison():
                if f.op == "=" and isinstance(f.left, ast.Variable | ast.Constant) \
                        and isinstance(f.right, ast.Variable | ast.Constant):
                    return self.term(f.left, b) == self.term(f.right, b)
                raise compile_error("E801", "the grounder does not read numeric conditions", f.span)
            case (ast.Preference() | ast.Timed() | ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce()
                  | ast.SometimeAfter() | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring()
                  | ast.HoldAfter()):
                raise compile_error("E801", f"the grounder does not read {type(f).__name__.lower()} conditions",
                                    f.span)
            case _:
                assert_never(f)

    def _junction(self, kind: str, f: ast.And | ast.Or, b: dict[str, str]) -> Ground:
        """A conjunction or disjunction, its parts the initial state decides first: once one decides the
        whole (false in a conjunction, true in a disjunction) the others are not ground at all (a derived
        predicate's `(exists (?z) (and (con ?x ?z) (upstream ?z ...)))`, `con` static)."""
        ordered = self._ordered.get(id(f))
        if ordered is None:
            ordered = sorted(f.parts, key=lambda p: not self._static(p))
            self._ordered[id(f)] = ordered
        absorbing = kind == "or"
        parts: list[Ground] = []
        for p in ordered:
            part = self.formula(p, b)
            if part is absorbing:
                return absorbing
            parts.append(part)
        return _junction(kind, parts)

    def _static(self, f: ast.Formula) -> bool:
        """Whether the initial state decides `f` alone: an equality, or a (negated) atom no effect changes."""
        if isinstance(f, ast.Not):
            f = f.body
        return isinstance(f, ast.Comparison) or (isinstance(f, ast.Atom) and f.predicate not in self.fluent)

    def _bindings(self, variables: tuple[ast.TypedName, ...], b: dict[str, str]) -> Iterator[dict[str, str]]:
        names = [v.name for v in variables]
        for values in product(*(self.objects.objects_of(v.type) for v in variables)):
            inner = dict(b)
            inner.update(zip(names, values, strict=True))
            yield inner

    def disjuncts(self, g: Ground, where: ast.Node, limit: int = MAX_DISJUNCTS) -> list[tuple[Literal, ...]]:
        """The conjunctions of literals `g` is the disjunction of, contradictory ones left out."""
        out = []
        for conjunct in _dnf(g, where, limit):
            positive = {i for i, p in conjunct if p}
            if any(not p and i in positive for i, p in conjunct):
                continue
            out.append(tuple(sorted(conjunct)))
        return list(dict.fromkeys(out))

    def effects(self, literals: list[EffectLiteral], binding: dict[str, str]) -> Iterator[Effect]:
        for lit in literals:
            inner_bindings = self._bindings(lit.variables, binding) if lit.variables else iter((binding,))
            for inner in inner_bindings:
                key = (lit.atom.predicate, *(self.term(a, inner) for a in lit.atom.args))
                atom = self.index.get(key)
                if atom is None:
                    continue  # an atom never reached: adding it cannot happen, deleting it changes nothing
                condition: Ground = True
                if lit.conditions:
                    condition = _junction("and", [self.formula(c, inner) for c in lit.conditions])
                for conjunct in self.disjuncts(condition, lit.atom):
                    yield Effect(conjunct, atom, lit.positive)


def _constant_costs(costs: list[ast.Assign]) -> bool:
    return all(isinstance(c.value, ast.Number) for c in costs)


#: A compiled template literal: its predicate (a 1-tuple), the getter of its arguments, its sign.
_Compiled = tuple[tuple[str], Callable[[tuple[str, ...]], tuple[str, ...]], bool]
#: An argument of a template literal: the index of an action parameter, or an object's name.
Spec = tuple[int | str, ...]


class _Template:
    """The fast path for the commonest schema: a precondition that is a conjunction of literals (atoms,
    negated atoms, equalities and their negations) and effects that are plain literals. Each literal is
    kept as a predicate and the positions of the parameters it reads, so that instantiating it is a
    tuple built and looked up, not a formula walked."""

    def __init__(self, grounder: _Grounder, cost: int | Fraction) -> None:
        self.g = grounder
        self.cost = cost
        self.fluent_pre: list[tuple[str, Spec, bool]] = []
        self.static_pre: list[tuple[str, Spec, bool]] = []
        self.equal: list[tuple[int | str, int | str, bool]] = []
        self.effects: list[tuple[str, Spec, bool]] = []
        # filled by `compile`
        self.constants: tuple[str, ...] = ()
        self.c_equal: list[tuple[int, int, bool]] = []
        self.c_static: list[_Compiled] = []
        self.c_fluent: list[_Compiled] = []
        self.c_effects: list[_Compiled] = []

    @classmethod
    def of(cls, schema: ast.Action, literals: list[EffectLiteral], grounder: _Grounder) -> _Template | None:
        params = {p.name: i for i, p in enumerate(schema.parameters)}
        costs = [n.value for n in ast.effect_parts(schema.effect) if isinstance(n, ast.Assign)] \
            if schema.effect is not None else []
        cost: int | Fraction = sum((c.value for c in costs if isinstance(c, ast.Number)), start=0) if costs else 1
        if not costs and grounder.metric:
            cost = 0
        template = cls(grounder, cost)

        def spec(terms: tuple[ast.Term, ...]) -> Spec | None:
            out: list[int | str] = []
            for t in terms:
                if isinstance(t, ast.Variable) and t.name in params:
                    out.append(params[t.name])
                elif isinstance(t, ast.Constant):
                    out.append(t.name)
                else:
                    return None
            return tuple(out)

        pre = schema.precondition
        parts = pre.parts if isinstance(pre, ast.And) else (() if pre is None else (pre,))
        for part in parts:
            positive = not isinstance(part, ast.Not)
            body = part.body if isinstance(part, ast.Not) else part
            if isinstance(body, ast.Atom):
                args = spec(body.args)
                if args is None:
                    return None
                fluent = body.predicate in grounder.fluent
                (template.fluent_pre if fluent else template.static_pre).append((body.predicate, args, positive))
            elif isinstance(body, ast.Comparison) and body.op == "=":
                pair = spec((body.left, body.right))  # type: ignore[arg-type]
                if pair is None:
                    return None
                template.equal.append((pair[0], pair[1], positive))
            else:
                return None
        for lit in literals:
            if lit.variables or lit.conditions:
                return None
            args = spec(lit.atom.args)
            if args is None:
                return None
            template.effects.append((lit.atom.predicate, args, lit.positive))
        template.compile()
        return template

    def compile(self) -> None:
        """Each literal's arguments as positions in `args + constants` (see `instantiate`), read by one
        `itemgetter` call rather than a loop per literal."""
        constants: list[str] = sorted({s for _, spec, _ in (*self.fluent_pre, *self.static_pre, *self.effects)
                                       for s in spec if isinstance(s, str)}
                                      | {s for a, b, _ in self.equal for s in (a, b) if isinstance(s, str)})
        self.constants = tuple(constants)
        offset = {c: -len(constants) + i for i, c in enumerate(constants)}  # from the end of args + constants

        def at(s: int | str) -> int:
            return s if isinstance(s, int) else offset[s]

        def getter(spec: Spec) -> Callable[[tuple[str, ...]], tuple[str, ...]]:
            positions = [at(s) for s in spec]
            if not positions:
                return lambda values: ()
            if len(positions) == 1:
                only = positions[0]
                return lambda values: (values[only],)
            return itemgetter(*positions)

        self.c_equal = [(at(a), at(b), positive) for a, b, positive in self.equal]
        self.c_static = [((predicate,), getter(spec), positive) for predicate, spec, positive in self.static_pre]
        self.c_fluent = [((predicate,), getter(spec), positive) for predicate, spec, positive in self.fluent_pre]
        self.c_effects = [((predicate,), getter(spec), positive) for predicate, spec, positive in self.effects]

    def instantiate(self, args: tuple[str, ...]) -> tuple[tuple[Literal, ...], tuple[Effect, ...], bool] | None:
        """The precondition and effects for `args`, and whether it has any effect before those the
        precondition makes void are dropped; None when the precondition is false."""
        values = args + self.constants
        for a, b, positive in self.c_equal:
            if (values[a] == values[b]) != positive:
                return None
        facts = self.g.init_facts
        for head, get, positive in self.c_static:
            if (head + get(values) in facts) != positive:
                return None
        index = self.g.index
        pre: dict[Literal, None] = {}
        for head, get, positive in self.c_fluent:
            found = index.get(head + get(values))
            if found is None:
                if positive:
                    return None
                continue
            pre[(found, positive)] = None
        if len(pre) > 1 and any((i, not p) in pre for i, p in pre):
            return None
        adds: dict[int, None] = {}
        deletes: dict[int, None] = {}
        for head, get, positive in self.c_effects:
            found = index.get(head + get(values))
            if found is not None:
                (adds if positive else deletes)[found] = None
        effects = [Effect((), a, True) for a in adds if (a, True) not in pre]
        effects += [Effect((), d, False) for d in deletes if d not in adds and (d, False) not in pre]
        return tuple(sorted(pre)), tuple(effects), bool(adds or deletes)


def _tidy(effects: tuple[Effect, ...], precondition: tuple[Literal, ...]) -> tuple[Effect, ...]:
    """Effects without those that change nothing: a delete of an atom the operator also adds outright (PDDL
    applies deletes first), an effect the precondition already makes true, duplicates."""
    added = {e.atom for e in effects if e.add and not e.conditions}
    holds = set(precondition)
    out: dict[Effect, None] = {}
    for e in effects:
        if not e.add and e.atom in added:
            continue
        if not e.conditions and (e.atom, e.add) in holds:
            continue
        if any((i, not p) in holds for i, p in e.conditions):
            continue  # its condition contradicts the precondition: it never happens
        conditions = tuple(c for c in e.conditions if c not in holds)
        out[Effect(conditions, e.atom, e.add)] = None
    return tuple(out)


def _negate(g: Ground) -> Ground:
    if isinstance(g, bool):
        return not g
    if g[0] == "lit":
        return ("lit", g[1], not g[2])
    parts = g[1]
    assert isinstance(parts, list)
    return _junction("or" if g[0] == "and" else "and", [_negate(p) for p in parts])


def _junction(kind: str, parts: list[Ground]) -> Ground:
    absorbing = kind == "or"  # True absorbs a disjunction, False a conjunction
    kept: list[Ground] = []
    for p in parts:
        if isinstance(p, bool):
            if p == absorbing:
                return absorbing
            continue
        if p[0] == kind:
            kept.extend(p[1])  # type: ignore[arg-type]
        else:
            kept.append(p)
    if not kept:
        return not absorbing
    return kept[0] if len(kept) == 1 else (kind, kept)


def _dnf(g: Ground, where: ast.Node, limit: int = MAX_DISJUNCTS) -> list[list[Literal]]:
    if g is True:
        return [[]]
    if g is False:
        return []
    assert isinstance(g, tuple)
    if g[0] == "lit":
        return [[(g[1], g[2])]]  # type: ignore[list-item]
    parts = [_dnf(p, where, limit) for p in g[1]]  # type: ignore[attr-defined]
    if g[0] == "or":
        out = [c for p in parts for c in p]
    else:
        out = [[]]
        for p in parts:
            out = [a + b for a in out for b in p]
            if len(out) > limit:
                break
    if len(out) > limit:
        raise compile_error("E803", f"a condition has more than {limit} disjuncts once ground", where.span)
    return out
