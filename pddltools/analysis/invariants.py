"""Mutex groups: sets of atoms of which at most one is true in any reachable state.

A candidate is a predicate with some of its argument positions "counted" and the others fixed: each
choice of objects for the fixed positions names one group (for `(at ?truck ?place)` with the place
counted, one group per truck: the places it may be at). As in Fast Downward's invariant synthesis
(Helmert 2009), a candidate is an invariant when the initial state holds at most one atom of each group
and every operator keeps it so: an operator that adds an atom of a group must also delete one of the
same group that its precondition requires (a move), or require the added atom itself. Candidates that
fail are refined by a second predicate when the failing operator deletes such an atom of it: `(at
?package ?place)` and `(in ?package ?truck)` together are one group per package.

Checked on the ground operators, so that what relaxed reachability ruled out cannot break an invariant.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from pddltools.analysis.grounder import GroundTask, Literal

#: A part of a candidate: a predicate and the positions of its arguments that name the group, in order.
Part = tuple[str, tuple[int, ...]]


@dataclass(frozen=True)
class Candidate:
    parts: tuple[Part, ...]

    def group_of(self, atom: tuple[str, ...]) -> tuple[str, ...] | None:
        for predicate, fixed in self.parts:
            if atom[0] == predicate:
                return tuple(atom[i + 1] for i in fixed)
        return None


def mutex_groups(task: GroundTask) -> list[list[Literal]]:
    """The mutex groups of the task's atoms (each at least two atoms), larger groups first; an atom may be
    in several."""
    arity: dict[str, int] = {}
    for atom in task.atoms:
        arity[atom[0]] = len(atom) - 1
    accepted: list[Candidate] = []
    tried: set[Candidate] = set()
    queue = [Candidate(((p, fixed),)) for p, n in sorted(arity.items()) for fixed in _fixings(n)]
    while queue:
        candidate = queue.pop(0)
        if candidate in tried:
            continue
        tried.add(candidate)
        verdict = _check(task, candidate, arity)
        if verdict is True:
            accepted.append(candidate)
        elif isinstance(verdict, list) and len(candidate.parts) < 3:
            queue.extend(verdict)
    groups: dict[tuple[Candidate, tuple[str, ...]], list[int]] = defaultdict(list)
    for candidate in accepted:
        for index, atom in enumerate(task.atoms):
            key = candidate.group_of(atom)
            if key is not None:
                groups[(candidate, key)].append(index)
    found = {tuple(sorted(atoms)) for atoms in groups.values() if len(atoms) >= 2}
    # a group inside a larger one says nothing more
    ordered = sorted(found, key=lambda g: (-len(g), g))
    kept: list[tuple[int, ...]] = []
    for group in ordered:
        members = set(group)
        if not any(members <= set(k) for k in kept):
            kept.append(group)
    return [[(a, True) for a in group] for group in kept]


def _fixings(arity: int) -> Iterator[tuple[int, ...]]:
    """The choices of fixed positions with at least one counted: all but one, down to none."""
    positions = range(arity)
    for size in range(arity - 1, -1, -1):
        yield from combinations(positions, size)


def _check(task: GroundTask, candidate: Candidate, arity: dict[str, int]) -> bool | list[Candidate]:
    """True when `candidate` is an invariant; else the refinements worth trying (perhaps none)."""
    atoms = task.atoms
    weight: dict[tuple[str, ...], int] = defaultdict(int)
    for a in task.init:
        key = candidate.group_of(atoms[a])
        if key is not None:
            weight[key] += 1
            if weight[key] > 1:
                return False
    refinements: list[Candidate] = []
    for op in task.operators:
        required = {i for i, positive in op.precondition if positive}
        deleted: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for e in op.effects:
            if not e.add and not e.conditions:
                key = candidate.group_of(atoms[e.atom])
                if key is not None and e.atom in required:
                    deleted[key].append(e.atom)
        added: dict[tuple[str, ...], int] = defaultdict(int)
        for e in op.effects:
            if not e.add:
                continue
            key = candidate.group_of(atoms[e.atom])
            if key is None or e.atom in required:
                continue
            if e.conditions:
                return False  # a conditional add: not balanced by this simple check
            added[key] += 1
            if added[key] > 1:
                return False
            if not deleted.get(key):
                refinements += _refine(task, candidate, op, e.atom, arity)
                return refinements or False
    return True


def _refine(task: GroundTask, candidate: Candidate, op: object, added: int, arity: dict[str, int]) -> list[Candidate]:
    """Candidates with one more part: a predicate the operator deletes (and requires) whose arguments
    include those that name the added atom's group, fixed at the same positions."""
    atoms = task.atoms
    atom = atoms[added]
    key = candidate.group_of(atom)
    assert key is not None
    have = {p for p, _ in candidate.parts}
    required = {i for i, positive in op.precondition if positive}  # type: ignore[attr-defined]
    out = []
    for e in op.effects:  # type: ignore[attr-defined]
        if e.add or e.conditions or e.atom not in required:
            continue
        other = atoms[e.atom]
        if other[0] in have:
            continue
        args = other[1:]
        # the positions of `other` that hold the key's values, in the key's order
        positions: list[int] = []
        for value in key:
            found = [i for i, a in enumerate(args) if a == value and i not in positions]
            if not found:
                break
            positions.append(found[0])
        else:
            if len(positions) < arity[other[0]]:
                out.append(Candidate((*candidate.parts, (other[0], tuple(positions)))))
    return out
