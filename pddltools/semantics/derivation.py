"""Derived predicates over ground rules: stratified, semi-naive, and updated from a step's changes.

Built once per task (`Derivation.build`): every derived atom's rules, ground and compiled
(`pddltools.semantics.ground`), layer by layer in the order of `derived.strata`, with an index from
each atom a rule reads to the rules that read it. Then, in a state:
- `evaluate`: the layers in turn. A non-recursive layer tests each of its rules once. A recursive one
  tests each rule once and afterwards only the rules that read an atom of the same layer that has
  just become true (semi-naive: inside a layer every use is positive, so nothing else can make a
  false rule true).
- `update`: from the derived atoms of the state before a step and the atoms (and whether fluents) the
  step changed. A non-recursive layer tests again only the rules that read a changed atom; a
  recursive layer any of whose inputs changed is recomputed whole, since a deleted support may leave
  a cycle of atoms holding each other up (re-deriving just that part, DRed, is the refinement to make
  when a task needs it). What a layer changed is passed up to the layers above.

The ground rules assume the static atoms (of predicates no effect changes) are those of the initial
state; `consistent` says whether a state agrees, and the evaluator keeps its lifted evaluation for one
that does not (a state made by hand, say).
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pddltools.semantics.derived import Stratum
from pddltools.semantics.ground import GroundFormulas, NotGround, Test, compile_ground
from pddltools.semantics.state import GroundAtom, State

if TYPE_CHECKING:
    from pddltools.semantics.evaluate import Evaluator

#: The derived atoms of one state, one frozenset per layer.
Layers = tuple[frozenset[GroundAtom], ...]


@dataclass(frozen=True, slots=True)
class Rule:
    atom: GroundAtom
    test: Test


@dataclass(slots=True)
class Layer:
    recursive: bool
    rules: list[Rule] = field(default_factory=list)
    #: basic atoms and derived atoms of lower layers -> the rules that read them
    readers: dict[GroundAtom, list[int]] = field(default_factory=dict)
    #: derived atoms of this layer -> the rules that read them (recursive layers)
    own: dict[GroundAtom, list[int]] = field(default_factory=dict)
    #: rules that compare fluents: tested again whenever a fluent changes
    fluent_rules: list[int] = field(default_factory=list)
    #: a head atom -> its rules (one per ground instance of each `:derived` for its predicate)
    heads: dict[GroundAtom, list[int]] = field(default_factory=dict)


class Derivation:
    def __init__(self, layers: list[Layer], static: frozenset[str], static_facts: frozenset[GroundAtom]) -> None:
        self.layers = layers
        self.static = static
        self.static_facts = static_facts

    @classmethod
    def build(cls, ev: Evaluator, strata: list[Stratum], initial: Set[GroundAtom],
              static: frozenset[str]) -> Derivation | None:
        """The ground program, or None when a rule cannot be ground (see `ground.NotGround`)."""
        static_facts = frozenset(a for a in initial if a[0] in static)
        names = {rule.name for stratum in strata for rule in stratum.rules}
        grounder = GroundFormulas(ev, static, static_facts, names)
        layers: list[Layer] = []
        try:
            for stratum in strata:
                layers.append(_layer(ev, grounder, stratum))
        except NotGround:
            return None
        return cls(layers, static, static_facts)

    def consistent(self, atoms: Iterable[GroundAtom]) -> bool:
        """Whether a state's static atoms are those the rules were ground with."""
        static = self.static
        return {a for a in atoms if a[0] in static} == self.static_facts

    def evaluate(self, atoms: Set[GroundAtom], state: State) -> Layers:
        facts: set[GroundAtom] = set()
        out = []
        for layer in self.layers:
            if layer.recursive:
                out.append(frozenset(_fixpoint(layer, atoms, facts, state)))
                continue
            found = set()
            for rule in layer.rules:
                if rule.atom not in found and rule.test(atoms, facts, state):
                    found.add(rule.atom)
            facts |= found
            out.append(frozenset(found))
        return tuple(out)

    def update(self, before: Layers, changed: Set[GroundAtom], fluents: bool, atoms: Set[GroundAtom],
               state: State) -> Layers:
        """The layers of a state reached by a step from one whose layers were `before`; `changed` holds
        (at least) every basic atom whose truth the step changed, `fluents` whether it changed a fluent."""
        facts: set[GroundAtom] = set().union(*before)
        moved = set(changed)
        out = list(before)
        for index, layer in enumerate(self.layers):
            touched: set[int] = set()
            readers = layer.readers
            for atom in moved:
                found = readers.get(atom)
                if found:
                    touched.update(found)
            if fluents:
                touched.update(layer.fluent_rules)
            if not touched:
                continue
            old = before[index]
            if layer.recursive:
                facts -= old
                new = frozenset(_fixpoint(layer, atoms, facts, state))
            else:
                current = set(old)
                rules = layer.rules
                for head in {rules[i].atom for i in touched}:
                    holds = any(rules[i].test(atoms, facts, state) for i in layer.heads[head])
                    if holds:
                        current.add(head)
                    else:
                        current.discard(head)
                new = frozenset(current)
                facts -= old - new
                facts |= new
            out[index] = new
            moved |= old ^ new
        return tuple(out)


def _layer(ev: Evaluator, grounder: GroundFormulas, stratum: Stratum) -> Layer:
    layer = Layer(stratum.recursive)
    own_names = {rule.name for rule in stratum.rules}
    for rule in stratum.rules:
        parameters = rule.predicate.parameters
        for binding in grounder.bindings(parameters, rule.body, {}):
            ground = grounder.formula(rule.body, binding)
            if ground is False:
                continue
            compiled = compile_ground(ground, ev)
            index = len(layer.rules)
            head = (rule.name, *[str(binding[p.name]) for p in parameters])
            layer.rules.append(Rule(head, compiled.test))
            layer.heads.setdefault(head, []).append(index)
            for atom in compiled.atoms:
                layer.readers.setdefault(atom, []).append(index)
            for atom in compiled.derived:
                into = layer.own if atom[0] in own_names else layer.readers
                into.setdefault(atom, []).append(index)
            if compiled.fluents:
                layer.fluent_rules.append(index)
    return layer


def _fixpoint(layer: Layer, atoms: Set[GroundAtom], facts: set[GroundAtom], state: State) -> set[GroundAtom]:
    """The least fixpoint of a recursive layer, added to `facts` (which holds the lower layers)."""
    rules, own = layer.rules, layer.own
    found: set[GroundAtom] = set()
    work = list(range(len(rules) - 1, -1, -1))
    pop, extend = work.pop, work.extend
    while work:
        rule = rules[pop()]
        head = rule.atom
        if head in found or not rule.test(atoms, facts, state):
            continue
        found.add(head)
        facts.add(head)
        waiting = own.get(head)
        if waiting:
            extend(waiting)
    return found

