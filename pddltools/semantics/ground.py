"""Formulas made ground once per task, simplified by the static facts, and compiled to closures.

A derived predicate's body is walked once per object tuple here instead of once per state: quantifiers
are expanded over the objects of their types, atoms of static predicates (no effect changes them) and
equalities of objects are decided from the initial state, and what is left becomes a closure
`test(atoms, derived, state) -> bool` that reads only set membership. Comparisons of fluents stay
lifted: their values change, and they are read in the state by their compiled meaning
(`compiled.py`, through `Evaluator.holds`), the one definition of what a formula means; this module
only decides ahead what the static facts already decide. Anything whose meaning
depends on a state in a way this cannot see in advance (an object fluent as an atom's argument, a
preference, a free variable) raises `NotGround`, and the caller keeps the lifted evaluation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pddltools.pddl import ast
from pddltools.semantics.compiled import key_maker
from pddltools.semantics.grounding import Binding, Value
from pddltools.semantics.state import GroundAtom, State
from pddltools.static_typing import assert_never

if TYPE_CHECKING:
    from pddltools.semantics.evaluate import Evaluator

#: `test(atoms, derived, state)`: whether a ground formula holds, given the state's basic atoms, the
#: derived atoms known so far, and the state itself (for fluent comparisons).
Test = Callable[[Set[GroundAtom], Set[GroundAtom], State], bool]


class NotGround(Exception):
    """The formula cannot be ground ahead of the states it is read in (or grounding it is too big)."""


# A ground formula before compilation: True/False, or a tagged tuple.
#   ("atom", key) a basic atom; ("derived", key) a derived atom; ("not", g); ("and", [g...]);
#   ("or", [g...]); ("lifted", formula, binding) a comparison read in the state.
Ground = bool | tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Compiled:
    test: Test
    atoms: frozenset[GroundAtom]  # the basic atoms it reads
    derived: frozenset[GroundAtom]  # the derived atoms it reads
    fluents: bool  # whether it reads fluents (a comparison)


class GroundFormulas:
    """Grounds formulas of one task. `static` holds the predicates no effect changes and `facts` their
    true atoms; `budget` is the number of nodes grounding may visit before it gives up."""

    def __init__(self, evaluator: Evaluator, static: frozenset[str], facts: Set[GroundAtom],
                 derived_names: Set[str], budget: int = 2_000_000) -> None:
        self.ev = evaluator
        self.static = static
        self.facts = facts
        self.derived_names = derived_names
        self.budget = budget
        self._by_predicate: dict[str, list[GroundAtom]] = {}
        self._by_argument: dict[tuple[str, int, str], list[GroundAtom]] = {}
        self._matched: dict[tuple[object, ...], set[str]] = {}
        self._unrestricted: set[tuple[int, str, bool]] = set()  # the formulas (alive all along) by id
        self._keys: dict[int, tuple[ast.Atom, Callable[[Binding], GroundAtom] | None]] = {}
        for fact in facts:
            self._by_predicate.setdefault(fact[0], []).append(fact)
            for position, value in enumerate(fact[1:]):
                self._by_argument.setdefault((fact[0], position, value), []).append(fact)

    def formula(self, f: ast.Formula, b: Binding) -> Ground:
        self.budget -= 1
        if self.budget < 0:
            raise NotGround("too large to ground")
        match f:
            case ast.Atom():
                key = self._key(f, b)
                if f.predicate in self.derived_names:
                    return ("derived", key)
                if f.predicate in self.static:
                    return key in self.facts
                return ("atom", key)
            case ast.Not(body=body):
                inner = self.formula(body, b)
                return (not inner) if isinstance(inner, bool) else ("not", inner)
            case ast.And(parts=parts):
                return self._junction("and", (self.formula(p, b) for p in parts))
            case ast.Or(parts=parts):
                return self._junction("or", (self.formula(p, b) for p in parts))
            case ast.Imply(condition=condition, consequence=consequence):
                premise = self.formula(condition, b)
                negated = (not premise) if isinstance(premise, bool) else ("not", premise)
                return self._junction("or", iter((negated, self.formula(consequence, b))))
            case ast.Exists(variables=variables, body=body):
                return self._junction("or", (self.formula(body, inner) for inner in self.bindings(variables, body, b)))
            case ast.Forall(variables=variables, body=body):
                return self._junction("and", (self.formula(body, inner)
                                              for inner in self.bindings(variables, body, b, positive=False)))
            case ast.Comparison():
                return self._comparison(f, b)
            case (ast.Preference() | ast.Timed() | ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce()
                  | ast.SometimeAfter() | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring()
                  | ast.HoldAfter()):
                raise NotGround(type(f).__name__)  # read in the state, lifted, by the caller
            case _:
                assert_never(f)

    def bindings(self, variables: Sequence[ast.TypedName], body: ast.Formula, b: Binding,
                 positive: bool = True) -> Iterator[dict[str, Value]]:
        """The bindings of `variables` (extending `b`) under which `body` can be true (`positive`) or
        false given the static facts: each variable in turn takes only the values `_values` allows, or
        every object of its type when they do not restrict it. An existential needs only the first
        kind, a universal only the second (under the others its body is true)."""
        if not variables:
            yield dict(b)
            return
        first, rest = variables[0], variables[1:]
        unbound = {v.name for v in rest}
        outer = {k: v for k, v in b.items() if k not in unbound and k != first.name}
        allowed = self._values(body, first.name, outer, positive)
        fits = self.ev.grounder.fits
        for value in self.ev.grounder.objects_of(first.type) if allowed is None else sorted(allowed):
            if allowed is not None and not fits(value, first.type):
                continue
            inner = dict(b)
            inner[first.name] = value
            yield from self.bindings(rest, body, inner, positive)

    def _values(self, f: ast.Formula, name: str, b: Binding, positive: bool = True) -> set[str] | None:
        """The values of variable `name` for which `f` can be true (`positive`) or false given the
        static facts, the variables of `b` bound and any other free one left open; None when the static
        facts do not restrict them. Whether they do depends only on the formula, not on `b`: a formula
        found not to is not looked into again."""
        shape = (id(f), name, positive)
        if shape in self._unrestricted:
            return None
        found = self._restrict(f, name, b, positive)
        if found is None:
            self._unrestricted.add(shape)
        return found

    def _restrict(self, f: ast.Formula, name: str, b: Binding, positive: bool) -> set[str] | None:
        match f:
            case ast.Atom():
                return self._matches(f, name, b) if positive and f.predicate in self.static else None
            case ast.Not(body=body):
                return self._values(body, name, b, not positive)
            case ast.And(parts=parts) | ast.Or(parts=parts):
                # true conjunction / false disjunction: every part; the other two: some part
                every = isinstance(f, ast.And) == positive
                return self._combine([(part, positive) for part in parts], name, b, every)
            case ast.Imply(condition=condition, consequence=consequence):
                return self._combine([(condition, not positive), (consequence, positive)], name, b, not positive)
            case ast.Exists(variables=variables, body=body) | ast.Forall(variables=variables, body=body):
                if isinstance(f, ast.Exists) != positive or any(v.name == name for v in variables):
                    return None  # no single instance decides it, or `name` is shadowed
                hidden = {v.name for v in variables}
                return self._values(body, name, {k: v for k, v in b.items() if k not in hidden}, positive)
            case (ast.Comparison() | ast.Preference() | ast.Timed() | ast.Always() | ast.Sometime() | ast.Within()
                  | ast.AtMostOnce() | ast.SometimeAfter() | ast.SometimeBefore() | ast.AlwaysWithin()
                  | ast.HoldDuring() | ast.HoldAfter()):
                return None  # static facts decide none of these
            case _:
                assert_never(f)

    def _combine(self, parts: list[tuple[ast.Formula, bool]], name: str, b: Binding, every: bool) -> set[str] | None:
        """When `every` part must hold, the first restriction found is one; when some part must, the
        union of all of them, if each is restricted."""
        union: set[str] = set()
        for part, positive in parts:
            found = self._values(part, name, b, positive)
            if every and found is not None:
                return found
            if not every:
                if found is None:
                    return None
                union |= found
        return None if every else union

    def _matches(self, f: ast.Atom, name: str, b: Binding) -> set[str] | None:
        positions = [i for i, t in enumerate(f.args) if isinstance(t, ast.Variable) and t.name == name]
        if not positions:
            return None
        pattern: list[str | None] = []
        for t in f.args:
            if isinstance(t, ast.Constant):
                pattern.append(t.name)
            elif isinstance(t, ast.Variable) and t.name != name and isinstance(b.get(t.name), str):
                pattern.append(str(b[t.name]))
            elif isinstance(t, ast.Variable):
                pattern.append(None)
            else:
                return None  # an object fluent: not decided by static facts
        key = (f.predicate, tuple(positions), *pattern)
        cached = self._matched.get(key)
        if cached is not None:
            return cached
        known = [(i, v) for i, v in enumerate(pattern) if v is not None]
        facts = min((self._by_argument.get((f.predicate, i, v), ()) for i, v in known), key=len,
                    default=self._by_predicate.get(f.predicate, ()))
        out = set()
        width = len(pattern) + 1
        for fact in facts:
            if len(fact) != width or any(fact[i + 1] != v for i, v in known):
                continue
            value = fact[positions[0] + 1]
            if all(fact[i + 1] == value for i in positions):
                out.add(value)
        self._matched[key] = out
        return out

    def _key(self, f: ast.Atom, b: Binding) -> GroundAtom:
        entry = self._keys.get(id(f))
        if entry is None or entry[0] is not f:
            entry = (f, key_maker(f))
            self._keys[id(f)] = entry
        make = entry[1]
        if make is None:
            raise NotGround("an object fluent as an argument")
        try:
            return make(b)
        except KeyError as exc:
            raise NotGround(f"{exc.args[0]} is free") from None

    def _comparison(self, f: ast.Comparison, b: Binding) -> Ground:
        """Equality of two objects is decided now; anything reading a fluent is kept for the state."""
        functions = self.ev.constant_functions
        sides = []
        for side in (f.left, f.right):
            if isinstance(side, ast.Variable) and isinstance(b.get(side.name), str):
                sides.append(str(b[side.name]))
            elif isinstance(side, ast.Constant) and side.name not in functions:
                sides.append(side.name)
            else:
                return ("lifted", f, dict(b))
        return f.op == "=" and sides[0] == sides[1]  # objects compare only for (in)equality

    @staticmethod
    def _junction(kind: str, parts: object) -> Ground:
        """An `and` (`or`) of the parts, stopping at the first false (true) one."""
        stop = kind == "or"
        kept: list[Ground] = []
        for part in parts:  # type: ignore[attr-defined]
            if isinstance(part, bool):
                if part is stop:
                    return stop
                continue
            if part[0] == kind:
                kept.extend(part[1])
            else:
                kept.append(part)
        if not kept:
            return not stop
        return kept[0] if len(kept) == 1 else (kind, kept)


def compile_ground(g: Ground, ev: Evaluator) -> Compiled:
    """The closure for a ground formula, with what it reads."""
    atoms: set[GroundAtom] = set()
    derived: set[GroundAtom] = set()
    lifted = [False]

    def build(node: Ground) -> Test:
        if isinstance(node, bool):
            value = node
            return lambda a, d, s: value
        kind = node[0]
        if kind == "atom":
            key: GroundAtom = node[1]
            atoms.add(key)
            return lambda a, d, s: key in a
        if kind == "derived":
            key = node[1]
            derived.add(key)
            return lambda a, d, s: key in d
        if kind == "not":
            inner = node[1]
            if isinstance(inner, tuple) and inner[0] == "atom":
                key = inner[1]
                atoms.add(key)
                return lambda a, d, s: key not in a
            if isinstance(inner, tuple) and inner[0] == "derived":
                key = inner[1]
                derived.add(key)
                return lambda a, d, s: key not in d
            test = build(inner)
            return lambda a, d, s: not test(a, d, s)
        if kind == "lifted":
            formula, binding = node[1], node[2]
            lifted[0] = True
            holds = ev.holds
            return lambda a, d, s: holds(formula, binding, s)
        return _junction(kind == "and", node[1], build, atoms, derived)

    test = build(g)
    return Compiled(test, frozenset(atoms), frozenset(derived), lifted[0])


def _junction(conjunction: bool, parts: list[Ground], build: Callable[[Ground], Test],
              atoms: set[GroundAtom], derived: set[GroundAtom]) -> Test:
    """Literals of one kind are tested together as one set operation; the rest one by one, in order."""
    pos_atoms, neg_atoms, pos_derived, neg_derived = [], [], [], []
    rest: list[Test] = []
    for part in parts:
        assert isinstance(part, tuple)
        kind = part[0]
        inner = part[1]
        if kind == "atom":
            pos_atoms.append(inner)
        elif kind == "derived":
            pos_derived.append(inner)
        elif kind == "not" and isinstance(inner, tuple) and inner[0] == "atom":
            neg_atoms.append(inner[1])
        elif kind == "not" and isinstance(inner, tuple) and inner[0] == "derived":
            neg_derived.append(inner[1])
        else:
            rest.append(build(part))
    atoms.update(pos_atoms, neg_atoms)
    derived.update(pos_derived, neg_derived)
    checks: list[Test] = []
    pa, na, pd, nd = (frozenset(x) for x in (pos_atoms, neg_atoms, pos_derived, neg_derived))
    if not rest:  # literals only (every part of a split recursive rule): one closure, four set operations
        if conjunction:
            return lambda a, d, s: (a.issuperset(pa) and a.isdisjoint(na)  # type: ignore[attr-defined]
                                    and d.issuperset(pd) and d.isdisjoint(nd))  # type: ignore[attr-defined]
        return lambda a, d, s: (not a.isdisjoint(pa) or not a.issuperset(na)  # type: ignore[attr-defined]
                                or not d.isdisjoint(pd) or not d.issuperset(nd))  # type: ignore[attr-defined]
    if conjunction:
        if pa:
            checks.append(lambda a, d, s: a.issuperset(pa))  # type: ignore[attr-defined]
        if na:
            checks.append(lambda a, d, s: a.isdisjoint(na))
        if pd:
            checks.append(lambda a, d, s: d.issuperset(pd))  # type: ignore[attr-defined]
        if nd:
            checks.append(lambda a, d, s: d.isdisjoint(nd))
    else:
        if pa:
            checks.append(lambda a, d, s: not a.isdisjoint(pa))
        if na:
            checks.append(lambda a, d, s: not a.issuperset(na))  # type: ignore[attr-defined]
        if pd:
            checks.append(lambda a, d, s: not d.isdisjoint(pd))
        if nd:
            checks.append(lambda a, d, s: not d.issuperset(nd))  # type: ignore[attr-defined]
    checks.extend(rest)
    if len(checks) == 1:
        return checks[0]
    # plain loops, not all()/any() over a generator: these run for every rule in every state
    if conjunction:
        def every(a: Set[GroundAtom], d: Set[GroundAtom], s: State) -> bool:
            for check in checks:  # noqa: SIM110
                if not check(a, d, s):
                    return False
            return True
        return every

    def some(a: Set[GroundAtom], d: Set[GroundAtom], s: State) -> bool:
        for check in checks:  # noqa: SIM110
            if check(a, d, s):
                return True
        return False
    return some


def disjuncts(g: Ground, limit: int = 64) -> list[Ground] | None:
    """`g` as a disjunction of conjunctions of literals, or None when that takes more than `limit`
    conjunctions (or `g` negates a compound formula). A recursive rule split this way is tested part
    by part: the parts that read none of its own stratum's atoms once, the others only when one of
    those atoms becomes true."""
    if isinstance(g, bool) or g[0] in ("atom", "derived", "lifted"):
        return [g]
    kind = g[0]
    if kind == "not":
        inner = g[1]
        return [g] if isinstance(inner, tuple) and inner[0] in ("atom", "derived") else None
    parts: list[Ground] = g[1]
    if kind == "or":
        out: list[Ground] = []
        for part in parts:
            found = disjuncts(part, limit)
            if found is None or len(out) + len(found) > limit:
                return None
            out.extend(found)
        return out
    conjunctions: list[list[Ground]] = [[]]
    for part in parts:
        found = disjuncts(part, limit)
        if found is None or len(conjunctions) * len(found) > limit:
            return None
        conjunctions = [c + _literals(d) for c in conjunctions for d in found]
    return [c[0] if len(c) == 1 else ("and", c) for c in conjunctions]


def _literals(g: Ground) -> list[Ground]:
    return list(g[1]) if isinstance(g, tuple) and g[0] == "and" else [g]


def polarity(g: Ground, positive: bool = True, into: tuple[set[GroundAtom], set[GroundAtom]] | None = None
             ) -> tuple[set[GroundAtom], set[GroundAtom]]:
    """The atoms (basic and derived) `g` reads where they occur positively, and where negatively."""
    out = into if into is not None else (set(), set())
    if isinstance(g, bool):
        return out
    kind = g[0]
    if kind in ("atom", "derived"):
        out[0 if positive else 1].add(g[1])
    elif kind == "not":
        polarity(g[1], not positive, out)
    elif kind in ("and", "or"):
        for part in g[1]:
            polarity(part, positive, out)
    return out
