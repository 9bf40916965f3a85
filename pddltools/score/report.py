"""One self-contained HTML report: tables and inline SVG plots, no scripts and nothing fetched."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from html import escape

from pddltools.score.rules import LearningImpact, Scores, entrant_names
from pddltools.score.store import Run
from pddltools.score.svg import bar_chart, step_chart

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
figure { margin: 1.5em 0; }
.note { color: #666; font-size: 90%; }
"""


def _num(value: float) -> str:
    return f"{value:.2f}"


def render_html(runs: Sequence[Run], scores: Scores, impact: LearningImpact | None = None,
                title: str = "Planner results") -> str:
    entrants = [e.name for e in scores.entrants]
    domains = list(scores.domains)
    names = entrant_names(runs)
    coverage = {(d, e.name): float(e.solved_by_domain.get(d, 0)) for e in scores.entrants for d in domains}
    per_domain = {(d, e.name): e.domains.get(d, 0.0) for e in scores.entrants for d in domains}
    times: dict[str, list[float]] = defaultdict(list)
    for run in runs:
        if run.status == "solved":
            times[names[run.planner, run.config]].append(max(run.wall, 0.01))
    cumulative = {name: sorted(times.get(name, [])) for name in entrants}
    statuses: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for run in runs:
        statuses[names[run.planner, run.config]][run.status] += 1
    status_names = ("solved", "unsolved", "timeout", "memout", "crash", "invalid-plan")

    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title>", f"<style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="note">Rules: <b>{escape(scores.rules)}</b>. {len(runs)} runs, {len(domains)} domains, '
        f"{len(scores.ignored)} problems solved by no planner (ignored).</p>",
        "<h2>Scores</h2>", '<table id="scores"><tr><th>rank</th><th>planner</th><th>total</th><th>solved</th>'
        + "".join(f"<th>{escape(d)}</th>" for d in domains) + "</tr>",
    ]
    for e in scores.entrants:
        parts.append(f"<tr><td>{e.rank}</td><td>{escape(e.name)}</td><td>{_num(e.total)}</td><td>{e.solved}</td>"
                     + "".join(f"<td>{_num(e.domains.get(d, 0.0))}</td>" for d in domains) + "</tr>")
    parts.append("</table>")
    if scores.penalties:
        parts.append("<h3>Non-optimal plans (the domain scores 0)</h3><ul>")
        for p in scores.penalties:
            parts.append(f"<li>{escape(p.entrant)}, {escape(p.domain)}: {escape(p.problem)} costs {p.cost:g}, "
                         f"{escape(p.best_by)} found {p.best:g}</li>")
        parts.append("</ul>")
    parts.append('<h2>Outcomes</h2><table id="outcomes"><tr><th>planner</th>'
                 + "".join(f"<th>{s}</th>" for s in status_names) + "</tr>")
    for name in entrants:
        parts.append(f"<tr><td>{escape(name)}</td>"
                     + "".join(f"<td>{statuses[name].get(s, 0)}</td>" for s in status_names) + "</tr>")
    parts.append("</table>")
    if impact is not None:
        parts.append(f"<h2>Learning impact ({escape(impact.rules)})</h2>")
        if impact.sequential_winner:
            parts.append(f'<p class="note">Sequential winner: {escape(impact.sequential_winner)}, score '
                         f"{_num(impact.sequential_winner_score or 0.0)}.</p>")
        parts.append('<table id="impact"><tr><th>planner</th><th>baseline</th><th>with knowledge</th>'
                     "<th>delta</th><th>Pareto rank</th><th>special award</th></tr>")
        for i in impact.planners:
            award = "" if i.special_award is None else ("yes" if i.special_award else "no")
            parts.append(f"<tr><td>{escape(i.planner)}</td><td>{_num(i.baseline)}</td><td>{_num(i.dck)}</td>"
                         f"<td>{i.delta:+.2f}</td><td>{i.pareto_rank}</td><td>{award}</td></tr>")
        parts.append("</table>")
    parts.append("<h2>Plots</h2>")
    parts.append("<figure>" + bar_chart("Coverage per domain", domains, entrants, coverage, "problems solved",
                                           counts=True)
                 + "</figure>")
    parts.append("<figure>" + bar_chart(f"Score per domain ({scores.rules})", domains, entrants, per_domain, "score")
                 + "</figure>")
    parts.append("<figure>" + step_chart("Problems solved within a time", cumulative, "time (s, log scale)",
                                         "problems solved") + "</figure>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
