"""Formulas and expressions read in a state, derived predicates, and the reasons a formula is false.

What each construct means is written once, in `compiled.py`, as a closure per node; the `Evaluator`
keeps those closures per node (`compiled`, `expression`, `effect`), and `holds`, `value`, `number`,
`term` and `fluent` call them. Preferences inside a formula count as satisfied: they are soft, and
`pddltools.semantics.preferences` counts their violations.

Derived predicates are a stratified fixpoint per state, computed the first time a derived atom is read
and kept for that state: over ground rules (`derivation.py`, updated from each step's changes that
`GroundedTask` reports through `succeeded`), or, for what those cannot take, by the lifted fixpoint
below. Existential quantifiers try the bindings a positive atom allows (`candidates`, a join).
"""

from __future__ import annotations

import _thread
import sys
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from pddltools.pddl import ast
from pddltools.semantics.compiled import (
    Collect,
    Holds,
    Key,
    Reads,
    Term,
    compile_atom_key,
    compile_effect,
    compile_expression,
    compile_formula,
    compile_term,
)
from pddltools.semantics.derived import strata
from pddltools.semantics.errors import UndefinedValue
from pddltools.semantics.grounding import Binding, Grounder, Value
from pddltools.semantics.state import (
    FluentValue,
    GroundAtom,
    GroundFluent,
    Number,
    State,
    show_atom,
    show_number,
)
from pddltools.static_typing import assert_never

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    from pddltools.semantics.derivation import Derivation, Layers



# How `candidates` reads an argument of the atom it matches: a constant, a variable bound by the
# match, or a variable bound outside it.
_CONSTANT, _QUANTIFIED, _OUTER = 0, 1, 2
_JoinPlan = tuple[str, tuple[tuple[int, str, "ast.TypeRef | None"], ...], int]


@dataclass(frozen=True, slots=True)
class Unsatisfied:
    """One reason a formula is false: a ground literal (`atom` set, `positive` says whether it must be
    true) or, for a disjunction, an existential or a comparison, the whole ground formula."""

    text: str
    atom: GroundAtom | None = None
    positive: bool = True
    note: str = ""

    def __str__(self) -> str:
        return f"{self.text} ({self.note})" if self.note else self.text


class Evaluator:
    """Evaluates formulas and expressions of one task; shared by every state of a plan."""

    def __init__(self, domain: ast.Domain, grounder: Grounder) -> None:
        self.grounder = grounder
        self.domain = domain
        self.constant_functions = {f.name for f in domain.functions if not f.parameters}
        self.rules = domain.derived_predicates
        self.derived_names = {rule.name for rule in self.rules}
        self._strata = strata(self.rules) if self.rules else []
        self._derived: dict[int, tuple[State, frozenset[GroundAtom], Layers | None]] = {}
        # the ground rules (built the first time a state's derived atoms are asked for; False: they
        # cannot be ground, and the lifted evaluation below is used), the initial state and the
        # predicates changed other than by actions, and, per state reached by a step, the layers of
        # the state it was reached from and what the steps since then changed
        self._program: Derivation | bool | None = None
        self._world: tuple[State, frozenset[str]] | None = None
        self._hints: dict[int, tuple[State, Layers, set[GroundAtom], bool]] = {}
        self._build = _thread.allocate_lock()  # _thread: importing threading costs a fresh process ~1 ms
        # the derived atoms of the state whose fixpoint is being computed, per thread: the scorer
        # validates plans of one task from several threads
        self._local = _thread._local()  # what threading.local is
        self._plans: dict[tuple[int, tuple[str, ...]], tuple[ast.Node, _JoinPlan | None]] = {}
        self._index: dict[int, tuple[State, dict[str, list[GroundAtom]],
                                     dict[tuple[str, int, str], list[GroundAtom]]]] = {}
        # each node's closure (`compiled.py`), by identity, made the first time the node is read
        self._compiled: dict[int, tuple[ast.Node, Holds]] = {}
        self._effects: dict[int, tuple[ast.Node, Collect]] = {}
        self._expressions: dict[int, tuple[ast.Node, Reads]] = {}
        self._terms: dict[int, tuple[ast.Node, Term]] = {}
        self._keys: dict[int, tuple[ast.Node, Key]] = {}

    # ----------------------------------------------------------------------------------------------
    # Terms and expressions

    def term(self, term: ast.Term, binding: Binding, state: State) -> str:
        """The object a term stands for (a variable's value, a constant, an object fluent's value)."""
        return self.term_of(term)(binding, state)

    def fluent(self, term: ast.FunctionTerm, binding: Binding, state: State) -> GroundFluent:
        """The ground key of a fluent."""
        return self.fluent_of(term)(binding, state)

    def value(self, expr: ast.Expression, binding: Binding, state: State,
              violations: Mapping[str, int] | None = None) -> FluentValue:
        """A numeric expression's value (or an object, for an object-valued term)."""
        entry = self._expressions.get(id(expr))
        if entry is not None and entry[0] is expr:
            return entry[1](binding, state, violations)
        return self.expression(expr)(binding, state, violations)

    def number(self, expr: ast.Expression, binding: Binding, state: State,
               violations: Mapping[str, int] | None = None) -> Number:
        found = self.value(expr, binding, state, violations)
        if isinstance(found, str):
            raise UndefinedValue(f"{found} (an object where a number is needed)")
        return found

    def expression(self, expr: ast.Expression) -> Reads:
        """`expr`'s value as a closure (`compiled.compile_expression`), made once."""
        return _once(self._expressions, expr, lambda: compile_expression(self, expr))

    def term_of(self, term: ast.Term) -> Term:
        """The object `term` stands for, as a closure, made once."""
        return _once(self._terms, term, lambda: compile_term(self, term))

    def fluent_of(self, term: ast.FunctionTerm) -> Key:
        """A fluent's ground key, as a closure, made once."""
        return _once(self._keys, term, lambda: compile_atom_key(self, term.function, term.args))

    # ----------------------------------------------------------------------------------------------
    # Formulas

    def holds(self, formula: ast.Formula, binding: Binding, state: State) -> bool:
        """Whether `formula`, with its free variables bound by `binding`, is true in `state`."""
        entry = self._compiled.get(id(formula))
        if entry is not None and entry[0] is formula:
            return entry[1](binding, state)
        return self.compiled(formula)(binding, state)

    def compiled(self, formula: ast.Formula) -> Holds:
        """`formula` as a closure over a binding and a state (`compiled.compile_formula`), made once."""
        return _once(self._compiled, formula, lambda: compile_formula(self, formula))

    def effect(self, effect: ast.Effect) -> Collect:
        """`effect` as a closure that collects its ground effects (`compiled.compile_effect`), made once."""
        return _once(self._effects, effect, lambda: compile_effect(self, effect))

    def missed(self, key: GroundAtom) -> None:
        """A derived atom read as false while a recursive stratum's fixpoint is computed (`_fixpoint`)."""
        misses: set[GroundAtom] | None = getattr(self._local, "misses", None)
        if misses is not None:
            misses.add(key)

    def candidates(self, variables: list[ast.TypedName], parts: tuple[ast.Formula, ...], binding: Binding,
                   state: State, anchor: ast.Node | None = None) -> Iterator[dict[str, Value]]:
        """Bindings of `variables` that may satisfy the conjunction `parts`. A positive atom of a basic
        predicate among the parts is matched against the state's atoms (a join; through an argument
        already bound when there is one), so that only the objects it allows are tried; without such an
        atom every object of each variable's type is. `anchor`, the formula node the parts belong to,
        keeps the choice of atom for the next call."""
        if anchor is None:
            plan = self._join_plan(variables, parts, binding)
        else:
            cache_key = (id(anchor), tuple(v.name for v in variables))
            hit = self._plans.get(cache_key)
            if hit is not None and hit[0] is anchor:
                plan = hit[1]
            else:
                plan = self._join_plan(variables, parts, binding)
                self._plans[cache_key] = (anchor, plan)
        if plan is None:
            yield from self.grounder.bindings(variables, binding)
            return
        predicate, args, position = plan
        by_predicate, by_argument = self.index(state)
        atoms: list[GroundAtom] | tuple[()] = ()
        if position >= 0:
            kind, name, _ = args[position]
            value = name if kind == _CONSTANT else binding.get(name)
            atoms = by_argument.get((predicate, position, str(value)), ()) if value is not None else ()
        else:
            atoms = by_predicate.get(predicate, ())
        fits = self.grounder.fits
        width = len(args) + 1
        for atom in atoms:
            if len(atom) != width:
                continue
            assigned: dict[str, str] = {}
            for (kind, name, type_ref), value in zip(args, atom[1:], strict=True):
                if kind == _CONSTANT:
                    if name != value:
                        break
                elif kind == _QUANTIFIED:  # bound here, shadowing any outer value
                    earlier = assigned.get(name)
                    if earlier is None:
                        if not fits(value, type_ref):
                            break
                        assigned[name] = value
                    elif earlier != value:
                        break
                elif binding.get(name) != value:
                    break
            else:
                extended = dict(binding)
                extended.update(assigned)
                remaining = [v for v in variables if v.name not in assigned]
                yield from self.candidates(remaining, parts, extended, state, anchor)

    def _join_plan(self, variables: list[ast.TypedName], parts: tuple[ast.Formula, ...],
                   binding: Binding) -> _JoinPlan | None:
        """The atom to match for `candidates`: its predicate, its arguments as (kind, name, type), and
        the position of an argument known before matching (-1 when none is), preferring atoms that
        have one."""
        names = {v.name: v for v in variables}
        best: _JoinPlan | None = None
        for part in parts:
            if not isinstance(part, ast.Atom) or part.predicate in self.derived_names or not any(
                    isinstance(t, ast.Variable) and t.name in names for t in part.args):
                continue
            args: list[tuple[int, str, ast.TypeRef | None]] = []
            for t in part.args:
                if isinstance(t, ast.Constant):
                    args.append((_CONSTANT, t.name, None))
                elif isinstance(t, ast.Variable) and t.name in names:
                    args.append((_QUANTIFIED, t.name, names[t.name].type))
                elif isinstance(t, ast.Variable):
                    args.append((_OUTER, t.name, None))
                else:
                    break  # an object fluent as an argument: not matched against atoms
            else:
                position = next((i for i, (kind, name, _) in enumerate(args)
                                 if kind == _CONSTANT or (kind == _OUTER and name in binding)), -1)
                plan = (part.predicate, tuple(args), position)
                if position >= 0:
                    return plan
                best = best or plan
        return best

    def index(self, state: State) -> tuple[dict[str, list[GroundAtom]], dict[tuple[str, int, str], list[GroundAtom]]]:
        """The state's atoms by predicate, and by predicate, argument position and value (built once per
        state)."""
        cached = self._index.get(id(state))
        if cached is not None and cached[0] is state:
            return cached[1], cached[2]
        by_predicate: dict[str, list[GroundAtom]] = {}
        by_argument: dict[tuple[str, int, str], list[GroundAtom]] = {}
        for atom in state.atoms:
            predicate = atom[0]
            by_predicate.setdefault(predicate, []).append(atom)
            for position, value in enumerate(atom[1:]):
                by_argument.setdefault((predicate, position, value), []).append(atom)
        if len(self._index) > 64:  # a plan moves forward; old states are not asked again
            self._index.clear()
        self._index[id(state)] = (state, by_predicate, by_argument)
        return by_predicate, by_argument

    # ----------------------------------------------------------------------------------------------
    # Derived predicates

    def set_initial(self, state: State, changing: frozenset[str] = frozenset()) -> None:
        """The task's initial state, and the predicates that change other than by the actions' effects
        (timed initial literals): with them, derived predicates are evaluated over ground rules."""
        self._world = (state, changing)

    def succeeded(self, before: State, after: State, adds: set[GroundAtom], deletes: set[GroundAtom],
                  fluents: bool) -> None:
        """`after` was reached from `before` by a step that added `adds`, deleted `deletes` and changed
        fluents when `fluents`: its derived atoms can be updated from those of `before`."""
        if not self.rules or self._program is False:
            return
        cached = self._derived.get(id(before))
        if cached is not None and cached[0] is before and cached[2] is not None:
            hint = (after, cached[2], adds | deletes, fluents)
        else:
            earlier = self._hints.get(id(before))  # kept: a state may have several successors
            if earlier is None or earlier[0] is not before or len(earlier[2]) > 4096:
                return
            hint = (after, earlier[1], earlier[2] | adds | deletes, earlier[3] or fluents)
        if len(self._hints) > 256:  # a plan moves forward; states left behind are not asked again
            self._hints.clear()
        self._hints[id(after)] = hint

    def _ground_program(self) -> Derivation | None:
        program = self._program
        if program is None:
            with self._build:
                program = self._program
                if program is None:
                    program = self._ground() or False
                    self._program = program
        return None if isinstance(program, bool) else program

    def _ground(self) -> Derivation | None:
        if self._world is None:
            return None
        # imported here: only tasks with derived predicates need them (and the compiler's notion of a
        # static predicate is the one to share)
        from pddltools.pddl.changes import static_predicates
        from pddltools.semantics.derivation import Derivation

        initial, changing = self._world
        return Derivation.build(self, self._strata, initial.atoms, static_predicates(self.domain) - changing)

    def derived(self, state: State) -> frozenset[GroundAtom] | set[GroundAtom]:
        """The derived atoms true in `state`: the least fixpoint of each stratum in turn."""
        partial: tuple[State, set[GroundAtom]] | None = getattr(self._local, "partial", None)
        if partial is not None and partial[0] is state:
            return partial[1]
        cached = self._derived.get(id(state))
        if cached is not None and cached[0] is state:
            return cached[1]
        program = self._ground_program() if self._strata else None
        if program is not None:
            atoms = state.atoms if isinstance(state.atoms, set | frozenset) else frozenset(state.atoms)
            layers: Layers | None = None
            hint = self._hints.pop(id(state), None)
            if hint is not None and hint[0] is state:
                layers = program.update(hint[1], hint[2], hint[3], atoms, state)
            elif program.consistent(atoms):
                layers = program.evaluate(atoms, state)
            if layers is not None:
                return self._keep(state, frozenset().union(*layers), layers)
        facts: set[GroundAtom] = set()
        self._local.partial = (state, facts)
        try:
            for stratum in self._strata:
                heads = [(rule, binding, (rule.name, *[str(binding[p.name]) for p in rule.predicate.parameters]))
                         for rule in stratum.rules
                         for binding in self.candidates(list(rule.predicate.parameters), _conjuncts(rule.body), {},
                                                        state, rule.body)]
                if stratum.recursive:
                    self._fixpoint(heads, state, facts)
                else:
                    for rule, binding, key in heads:
                        if key not in facts and self.holds(rule.body, binding, state):
                            facts.add(key)
        finally:
            self._local.partial = None
        return self._keep(state, frozenset(facts), None)

    def _keep(self, state: State, result: frozenset[GroundAtom], layers: Layers | None) -> frozenset[GroundAtom]:
        if len(self._derived) > 256:  # a plan moves forward; old states are not asked again
            self._derived.clear()
        self._derived[id(state)] = (state, result, layers)
        return result

    def _fixpoint(self, heads: list[tuple[ast.DerivedPredicate, dict[str, Value], GroundAtom]], state: State,
                  facts: set[GroundAtom]) -> None:
        """The least fixpoint of a recursive stratum, by a worklist: a head found false is evaluated
        again only when a derived atom its evaluation looked up (and found false) becomes true. Within
        a stratum every use is positive, so nothing else can change its value."""
        waiting: dict[GroundAtom, list[tuple[ast.DerivedPredicate, dict[str, Value], GroundAtom]]] = {}
        work = deque(heads)
        local = self._local
        try:
            while work:
                item = work.popleft()
                rule, binding, key = item
                if key in facts:
                    continue
                misses: set[GroundAtom] = set()
                local.misses = misses
                found = self.holds(rule.body, binding, state)
                local.misses = None
                if found:
                    facts.add(key)
                    work.extend(waiting.pop(key, ()))
                else:
                    for missed in misses:
                        waiting.setdefault(missed, []).append(item)
        finally:
            local.misses = None

    # ----------------------------------------------------------------------------------------------
    # Why a formula is false

    def explain(self, formula: ast.Formula, binding: Binding, state: State) -> list[Unsatisfied]:
        """The parts of a false formula that make it false, as ground literals where possible."""
        if self.holds(formula, binding, state):
            return []
        match formula:
            case ast.Atom():
                key = self._ground_atom(formula, binding, state)
                note = "a derived predicate" if formula.predicate in self.derived_names else ""
                return [Unsatisfied(show_atom(key), key, True, note)]
            case ast.Not(body=ast.Atom() as atom):
                key = self._ground_atom(atom, binding, state)
                note = "a derived predicate" if atom.predicate in self.derived_names else ""
                return [Unsatisfied(f"(not {show_atom(key)})", key, False, note)]
            case ast.Not(body=ast.Or(parts=parts)):
                return [u for part in parts for u in self.explain(ast.Not(part), binding, state)]
            case ast.And(parts=parts):
                return [u for part in parts for u in self.explain(part, binding, state)]
            case ast.Forall(variables=variables, body=body):
                return [u for inner in self.grounder.bindings(variables, binding)
                        for u in self.explain(body, inner, state)]
            case ast.Imply(consequence=consequence):
                return self.explain(consequence, binding, state)
            case ast.Timed(body=body):
                return self.explain(body, binding, state)  # type: ignore[arg-type]
            case ast.Comparison():
                return [Unsatisfied(str(ground(formula, binding)), note=self._values_read(formula, binding, state))]
            case (ast.Not() | ast.Or() | ast.Exists() | ast.Preference() | ast.Always() | ast.Sometime()
                  | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter() | ast.SometimeBefore()
                  | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
                return [Unsatisfied(str(ground(formula, binding)))]  # false as a whole
            case _:
                assert_never(formula)

    def _ground_atom(self, f: ast.Atom, b: Binding, s: State) -> GroundAtom:
        args = []
        for t in f.args:
            try:
                args.append(self.term(t, b, s))
            except UndefinedValue:
                args.append(str(ground(t, b)))
        return (f.predicate, *args)

    def _values_read(self, f: ast.Comparison, b: Binding, s: State) -> str:
        parts = []
        for node in (f.left, f.right):
            for sub in node.walk():
                if isinstance(sub, ast.FunctionTerm):
                    try:
                        key = self.fluent(sub, b, s)
                    except UndefinedValue as exc:
                        parts.append(f"{exc.fluent} is undefined")
                        continue
                    found = s.values.get(key)
                    parts.append(f"{show_atom(key)} = {show_number(found)}" if found is not None
                                 else f"{show_atom(key)} is undefined")
        return ", ".join(dict.fromkeys(parts))

    # ----------------------------------------------------------------------------------------------
    # What a formula reads (for the mutex of concurrent actions)

    def reads(self, formula: ast.Node, binding: Binding, state: State) -> tuple[set[GroundAtom], set[GroundFluent]]:
        """The ground atoms and fluents a formula or expression depends on, quantifiers expanded."""
        atoms: set[GroundAtom] = set()
        fluents: set[GroundFluent] = set()
        self._reads(formula, binding, state, atoms, fluents)
        return atoms, fluents

    def _reads(self, node: ast.Node, b: Binding, s: State, atoms: set[GroundAtom],
               fluents: set[GroundFluent]) -> None:
        if isinstance(node, ast.Atom):
            atoms.add(self._ground_atom(node, b, s))
        elif isinstance(node, ast.FunctionTerm):
            try:
                fluent: GroundFluent | None = self.fluent(node, b, s)
            except UndefinedValue:  # an undefined fluent is read by nothing
                fluent = None
            if fluent is not None:
                fluents.add(fluent)
        elif isinstance(node, ast.Constant) and node.name in self.constant_functions:
            fluents.add((node.name,))
        if isinstance(node, ast.Exists | ast.Forall | ast.ForallEffect):
            for inner in self.grounder.bindings(node.variables, b):
                self._reads(node.body, inner, s, atoms, fluents)
            return
        if isinstance(node, ast.FunctionTerm):
            for arg in node.args:
                self._reads(arg, b, s, atoms, fluents)
            return
        for child in node.children():
            self._reads(child, b, s, atoms, fluents)


def _conjuncts(formula: ast.Formula) -> tuple[ast.Formula, ...]:
    return formula.parts if isinstance(formula, ast.And) else (formula,)


if TYPE_CHECKING:
    _Made = TypeVar("_Made")
#: the recursion limit compiling needs for the deepest formula the parser takes (tests/test_fuzz_turn3_input.py)
_ROOM = 10_000


def _once(cache: dict[int, tuple[ast.Node, _Made]], node: ast.Node, make: Callable[[], _Made]) -> _Made:
    """The closure `make` gives for `node`, kept by the node's identity (checked: an id is reused once a
    node is gone). Nodes made on the fly (messages, loosened conditions) are not kept forever."""
    entry = cache.get(id(node))
    if entry is not None and entry[0] is node:
        return entry[1]
    if sys.getrecursionlimit() < _ROOM:
        # compiling recurses through a few frames per level of the formula: the deepest one the parser
        # takes (E105, about 190 levels of arithmetic) needs more than Python's default 1,000
        sys.setrecursionlimit(_ROOM)
    made = make()
    if len(cache) > 100_000:
        cache.clear()
    cache[id(node)] = (node, made)
    return made


if TYPE_CHECKING:
    N = TypeVar("N", bound=ast.Node)


def ground(node: N, binding: Binding) -> N:
    """`node` with its bound variables replaced by their values (for messages)."""
    return ast.substitute(node, {name: ast.Constant(value) if isinstance(value, str) else ast.Number(value)
                                 for name, value in binding.items()})
