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

Fast Downward's candidates count at most one argument of each predicate (its `InvariantPart` has one
`omitted_pos`); `counted=1` keeps to that shape, for comparing the two (`pddltools ground --mutex-groups
translator`): the same groups where both searches meet the same candidates. They need not: each refines a
failing candidate at one unbalanced operator (the translator draws its actions at random) and stops at the
first balanced one, and the translator stops at 100,000 candidates (docs/commands/ground.md names the
pairs). Without the limit a part may count several arguments: `(at ?p _)` with `(in ?p _ _)`, a package at
a place or in some truck's some area (IPC-2006 trucks), which the translator cannot state.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from pddltools.analysis.grounder import GroundTask, Literal, Operator, paused_gc

#: Predicates in one candidate at most (depots needs four: clear, in, lifting, on; openstacks six nullary ones;
#: IPC-2004 promela dining philosophers nine: each philosopher's activate-, enabled- and pending- atoms).
#: The translator has no such limit, only one on candidates; `MAX_CANDIDATES` bounds the search anyway.
MAX_PARTS = 16
#: Candidates checked at most, breadth first (fewer parts first): refinements multiply with every part
#: (pipesworld's nullary predicates: 14,000 candidates up to five parts, 163,000 up to eight). The
#: translator's limit (`--invariant-generation-max-candidates`): with 20,000 the groups of IPC-2004 promela
#: optical telegraph's processes (thirteen nullary predicates each) were out of reach, which it finds.
MAX_CANDIDATES = 100_000
#: A part of a candidate: a predicate and the positions of its arguments that name the group, in order.
Part = tuple[str, tuple[int, ...]]


@dataclass(frozen=True)
class Candidate:
    parts: tuple[Part, ...]


def describe(candidate: Candidate, task: GroundTask) -> str:
    """`(at ?a _) (in ?a _)`: the atoms of one group, `?a` ... naming what fixes the group, `_` what varies."""
    arity = {atom[0]: len(atom) - 1 for atom in task.atoms}
    names = [f"?{chr(ord('a') + i)}" for i in range(len(candidate.parts[0][1]))]
    shown = []
    for predicate, fixed in candidate.parts:
        args = ["_"] * arity[predicate]
        for name, position in zip(names, fixed, strict=False):
            args[position] = name
        shown.append("(" + " ".join((predicate, *args)) + ")")
    return " ".join(shown)


class _Index:
    """What every candidate's check reads, computed once: each operator's required atoms, its outright
    deletes and its adds, and which operators add atoms of each predicate."""

    def __init__(self, task: GroundTask) -> None:
        self.task = task
        self.by_predicate: dict[str, list[int]] = defaultdict(list)
        for index, atom in enumerate(task.atoms):
            self.by_predicate[atom[0]].append(index)
        self.deletes: list[list[int]] = []
        self.adds: list[list[tuple[int, bool]]] = []  # (atom, conditional)
        self.adding: dict[str, set[int]] = defaultdict(set)
        predicate_of = [atom[0] for atom in task.atoms]
        for o, op in enumerate(task.operators):
            required = {i for i, positive in op.precondition if positive}
            deletes: list[int] = []
            adds: list[tuple[int, bool]] = []
            for conditions, a, add in op.effects:  # an Effect is a named tuple
                if add:
                    if a not in required:
                        adds.append((a, bool(conditions)))
                        self.adding[predicate_of[a]].add(o)
                elif not conditions and a in required:
                    deletes.append(a)
            self.deletes.append(deletes)
            self.adds.append(adds)


def invariants(task: GroundTask, counted: int | None = None) -> list[tuple[Candidate, list[tuple[int, ...]]]]:
    """The invariants found, each with its ground groups of at least two atoms (none: it says nothing);
    `counted`: at most so many counted arguments in each part (Fast Downward's candidates: 1)."""
    index = _Index(task)
    # derived atoms are set by axioms, not operators: no operator's balance says anything about them
    arity = {p: len(task.atoms[atoms[0]]) - 1 for p, atoms in index.by_predicate.items() if p not in task.derived}
    accepted: list[tuple[Candidate, dict[int, tuple[str, ...]]]] = []
    tried: set[Candidate] = set()
    queue = deque(Candidate(((p, fixed),)) for p, n in sorted(arity.items()) for fixed in _fixings(n)
                  if counted is None or n - len(fixed) <= counted)
    while queue and len(tried) < MAX_CANDIDATES:
        candidate = queue.popleft()
        if candidate in tried:
            continue
        tried.add(candidate)
        keys = _keys(index, candidate)
        verdict = _check(index, candidate, keys, arity)
        if verdict is True:
            accepted.append((candidate, keys))
        elif isinstance(verdict, list) and len(candidate.parts) < MAX_PARTS:
            queue.extend(c for c in verdict
                         if counted is None or arity[c.parts[-1][0]] - len(c.parts[-1][1]) <= counted)
    out = []
    for candidate, keys in accepted:
        groups: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for atom, key in keys.items():
            groups[key].append(atom)
        out.append((candidate, sorted(tuple(sorted(atoms)) for atoms in groups.values() if len(atoms) >= 2)))
    return out


def mutex_groups(task: GroundTask, counted: int | None = None) -> list[list[Literal]]:
    """The mutex groups of the task's atoms (each at least two atoms), larger groups first; an atom may be
    in several. `counted`: as for `invariants`."""
    with paused_gc():
        found = {group for _, groups in invariants(task, counted) for group in groups}
    # a group inside a larger one says nothing more
    ordered = sorted(found, key=lambda g: (-len(g), g))
    kept: list[tuple[int, ...]] = []
    covering: dict[int, list[set[int]]] = defaultdict(list)
    for group in ordered:
        members = set(group)
        if not any(members <= other for other in covering[group[0]]):
            kept.append(group)
            for a in group:
                covering[a].append(members)
    return [[(a, True) for a in group] for group in kept]


def _keys(index: _Index, candidate: Candidate) -> dict[int, tuple[str, ...]]:
    """Each atom of the candidate's predicates with the group it is in."""
    atoms = index.task.atoms
    out: dict[int, tuple[str, ...]] = {}
    for predicate, fixed in candidate.parts:
        for a in index.by_predicate.get(predicate, ()):
            out[a] = tuple(atoms[a][i + 1] for i in fixed)
    return out


def _fixings(arity: int) -> Iterator[tuple[int, ...]]:
    """The choices of fixed positions: all (a group of one atom, which only a refinement makes more of,
    as `(occupied ?p)` with `(free ?p)`), all but one, down to none."""
    positions = range(arity)
    for size in range(arity, -1, -1):
        yield from combinations(positions, size)


def _check(index: _Index, candidate: Candidate, keys: dict[int, tuple[str, ...]],
           arity: dict[str, int]) -> bool | list[Candidate]:
    """True when `candidate` is an invariant; else the refinements worth trying (perhaps none)."""
    task = index.task
    weight: dict[tuple[str, ...], int] = defaultdict(int)
    for a in task.init:
        key = keys.get(a)
        if key is not None:
            weight[key] += 1
            if weight[key] > 1:
                return False
    operators: set[int] = set()
    for predicate, _ in candidate.parts:
        operators |= index.adding.get(predicate, set())
    for o in sorted(operators):
        deleted = {keys[d] for d in index.deletes[o] if d in keys}
        added: set[tuple[str, ...]] = set()
        for atom, conditional in index.adds[o]:
            key = keys.get(atom)
            if key is None:
                continue
            if conditional or key in added:
                return False  # a conditional add, or two adds to one group: not balanced by this check
            added.add(key)
            if key not in deleted:
                return _refine(task, candidate, task.operators[o], atom, keys, arity) or False
    return True


def _refine(task: GroundTask, candidate: Candidate, op: Operator, added: int, keys: dict[int, tuple[str, ...]],
            arity: dict[str, int]) -> list[Candidate]:
    """Candidates with one more part: a predicate the operator deletes (and requires) whose arguments
    include those that name the added atom's group, fixed at the same positions."""
    atoms = task.atoms
    key = keys[added]
    have = {p for p, _ in candidate.parts}
    required = {i for i, positive in op.precondition if positive}
    out = []
    for e in op.effects:
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
            out.append(Candidate((*candidate.parts, (other[0], tuple(positions)))))
    return out
