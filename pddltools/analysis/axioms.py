"""The axioms a grounded task needs, and their layers, as Fast Downward's translator orders them.

A derived atom is needed when the goal, an operator's precondition or an effect's condition reads it,
or a needed atom's axiom does; the others' axioms are dropped (their atoms stay reachable atoms, but no
variable of the SAS file). An axiom another of the same head makes redundant (its condition contains the
other's) is dropped too.

Layers (Fast Downward's `--layer-strategy min`): the needed derived atoms are grouped into strongly
connected components of "the axioms of A read B", and each component gets the smallest layer at least
that of every component it reads positively and above that of every one it reads negated. The search
evaluates the layers in order and takes a derived atom no axiom made true as false once its layer is
done (negation as failure), so an axiom that reads "B is false" must be in a later layer than B. A
component reading its own negation has no such order (the grounder refuses it beforehand, E802).

    needed = Axioms(task)
    needed.atoms      # the needed derived atoms, in the task's order
    needed.axioms     # their axioms
    needed.layer[a]   # the layer of needed atom a
"""

from __future__ import annotations

from collections import defaultdict

from pddltools.analysis.grounder import Axiom, GroundTask
from pddltools.diagnostics import compile_error
from pddltools.semantics.derived import strongly_connected


class Axioms:
    def __init__(self, task: GroundTask) -> None:
        derived = {i for i, atom in enumerate(task.atoms) if atom[0] in task.derived}
        by_head: dict[int, list[Axiom]] = defaultdict(list)
        for axiom in task.axioms:
            by_head[axiom.head].append(axiom)
        needed = _needed(task, derived, by_head)
        self.atoms = sorted(needed)
        self.axioms = [axiom for head in self.atoms for axiom in _undominated(by_head[head])]
        self.layer = _layers(self.atoms, self.axioms, derived, task)


def _needed(task: GroundTask, derived: set[int], by_head: dict[int, list[Axiom]]) -> set[int]:
    reads = [a for a, _ in task.goal or ()]
    for op in task.operators:
        reads += [a for a, _ in op.precondition]
        reads += [a for e in op.effects for a, _ in e.conditions]
    stack = [a for a in reads if a in derived]
    needed: set[int] = set()
    while stack:
        atom = stack.pop()
        if atom in needed:
            continue
        needed.add(atom)
        stack += [a for axiom in by_head[atom] for a, _ in axiom.condition if a in derived and a not in needed]
    return needed


def _undominated(axioms: list[Axiom]) -> list[Axiom]:
    """The axioms of one head without those whose condition includes another's (that one fires whenever
    they would); an axiom without condition makes the rest redundant."""
    ordered = sorted(axioms, key=lambda a: len(a.condition))
    kept: list[tuple[Axiom, frozenset[tuple[int, bool]]]] = []
    for axiom in ordered:
        condition = frozenset(axiom.condition)
        if any(other <= condition for _, other in kept):
            continue
        kept.append((axiom, condition))
    out = {id(a) for a, _ in kept}
    return [a for a in axioms if id(a) in out]


def _layers(atoms: list[int], axioms: list[Axiom], derived: set[int], task: GroundTask) -> dict[int, int]:
    positive: dict[int, set[int]] = {a: set() for a in atoms}
    negative: dict[int, set[int]] = {a: set() for a in atoms}
    for axiom in axioms:
        for a, sign in axiom.condition:
            if a in derived:
                (positive if sign else negative)[axiom.head].add(a)
    components = strongly_connected(atoms, {a: positive[a] | negative[a] for a in atoms})
    component_of = {a: c for c, members in enumerate(components) for a in members}
    layer_of: list[int] = []
    for c, members in enumerate(components):  # each after every component it reads
        layer = 0
        for a in members:
            for b in positive[a]:
                if component_of[b] != c:
                    layer = max(layer, layer_of[component_of[b]])
            for b in negative[a]:
                if component_of[b] == c:
                    name = " ".join(task.atoms[a])
                    raise compile_error("E802", f"the derived atom ({name}) depends on its own negation, through "
                                        f"({' '.join(task.atoms[b])}): the axioms are not stratified")
                layer = max(layer, layer_of[component_of[b]] + 1)
        layer_of.append(layer)
    return {a: layer_of[component_of[a]] for a in atoms}
