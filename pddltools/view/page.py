"""One self-contained HTML page for one validated plan: the verdict at the top, a Gantt chart for a
temporal plan, the numeric fluents over the plan (shown or hidden by checkboxes, in CSS alone: the
page has no script and fetches nothing), and a table of what every step or happening changed."""

from __future__ import annotations

from html import escape

from pddltools.score.svg import colour
from pddltools.validate.report import PlanReport, decimal, exact
from pddltools.validate.trace import Change, Trace
from pddltools.view.charts import fluent_plot, fluent_series, gantt

_STYLE = """
body { font-family: sans-serif; margin: 1.5em 2em; color: #222; }
#verdict { padding: 0.8em 1.2em; border-radius: 6px; margin-bottom: 1.5em; }
#verdict.valid { background: #e6f4e6; border-left: 8px solid #2ca02c; }
#verdict.invalid, #verdict.error { background: #fbe9e9; border-left: 8px solid #d62728; }
#verdict h1 { font-size: 1.3em; margin: 0 0 0.3em 0; }
#verdict p { margin: 0.2em 0; }
#verdict ul { margin: 0.3em 0; }
.note { color: #666; font-size: 90%; }
table { border-collapse: collapse; margin: 1em 0; font-size: 90%; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.add { color: #17692a; } td.del { color: #a61b1b; }
tr.failed td { background: #fbe9e9; }
fieldset { border: 1px solid #ddd; display: inline-block; }
label { margin-right: 1em; white-space: nowrap; }
.swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; }
code { font-size: 95%; }
"""


def render_page(report: PlanReport, trace: Trace, title: str) -> str:
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title>"]
    temporal = any(s.time is not None for s in trace.steps)
    series = fluent_series(trace)
    style = _STYLE + "".join(f"body:has(#show-s{i}:not(:checked)) #fluents .s{i} {{ display: none; }}\n"
                             for i in range(len(series)))
    parts += [f"<style>{style}</style></head><body>", _verdict(report, title)]
    if temporal and trace.steps:
        parts += ["<h2>Actions</h2>", f"<figure>{gantt(trace, report.failed_step)}</figure>"]
        failed = trace.failed_at
        if not report.valid and (report.failed_step or failed is not None):
            stopped = failed is not None and failed.time is not None
            where = f"; the dashed line: {failed.where}, where validation stopped" if failed and stopped else ""
            parts.append(f'<p class="note">In red: the step at fault{escape(where)}.</p>')
    if series:
        parts += ["<h2>Numeric fluents</h2>", '<fieldset id="fluent-choice"><legend>show</legend>']
        for i, name in enumerate(series):
            parts.append(f'<label><input type="checkbox" id="show-s{i}" checked> '
                         f'<span class="swatch" style="background:{colour(i)}"></span>{escape(name)}</label>')
        parts += ["</fieldset>",
                  f"<figure>{fluent_plot(series, trace, 'time' if temporal else 'step')}</figure>"]
    if trace.changes or trace.failed_at is not None:  # a file that is no plan has no steps to show
        parts += ["<h2>Steps</h2>" if not temporal else "<h2>Happenings</h2>", _table(trace)]
    parts.append("</body></html>")
    return "\n".join(parts)


def _verdict(r: PlanReport, title: str) -> str:
    if r.valid:
        extra = f", makespan {decimal(r.makespan)}" if r.makespan is not None else ""
        text = f"valid, value {decimal(r.value or 0)} (length {r.length}{extra})"
    else:
        where = f" at step {r.failed_step} (line {r.line})" if r.failed_step else ""
        text = f"{'invalid' if r.verdict == 'invalid' else 'not a plan for this task'}{where} ({r.reason})"
    parts = [f'<header id="verdict" class="{r.verdict}" data-verdict="{r.verdict}">',
             f"<h1>{escape(title)}</h1>", f'<p><b id="verdict-text">{escape(text)}</b></p>']
    if not r.valid and not r.diagnostics:
        parts.append(f'<p id="reason">{escape(r.message)}</p>')
    for heading, items in (("unsatisfied", r.unsatisfied), ("advice", r.advice)):
        if items:
            parts.append(f'<ul class="{heading}">' + "".join(f"<li>{heading}: <code>{escape(i)}</code></li>"
                                                          for i in items) + "</ul>")
    for d in r.diagnostics:
        where = f"line {d.span.line}, column {d.span.column}: " if d.span else ""
        parts.append(f'<p class="diagnostic" id="reason">{escape(where + d.message)}</p>')
    if r.tolerance is not None:
        parts.append(f'<p class="note">durations judged within a tolerance of {escape(exact(r.tolerance))}</p>')
    parts.append("</header>")
    return "".join(parts)


def _table(trace: Trace) -> str:
    rows = ['<table id="steps"><tr><th>where</th><th>what happens</th><th>adds</th><th>deletes</th>'
            "<th>fluents</th><th>derived</th></tr>"]
    rows += [_row(c) for c in trace.changes]
    failed = trace.failed_at
    if failed is not None:
        rows.append(f'<tr class="failed"><td>{escape(failed.where)}</td><td>{escape("; ".join(failed.events))}</td>'
                    '<td colspan="4">the plan fails here (see the verdict above)</td></tr>')
    rows.append("</table>")
    return "".join(rows)


def _row(c: Change) -> str:
    fluents = [f.show("\u2192") for f in c.fluents]
    derived = [f"+ {a}" for a in c.derived_added] + [f"\u2212 {a}" for a in c.derived_deleted]
    return (f"<tr><td>{escape(c.where)}</td><td>{_lines(c.events)}</td><td class=\"add\">{_lines(c.added)}</td>"
            f"<td class=\"del\">{_lines(c.deleted)}</td><td>{_lines(fluents)}</td><td>{_lines(derived)}</td></tr>")


def _lines(items: tuple[str, ...] | list[str]) -> str:
    return "<br>".join(escape(i) for i in items)

