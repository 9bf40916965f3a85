"""Derived predicates over ground rules: stratified, semi-naive, and updated from a step's changes.

Built once per task (`Derivation.build`): every derived atom's rules, ground and compiled
(`pddltools.semantics.ground`), layer by layer in the order of `derived.strata`, with an index from
each atom a rule reads to the rules that read it. Then, in a state:
- `evaluate`: the layers in turn. A non-recursive layer tests each of its rules once. A recursive one
  tests each rule once and afterwards only the rules that read an atom of the same layer that has
  just become true (semi-naive: inside a layer every use is positive, so nothing else can make a
  false rule true).
- `update`: from the derived atoms of the state before a step and the atoms (and whether fluents) the
  step changed. A non-recursive layer tests again only the rules that read a changed atom. A
  recursive layer continues from its old fixpoint when the changes can only make rules truer;
  otherwise it deletes and re-derives (DRed): everything that may have lost support is dropped, since
  a cycle of atoms could otherwise keep holding itself up, and re-derived from what is left. What a
  layer changed is passed up to the layers above.

The ground rules assume the static atoms (of predicates no effect changes) are those of the initial
state; `consistent` says whether a state agrees, and the evaluator keeps its lifted evaluation for one
that does not (a state made by hand, say).
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pddltools.semantics.derived import Stratum
from pddltools.semantics.ground import Ground, GroundFormulas, NotGround, Test, compile_ground, disjuncts, polarity
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
    #: a head atom -> its rules (one per ground instance of each `:derived` for its predicate; in a
    #: recursive layer, one per disjunct of that instance when it splits into few)
    heads: dict[GroundAtom, list[int]] = field(default_factory=dict)
    #: the rules a fixpoint from nothing starts with: those that can hold before any atom of the layer
    base: list[int] = field(default_factory=list)
    #: the atoms the layer's rules read positively, and negatively (what makes a change monotone)
    positive: set[GroundAtom] = field(default_factory=set)
    negative: set[GroundAtom] = field(default_factory=set)


class Derivation:
    def __init__(self, layers: list[Layer], static: frozenset[str], static_facts: frozenset[GroundAtom]) -> None:
        self.layers = layers
        self.static = static
        self.static_facts = static_facts
        #: an atom -> (layer, rule) of every rule of a layer above it that reads it: a step's changes
        #: find the rules to test again without visiting the layers they do not touch
        self.readers: dict[GroundAtom, list[tuple[int, int]]] = {}
        for index, layer in enumerate(layers):
            for atom, rules in layer.readers.items():
                self.readers.setdefault(atom, []).extend((index, rule) for rule in rules)

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
        pending: dict[int, set[int]] = {}
        self._note(moved, pending)
        if fluents:
            for index, layer in enumerate(self.layers):
                if layer.fluent_rules:
                    pending.setdefault(index, set()).update(layer.fluent_rules)
        while pending:  # the lowest layer first: what it changes is read only by layers above it
            index = min(pending)
            touched = pending.pop(index)
            layer = self.layers[index]
            old = before[index]
            if layer.recursive and not fluents and _grows(layer, moved, atoms, facts):
                # every change can only make rules truer: the old fixpoint is a start for the new one
                new = frozenset(_fixpoint(layer, atoms, facts, state, set(old), touched))
            elif layer.recursive:
                new = frozenset(_rederive(layer, atoms, facts, state, old, touched))
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
            difference = old ^ new
            if difference:
                moved |= difference
                self._note(difference, pending)
        return tuple(out)

    def _note(self, changed: Iterable[GroundAtom], pending: dict[int, set[int]]) -> None:
        readers = self.readers
        for atom in changed:
            for layer, rule in readers.get(atom, ()):
                pending.setdefault(layer, set()).add(rule)


def _grows(layer: Layer, moved: Set[GroundAtom], atoms: Set[GroundAtom], facts: Set[GroundAtom]) -> bool:
    """Whether each changed atom the layer reads changed the way its rules read it: became true where
    read positively only, or false where read negatively only."""
    positive, negative = layer.positive, layer.negative
    for atom in moved:
        if atom in facts or atom in atoms:
            if atom in negative:
                return False
        elif atom in positive:
            return False
    return True


def _layer(ev: Evaluator, grounder: GroundFormulas, stratum: Stratum) -> Layer:
    layer = Layer(stratum.recursive)
    own_names = {rule.name for rule in stratum.rules}
    for rule in stratum.rules:
        parameters = rule.predicate.parameters
        for binding in grounder.bindings(parameters, rule.body, {}):
            ground = grounder.formula(rule.body, binding)
            if ground is False:
                continue
            head = (rule.name, *[str(binding[p.name]) for p in parameters])
            parts = disjuncts(ground) if stratum.recursive else None
            for part in parts if parts is not None else [ground]:
                _add(layer, ev, head, part, own_names)
    return layer


def _add(layer: Layer, ev: Evaluator, head: GroundAtom, ground: Ground, own_names: set[str]) -> None:
    compiled = compile_ground(ground, ev)
    index = len(layer.rules)
    layer.rules.append(Rule(head, compiled.test))
    layer.heads.setdefault(head, []).append(index)
    for atom in compiled.atoms:
        layer.readers.setdefault(atom, []).append(index)
    own = False
    for atom in compiled.derived:
        mine = atom[0] in own_names
        own = own or mine
        (layer.own if mine else layer.readers).setdefault(atom, []).append(index)
    if not own or not _conjunction(ground):  # a part that needs an atom of the layer waits for it
        layer.base.append(index)
    if compiled.fluents:
        layer.fluent_rules.append(index)
    positive, negative = polarity(ground)
    layer.positive |= positive
    layer.negative |= negative


def _rederive(layer: Layer, atoms: Set[GroundAtom], facts: set[GroundAtom], state: State,
              old: frozenset[GroundAtom], touched: Set[int]) -> set[GroundAtom]:
    """The new fixpoint of a recursive layer after changes that may take support away (DRed: delete and
    re-derive): drop the heads of the touched rules and, transitively, of every rule that reads a
    dropped atom; what is left of the old fixpoint still holds. Then test the rules of the dropped
    heads and the touched rules, and go on semi-naively from there."""
    rules, own = layer.rules, layer.own
    dropped = {rules[i].atom for i in touched} & old
    work = list(dropped)
    while work:
        for i in own.get(work.pop(), ()):
            head = rules[i].atom
            if head in old and head not in dropped:
                dropped.add(head)
                work.append(head)
    facts -= dropped
    start = [i for head in dropped for i in layer.heads[head]]
    start.extend(touched)
    return _fixpoint(layer, atoms, facts, state, set(old - dropped), start)


def _conjunction(ground: Ground) -> bool:
    """Whether `ground` is a literal or a conjunction of literals."""
    parts = ground[1] if isinstance(ground, tuple) and ground[0] == "and" else [ground]
    return all(isinstance(p, tuple) and (p[0] in ("atom", "derived", "lifted") or (
        p[0] == "not" and isinstance(p[1], tuple) and p[1][0] in ("atom", "derived"))) for p in parts)


def _fixpoint(layer: Layer, atoms: Set[GroundAtom], facts: set[GroundAtom], state: State,
              found: set[GroundAtom] | None = None, start: Iterable[int] | None = None) -> set[GroundAtom]:
    """The least fixpoint of a recursive layer, added to `facts` (which holds the lower layers), from
    nothing (testing the rules that read no atom of the layer, then those whose atoms of the layer
    became true), or from `found` by testing the rules `start` first."""
    rules, own = layer.rules, layer.own
    found = set() if found is None else found
    work = list(layer.base if start is None else start)
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
