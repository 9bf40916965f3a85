"""Which listed plan id each subtask of a method stands for: a constraint search that stays polynomial
in the common cases and is bounded (saying so) otherwise.

A decomposition `ID TASK -> METHOD SUBTASK-IDS` instantiates its method when the subtasks map one to one
onto the ids so that the arguments agree under one binding, the listed order is a linearisation of the
method's ordering, and the :constraints hold. Trying every assignment in turn is n! for an unordered
method with n subtasks of one task. Here each subtask is a variable whose values are the ids that fit it
alone (name, arguments, types, the constraints it decides by itself); two subtasks constrain each
other by the ids (distinct), the variables they share, the ordering and the constraints over their
variables together. Those pairs are made arc consistent first, then the search assigns the subtask
with the fewest ids left, removes from the others what the choice excludes, and checks that the ids
still left can be matched one to one (a bipartite matching): an assignment it abandons is abandoned
for a reason the remaining subtasks cannot escape. A method whose subtasks are distinguished by name,
arguments or order is solved without backtracking; the search is bounded by `SEARCH_LIMIT` choices,
and a caller told `SearchTooLong` says that it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

#: Choices the search may make for one decomposition before it gives up (and says so).
SEARCH_LIMIT = 100_000

Binding = dict[str, str]


class SearchTooLong(Exception):
    """The search made `SEARCH_LIMIT` choices without settling whether an assignment exists."""


@dataclass(frozen=True)
class Candidate:
    """A plan id for a subtask: its place in the listed order, and the binding its arguments give."""

    ident: int
    rank: int
    binding: Binding


#: True when the constraints decided by the variables of a binding hold (the others are left open).
Holds = Callable[[Binding], bool]


def _agree(a: Binding, b: Binding) -> Binding | None:
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    for name, value in small.items():
        if large.get(name, value) != value:
            return None
    return {**large, **small}


class Matcher:
    """The assignments of `domains` (per subtask, the candidates that fit it alone) under pairwise
    distinct ids, `order` (subtask pairs (a, b): a's id is listed before b's) and `holds`."""

    def __init__(self, domains: Sequence[Sequence[Candidate]], order: Sequence[tuple[int, int]], holds: Holds,
                 base: Binding, limit: int = SEARCH_LIMIT, coupled: Sequence[frozenset[str]] = ()) -> None:
        """`coupled`: the variables of each constraint `holds` decides (two subtasks whose variables
        one of them joins constrain each other)."""
        self.base = base
        self.n = len(domains)
        self.domains = [list(d) for d in domains]
        self.before = {(a, b) for a, b in order}
        self.holds = holds
        self.limit = limit
        self.choices = 0
        self._pairs: dict[tuple[int, int, int, int], bool] = {}
        # the pairs that constrain each other beyond distinct ids (which the matching check covers):
        # the rest are never revised, so a root network of hundreds of tasks costs no n² d² checks
        names = [set().union(*(c.binding.keys() for c in d)) - base.keys() if d else set() for d in self.domains]
        self.neighbours: list[list[int]] = [[] for _ in range(self.n)]
        for i in range(self.n):
            for j in range(self.n):
                if i != j and ((i, j) in self.before or (j, i) in self.before or names[i] & names[j]
                               or any(group & names[i] and group & names[j] for group in coupled)):
                    self.neighbours[i].append(j)
        self._linked = {(i, j) for i in range(self.n) for j in self.neighbours[i]}

    def compatible(self, i: int, x: Candidate, j: int, y: Candidate) -> bool:
        if x.ident == y.ident:
            return False
        if (i, j) not in self._linked:
            return True
        key = (i, x.ident, j, y.ident)
        known = self._pairs.get(key)
        if known is None:
            known = self._pairs[key] = self._compatible(i, x, j, y)
        return known

    def _compatible(self, i: int, x: Candidate, j: int, y: Candidate) -> bool:
        if x.ident == y.ident:
            return False
        if (i, j) in self.before and x.rank > y.rank:
            return False
        if (j, i) in self.before and y.rank > x.rank:
            return False
        joined = _agree(x.binding, y.binding)
        return joined is not None and self.holds(joined)

    def solutions(self) -> Iterator[tuple[list[Candidate], Binding]]:
        """Every assignment (a candidate per subtask) and its binding, until the caller stops; raises
        `SearchTooLong` past the limit."""
        domains = self.domains
        if not self._arc_consistent(domains) or not self._matchable(domains):
            return
        yield from self._search(domains, {}, self.base)

    def _arc_consistent(self, domains: list[list[Candidate]]) -> bool:
        """Remove each candidate that some other subtask has no compatible candidate for (AC-3)."""
        queue = [(i, j) for i in range(self.n) for j in self.neighbours[i]]
        queued = set(queue)
        while queue:
            i, j = queue.pop()
            queued.discard((i, j))
            kept = [x for x in domains[i] if any(self.compatible(i, x, j, y) for y in domains[j])]
            if len(kept) == len(domains[i]):
                continue
            domains[i] = kept
            if not kept:
                return False
            for k in self.neighbours[i]:
                if k != j and (k, i) not in queued:
                    queue.append((k, i))
                    queued.add((k, i))
        return True

    def _matchable(self, domains: list[list[Candidate]]) -> bool:
        """Whether the subtasks can take distinct ids from their domains (augmenting paths)."""
        owner: dict[int, int] = {}
        for start in range(self.n):
            seen: set[int] = set()
            # an iterative augmenting-path search: (subtask, index of the next candidate to try)
            path: list[tuple[int, int]] = [(start, 0)]
            found = False
            while path and not found:
                subtask, at = path[-1]
                if at >= len(domains[subtask]):
                    path.pop()
                    continue
                path[-1] = (subtask, at + 1)
                ident = domains[subtask][at].ident
                if ident in seen:
                    continue
                seen.add(ident)
                holder = owner.get(ident)
                if holder is None:
                    # flip the path: each subtask on it takes the id it was trying
                    for s, k in path:
                        owner[domains[s][k - 1].ident] = s
                    found = True
                else:
                    path.append((holder, 0))
            if not found:
                return False
        return True

    def _search(self, domains: list[list[Candidate]], chosen: dict[int, Candidate], binding: Binding
                ) -> Iterator[tuple[list[Candidate], Binding]]:
        if len(chosen) == self.n:
            yield [chosen[i] for i in range(self.n)], binding
            return
        subtask = min((i for i in range(self.n) if i not in chosen), key=lambda i: len(domains[i]))
        for candidate in domains[subtask]:
            self.choices += 1
            if self.choices > self.limit:
                raise SearchTooLong
            joined = _agree(binding, candidate.binding)
            if joined is None or not self.holds(joined):
                continue
            narrowed = list(domains)
            narrowed[subtask] = [candidate]
            if not all(self._narrow(narrowed, subtask, candidate, other) for other in range(self.n)
                       if other not in chosen and other != subtask):  # distinct ids for all, the rest for neighbours
                continue
            if not self._matchable(narrowed):
                continue
            chosen[subtask] = candidate
            yield from self._search(narrowed, chosen, joined)
            del chosen[subtask]

    def _narrow(self, domains: list[list[Candidate]], subtask: int, candidate: Candidate, other: int) -> bool:
        domains[other] = [y for y in domains[other] if self.compatible(subtask, candidate, other, y)]
        return bool(domains[other])
