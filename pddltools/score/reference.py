"""Reference costs: the best known (or optimal) cost of each problem, or its cost bound, read from a
`--reference` file.

Every IPC since 2011 scores plan quality against a reference cost C* that the organisers establish
beforehand (domain-specific solvers, long runs of many planners), not against the best plan of the
entrants alone; the optimal track checks optimality against proven optimal costs; the IPC-2018
bounded-cost track gives each problem a bound. The file holds one problem a line:

    PROBLEM<TAB>COST

PROBLEM is the problem file's path, relative to the reference file's folder (or absolute); `#` starts a
comment; a first line whose cost column says `cost`, `bound` or `reference` is a header. A run is
matched by its problem file's path, else by the longest end of that path that names one referenced
problem alone (`blocksworld/testing/easy/p01.pddl`, `blocksworld/p01.pddl`, `p01.pddl`), so a table
written elsewhere (the IPC-2023 learning benchmarks' upper bounds, keyed from the repository's root)
still applies.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pddltools.diagnostics import Error, Source, Span, error
from pddltools.reading import read_input_text

_HEADERS = {"cost", "bound", "reference", "c*"}


@dataclass(frozen=True)
class References:
    """Reference costs by problem, and where they came from."""

    costs: dict[str, float]  # the resolved problem path -> its cost
    source: str = ""
    # every end of every referenced path (its last 1, 2, ... parts) -> the referenced paths ending so
    _by_tail: dict[tuple[str, ...], list[str]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, costs: dict[str, float], source: str = "") -> References:
        by_tail: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for key in costs:
            parts = Path(key).parts
            for size in range(1, len(parts)):
                by_tail[parts[-size:]].append(key)
        return cls(dict(costs), source, dict(by_tail))

    def __len__(self) -> int:
        return len(self.costs)

    def get(self, problem_path: str) -> float | None:
        """The reference cost of the problem stored at `problem_path`, or None when the file has none."""
        if problem_path in self.costs:
            return self.costs[problem_path]
        parts = Path(problem_path).parts
        for size in range(len(parts) - 1, 0, -1):
            candidates = self._by_tail.get(parts[-size:])
            if candidates:
                return self.costs[candidates[0]] if len(candidates) == 1 else None
        return None


def load_references(path: str | Path) -> References:
    """The reference costs in `path`; a malformed line is an error pointing at it (S045)."""
    file = Path(path)
    text = read_input_text(file, f"the reference costs {file}", code="S045")
    return parse_references(text, str(file), file.parent)


def parse_references(text: str, name: str, base: Path) -> References:
    source = Source(text, name)
    costs: dict[str, float] = {}
    offset = 0
    first = True
    for line in text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        content = line.split("#", 1)[0].rstrip()
        if not content.strip():
            continue
        span = Span(source, start, start + len(line.rstrip("\r\n")))
        fields = content.rsplit(None, 1)
        if len(fields) != 2:
            raise Error([error("S045", "expected PROBLEM<TAB>COST: a problem file and its reference cost", span)])
        problem, value = fields[0].strip(), fields[1]
        if first and value.lower() in _HEADERS:
            first = False
            continue
        first = False
        try:
            cost = float(value)
        except ValueError:
            cost = math.nan
        if not math.isfinite(cost) or cost < 0:
            column = len(content) - len(value)
            raise Error([error("S045", f"the cost {value!r} is not a number of at least 0",
                               Span(source, start + column, start + column + len(value)))])
        key = str((base / problem).resolve())
        if key in costs and costs[key] != cost:
            raise Error([error("S045", f"{problem} is given twice, with costs {costs[key]:g} and {cost:g}", span)])
        costs[key] = cost
    return References.of(costs, name)


__all__ = ["References", "load_references", "parse_references"]
