"""One self-contained HTML report: tables and inline SVG plots, no scripts and nothing fetched.

The order is what an organiser reads first: the unexplained errors, the limits, the scores, then the
outcomes, the plots and every instance."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from html import escape

from pddltools.score.rules import LearningImpact, Scores, entrant_names
from pddltools.score.store import STATUSES, Run
from pddltools.score.svg import bar_chart, step_chart
from pddltools.score.tables import Cell, errors_table, instances_table, limits_table, num, table
from pddltools.wording import count

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; }
th { background: #f0f0f0; }
.name { text-align: left; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.crash, .invalid-plan { background: #fde0dc; }
.unjudged { background: #fff3cd; }
.solved { color: #1a7f37; }
.wide { overflow-x: auto; }
figure { margin: 1.5em 0; }
.note { color: #666; font-size: 90%; }
nav a { margin-right: 1em; }
"""

_SECTIONS = (("errors-section", "Unexplained errors"), ("limits-section", "Limits"), ("scores-section", "Scores"),
             ("outcomes-section", "Outcomes"), ("plots", "Plots"), ("instances-section", "Every instance"))


def _num(value: float) -> str:
    return f"{value:.2f}"


def _heading(anchor: str, text: str) -> str:
    return f'<h2 id="{anchor}">{escape(text)}</h2>'


def render_html(runs: Sequence[Run], scores: Scores, impact: LearningImpact | None = None,
                title: str = "Planner results") -> str:
    entrants = [e.name for e in scores.entrants]
    domains = list(scores.domains)
    names = entrant_names(runs)
    problems = Counter(domain for domain, _ in {(r.domain, r.problem_path) for r in runs})
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>", f"<style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">Rules: <b>{escape(scores.rules)}</b>. {count(len(runs), "run")}, '
        f'{count(len(entrants), "planner")}, {count(len(domains), "domain")}, '
        f'{count(len(scores.ignored), "problem")} solved by no planner (ignored).</p>',
        "<nav>" + "".join(f'<a href="#{a}">{escape(t)}</a>' for a, t in _SECTIONS) + "</nav>",
        _heading("errors-section", "Unexplained errors"),
        '<p class="note">Crashes and invalid plans: runs that neither found a valid plan, nor reported none, '
        "nor reached a limit.</p>",
        errors_table(runs, names),
        _heading("limits-section", "Limits"), limits_table(runs, names),
        _heading("scores-section", "Scores"),
        table("scores", [num("rank"), Cell("planner"), num("total"), num("solved")],
              [[num(str(e.rank)), Cell(e.name + (" (disqualified)" if e.disqualified else "")), num(_num(e.total)),
                num(str(e.solved))] for e in scores.entrants]),
        # Domains as rows, not columns: forty IPC-2008 names side by side make a table no one can read.
        "<h3>Score per domain</h3>",
        table("domain-scores", [Cell("domain"), num("problems"), *(num(e) for e in entrants)],
              [[Cell(d), num(str(problems[d])), *(num(_num(e.domains.get(d, 0.0))) for e in scores.entrants)]
               for d in domains]),
    ]
    if scores.penalties:
        parts.append("<h3>Non-optimal plans (the domain scores 0)</h3><ul>")
        for p in scores.penalties:
            parts.append(f"<li>{escape(p.entrant)}, {escape(p.domain)}: {escape(p.problem)} costs {p.cost:g}, "
                         f"{escape(p.best_by)} found {p.best:g}</li>")
        parts.append("</ul>")
    if scores.voided:
        parts.append("<h3>Invalid plans (the planner solves nothing in that domain)</h3><ul>")
        for v in scores.voided:
            parts.append(f"<li>{escape(v.entrant)}, {escape(v.domain)}: {escape(v.problem)}: {escape(v.reason)}</li>")
        parts.append("</ul>")
    disqualified = [e.name for e in scores.entrants if e.disqualified]
    if disqualified:
        parts.append(f'<p class="note" id="disqualified">Disqualified (invalid plans in more than one domain): '
                     f'{escape(", ".join(disqualified))}.</p>')
    statuses: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for run in runs:
        statuses[names[run.planner, run.config]][run.status] += 1
    parts.append(_heading("outcomes-section", "Outcomes"))
    parts.append(table("outcomes", [Cell("planner"), *(num(s) for s in STATUSES)],
                       [[Cell(name), *(num(str(statuses[name].get(s, 0))) for s in STATUSES)] for name in entrants]))
    if impact is not None:
        parts.append(f"<h2>Learning impact ({escape(impact.rules)})</h2>")
        if impact.sequential_winner:
            parts.append(f'<p class="note">Sequential winner: {escape(impact.sequential_winner)}, score '
                         f"{_num(impact.sequential_winner_score or 0.0)}.</p>")
        header = [Cell("planner"), num("baseline"), num("with knowledge"), num("delta"), num("Pareto rank"),
                  Cell("special award")]
        rows = [[Cell(i.planner), num(_num(i.baseline)), num(_num(i.dck)), num(f"{i.delta:+.2f}"),
                 num(str(i.pareto_rank)),
                 Cell("" if i.special_award is None else ("yes" if i.special_award else "no"))]
                for i in impact.planners]
        parts.append(table("impact", header, rows))
    parts.append(_heading("plots", "Plots"))
    parts.extend(_plots(runs, scores, names))
    parts.append(_heading("instances-section", "Every instance"))
    parts.append(instances_table(runs, names, entrants))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _plots(runs: Sequence[Run], scores: Scores, names: dict[tuple[str, str], str]) -> list[str]:
    entrants = [e.name for e in scores.entrants]
    domains = list(scores.domains)
    coverage = {(d, e.name): float(e.solved_by_domain.get(d, 0)) for e in scores.entrants for d in domains}
    per_domain = {(d, e.name): e.domains.get(d, 0.0) for e in scores.entrants for d in domains}
    times: dict[str, list[float]] = defaultdict(list)
    for run in runs:
        if run.status == "solved":
            times[names[run.planner, run.config]].append(max(run.wall, 0.01))
    cumulative = {name: sorted(times.get(name, [])) for name in entrants}
    return [
        "<figure>" + bar_chart("Coverage per domain", domains, entrants, coverage, "problems solved", counts=True)
        + "</figure>",
        "<figure>" + bar_chart(f"Score per domain ({scores.rules})", domains, entrants, per_domain, "score")
        + "</figure>",
        "<figure>" + step_chart("Problems solved within a time", cumulative, "time (s, log scale)", "problems solved")
        + "</figure>",
    ]
