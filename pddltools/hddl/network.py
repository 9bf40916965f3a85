"""The order a task network imposes on its subtasks: which ids its :ordering names, whether it has a
cycle, and whether it is total (each pair of subtasks ordered, what the total-order HTN tracks ask)."""

from __future__ import annotations

from dataclasses import dataclass

from pddltools.hddl import ast


@dataclass(frozen=True)
class Order:
    """The order of one network's subtasks, by position in `subtasks`."""

    network: ast.TaskNetwork
    before: dict[int, set[int]]  # position -> the positions it must precede (directly)

    @classmethod
    def of(cls, network: ast.TaskNetwork) -> Order:
        count = len(network.subtasks)
        before: dict[int, set[int]] = {i: set() for i in range(count)}
        if network.ordered:
            for i in range(count - 1):
                before[i].add(i + 1)
        position = positions(network)
        for constraint in network.ordering:
            first, then = position.get(constraint.before), position.get(constraint.after)
            if first is not None and then is not None:
                before[first].add(then)
        return cls(network, before)

    def cycle(self) -> list[int] | None:
        """Positions on a cycle of the ordering (first repeated at the end), or None when acyclic."""
        state: dict[int, int] = {}  # 1 on the current path, 2 done
        for root in self.before:
            if root in state:
                continue
            path: list[int] = [root]
            pending = [iter(sorted(self.before[root]))]
            state[root] = 1
            while pending:
                step = next(pending[-1], None)
                if step is None:
                    state[path.pop()] = 2
                    pending.pop()
                elif state.get(step) == 1:
                    return [*path[path.index(step):], step]
                elif step not in state:
                    state[step] = 1
                    path.append(step)
                    pending.append(iter(sorted(self.before[step])))
        return None

    def unordered_pair(self) -> tuple[int, int] | None:
        """Two subtasks the network leaves unordered (neither must precede the other), or None when the
        order is total."""
        reach = {i: self._below(i) for i in self.before}
        for i in self.before:
            for j in self.before:
                if i < j and j not in reach[i] and i not in reach[j]:
                    return i, j
        return None

    def _below(self, start: int) -> set[int]:
        seen: set[int] = set()
        stack = list(self.before[start])
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(self.before[node])
        return seen


def positions(network: ast.TaskNetwork) -> dict[str, int]:
    """Each subtask id's position (the first, where an id is repeated)."""
    found: dict[str, int] = {}
    for index, subtask in enumerate(network.subtasks):
        if subtask.id is not None:
            found.setdefault(subtask.id, index)
    return found


def label(network: ast.TaskNetwork, position: int) -> str:
    """How a message names a subtask: its id, else the task and its place."""
    subtask = network.subtasks[position]
    return subtask.id if subtask.id is not None else f"({subtask.task} ...) (subtask {position + 1})"
