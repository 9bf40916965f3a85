"""The report's HTML tables, all built one way so that they read alike: names (planner, domain,
problem, status, reason) left-aligned, numbers right-aligned, in every table.

Besides the scores, the tables an organiser reads first: the unexplained errors (crashes and invalid
plans, with the reason: downward lab's report puts them first), the limits the runs were held to, and
every instance with each planner's status, time, plan cost and plan verdict.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from pddltools.score.limits import MB
from pddltools.score.rules import quality
from pddltools.score.store import Run
from pddltools.wording import count, natural

# a limit, or "no plan found", explains every other status; `unjudged`: the validator could not judge the plan
UNEXPLAINED = ("crash", "invalid-plan", "unjudged")


@dataclass(frozen=True)
class Cell:
    text: str
    numeric: bool = False
    css: str = ""  # an extra class, e.g. the status, for colour

    def html(self, tag: str = "td") -> str:
        classes = " ".join(c for c in ("num" if self.numeric else "name", self.css) if c)
        return f'<{tag} class="{classes}">{escape(self.text)}</{tag}>'


def num(text: str) -> Cell:
    return Cell(text, numeric=True)


def table(table_id: str, header: Sequence[Cell], rows: Iterable[Sequence[Cell]]) -> str:
    head = "<tr>" + "".join(c.html("th") for c in header) + "</tr>"
    body = "".join("<tr>" + "".join(c.html() for c in row) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead>{head}</thead><tbody>{body}</tbody></table>'


def _instance_key(run: Run) -> tuple[object, ...]:
    return natural(run.domain), natural(run.problem), run.problem_path


def errors_table(runs: Sequence[Run], names: dict[tuple[str, str], str]) -> str:
    """Crashes, invalid plans and plans the validator cannot judge, one row each with its reason; a
    sentence when there are none."""
    bad = sorted((r for r in runs if r.status in UNEXPLAINED), key=lambda r: (*_instance_key(r), r.planner))
    if not bad:
        return ('<p class="note" id="no-errors">None: every run found a valid plan, found none, or reached a '
                "limit.</p>")
    header = [Cell("domain"), Cell("problem"), Cell("planner"), Cell("status"), num("time (s)"), Cell("reason")]
    rows = [[Cell(r.domain), Cell(r.problem), Cell(names[r.planner, r.config]), Cell(r.status, css=r.status),
             num(f"{r.wall:.2f}"), Cell(r.reason or "no reason recorded")] for r in bad]
    return table("errors", header, rows)


def _limit(value: float | None, unit: float = 1.0) -> str:
    return "not recorded" if value is None else f"{value / unit:g}"


def limits_table(runs: Sequence[Run], names: dict[tuple[str, str], str]) -> str:
    """Each set of limits the runs had, with how many runs and which planners it held."""
    Limits = tuple[float | None, float | None, int | None, int | None, int | None]
    groups: dict[Limits, list[Run]] = defaultdict(list)
    for r in runs:
        groups[r.wall_limit, r.cpu_limit, r.memory_limit, r.plan_limit, r.disk_limit].append(r)
    header = [num("wall (s)"), num("CPU (s)"), num("memory (MB)"), num("plan file (MB)"), num("run folder (MB)"),
              num("runs"), Cell("planners")]
    rows = [[num(_limit(wall)), num(_limit(cpu)), num(_limit(memory, MB)), num(_limit(plan, MB)),
             num(_limit(disk, MB)), num(str(len(group))),
             Cell(", ".join(sorted({names[r.planner, r.config] for r in group})))]
            for (wall, cpu, memory, plan, disk), group in groups.items()]
    note = ""
    if any(key[0] is None for key in groups):
        note = ('<p class="note">"not recorded": the runs came from a JSON-lines file or were stored by an '
                "older pddltools, which did not keep the limits.</p>")
    return table("limits", header, rows) + note


def _verdict(run: Run) -> str:
    if run.status == "invalid-plan":
        return "invalid"
    if run.status == "unjudged":
        return "cannot judge"
    if run.status != "solved":
        return ""
    return "valid" if run.value is not None else "not validated"


def instances_table(runs: Sequence[Run], names: dict[tuple[str, str], str], entrants: Sequence[str]) -> str:
    """One row per problem: each entrant's status, time, plan cost and the verdict on its plan."""
    by_instance: dict[tuple[str, str], dict[str, Run]] = defaultdict(dict)
    keys: dict[tuple[str, str], tuple[object, ...]] = {}
    for r in runs:
        by_instance[r.domain, r.problem_path][names[r.planner, r.config]] = r
        keys[r.domain, r.problem_path] = _instance_key(r)
    fields = ("status", "time (s)", "cost", "plan")
    top = ('<tr><th class="name" rowspan="2">domain</th><th class="name" rowspan="2">problem</th>'
           + "".join(f'<th class="name entrant" colspan="{len(fields)}">{escape(e)}</th>' for e in entrants) + "</tr>")
    sub = "<tr>" + "".join(Cell(f, numeric=f in ("time (s)", "cost")).html("th") for _ in entrants for f in fields)
    rows = []
    for instance in sorted(by_instance, key=keys.__getitem__):
        cells = [Cell(instance[0]), Cell(next(iter(by_instance[instance].values())).problem)]
        for entrant in entrants:
            run = by_instance[instance].get(entrant)
            if run is None:
                cells += [Cell("not run"), num(""), num(""), Cell("")]
                continue
            cost = f"{quality(run):g}" if run.status == "solved" else ""
            cells += [Cell(run.status, css=run.status), num(f"{run.wall:.2f}"), num(cost), Cell(_verdict(run))]
        rows.append("<tr>" + "".join(c.html() for c in cells) + "</tr>")
    return (f'<div class="wide"><table id="instances"><thead>{top}{sub}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div>'
            f'<p class="note">{count(len(rows), "problem")}. cost: the validated plan\'s metric value (its '
            "length when the problem has none); plan: the validator's verdict on the plan.</p>")
