"""The two pictures of a plan, as inline SVG: a Gantt chart of a temporal plan's actions and the values
of its numeric fluents over the plan. Both read a validator's `Trace`; positions are linear in time so
a test (or a reader with a ruler) can get a bar's start and duration back from its x and width."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape

from pddltools.score import svg
from pddltools.score.svg import colour
from pddltools.validate.report import double, exact
from pddltools.validate.trace import PlanStep, Trace

LABELS = 320  # room for the action names left of the bars (and the fluent plot's axis, to line up)
PLOT_W = 640
ROW = 22
TOP = 14


@dataclass(frozen=True, slots=True)
class Axis:
    """Time (or step number) to x: x = origin + value * scale."""

    origin: float
    scale: float
    ticks: svg.Axis

    @property
    def end(self) -> float:
        return self.ticks.top

    def x(self, value: float) -> float:
        return self.origin + value * self.scale


def time_axis(end: float, origin: float = LABELS) -> Axis:
    ticks = svg.nice_axis(end)
    return Axis(origin, PLOT_W / ticks.top, ticks)


def _ticks(axis: Axis, y0: float, y1: float) -> list[str]:
    parts = []
    for value in axis.ticks.ticks:
        x, label = axis.x(value), axis.ticks.label(value)
        parts.append(f'<line x1="{x:.2f}" y1="{y0}" x2="{x:.2f}" y2="{y1}" stroke="#e4e4e4"/>'
                     f'<text x="{x:.2f}" y="{y1 + 14}" font-size="10" text-anchor="middle">{label}</text>')
    return parts


#: the largest magnitude a chart draws: a value past it (a fluent scaled up past 1e308, a step at 1e309)
#: is drawn at the edge, and its exact value stays in the tooltip and the table
CHART_LIMIT = 1e300


def _coord(value: int | Fraction) -> float:
    """A time or value as a chart coordinate: the nearest double, clamped to ±CHART_LIMIT, so that
    the axis arithmetic never overflows to an infinity (or a traceback)."""
    return max(-CHART_LIMIT, min(CHART_LIMIT, double(value)))


def plan_end(trace: Trace) -> float:
    """The last time (or step number) anything in the trace happens: the right end of both charts."""
    if not any(s.time is not None for s in trace.steps):
        return float(max(len(trace.steps), 1))
    times = [_coord(s.time + (s.duration or 0)) for s in trace.steps if s.time is not None]
    times += [_coord(c.time) for c in trace.changes if c.time is not None]
    failed = trace.failed_at
    if failed is not None and failed.time is not None:
        times.append(_coord(failed.time))
    return max(times, default=1.0)


def gantt(trace: Trace, failed_step: int | None) -> str:
    """One row per durative step: a bar from its start, as wide as its duration. The failing step's
    bar is red, and the happening where validation stopped is a dashed red line."""
    steps = [s for s in trace.steps if s.time is not None]
    failed = trace.failed_at
    axis = time_axis(plan_end(trace))
    height = TOP + ROW * len(steps) + 30
    width = LABELS + PLOT_W + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="gantt" width="{width}" height="{height}" role="img" '
             f'aria-label="Gantt chart" font-family="sans-serif" data-origin="{axis.origin}" '
             f'data-scale="{axis.scale!r}">', "<title>Actions over time</title>"]
    parts.extend(_ticks(axis, TOP - 4, TOP + ROW * len(steps)))
    for row, step in enumerate(steps):
        parts.append(_bar(step, row, axis, step.index == failed_step))
    if failed is not None and failed.time is not None:
        x = axis.x(_coord(failed.time))
        parts.append(f'<line class="failure" x1="{x:.2f}" y1="{TOP - 8}" x2="{x:.2f}" y2="{TOP + ROW * len(steps)}" '
                     f'stroke="#c00" stroke-width="2" stroke-dasharray="5 3" data-time="{_coord(failed.time)!r}">'
                     f'<title>validation stopped at time {escape(exact(failed.time))}: '
                     f'{escape("; ".join(failed.events))}</title></line>')
    parts.append("</svg>")
    return "".join(parts)


def _bar(step: PlanStep, row: int, axis: Axis, failing: bool) -> str:
    assert step.time is not None
    y = TOP + row * ROW
    start, duration = _coord(step.time), _coord(step.duration or 0)
    # an instantaneous step is a thin mark at its time rather than an invisible bar
    width = max(duration * axis.scale, 2.0)
    fill = "#d62728" if failing else colour(0)
    label = f"{step.index}. {step.text}"
    what = f"{escape(label)}: start {escape(exact(step.time))}" + (
        f", duration {escape(exact(step.duration))}" if step.duration is not None else "")
    return (f'<text x="{LABELS - 6}" y="{y + 14}" font-size="11" text-anchor="end">{escape(_clip(label))}</text>'
            f'<rect class="bar{" failed" if failing else ""}" x="{axis.x(start):.2f}" y="{y + 3}" '
            f'width="{width:.2f}" height="{ROW - 6}" rx="2" fill="{fill}" data-step="{step.index}" '
            f'data-start="{start!r}" data-duration="{duration!r}"><title>{what}</title></rect>')


def _clip(text: str, most: int = 52) -> str:
    return text if len(text) <= most else text[:most - 1] + "\u2026"


def fluent_series(trace: Trace) -> dict[str, list[tuple[float, float]]]:
    """Each numeric fluent that the plan changes: (time or step number, value) from the initial state
    on, one point per change."""
    temporal = any(s.time is not None for s in trace.steps)
    series: dict[str, list[tuple[float, float]]] = {}
    for change in trace.changes:
        x = _coord(change.time if temporal and change.time is not None else (change.step or 0))
        for f in change.fluents:
            if isinstance(f.after, str):
                continue
            if f.fluent not in series:
                start = trace.initial_values.get(f.fluent)
                series[f.fluent] = [(0.0, _coord(start))] if isinstance(start, int | Fraction) else []
            series[f.fluent].append((x, _coord(f.after)))
    return series


def fluent_plot(series: dict[str, list[tuple[float, float]]], trace: Trace, x_label: str) -> str:
    """Step lines, one per fluent (a value holds until the next change, and the last one to the end of
    the plan, or to where it failed); `data-fluent` names each, and the page's checkboxes show or hide
    them by that index."""
    # a temporal plan's plot shares the Gantt chart's axis, so that a time is at the same x in both
    temporal = any(s.time is not None for s in trace.steps)
    axis = time_axis(plan_end(trace), LABELS if temporal else 60)
    left = axis.origin
    failed = trace.failed_at
    end = plan_end(trace) if failed is None else _coord(
        failed.time if failed.time is not None else (failed.step or 1) - 1)
    plot_h = 260
    values = [v for points in series.values() for _, v in points]
    low, high = min(values, default=0.0), max(values, default=1.0)
    low = min(low, 0.0)
    span = high - low if high > low else 1.0
    values_axis = svg.nice_axis(span)
    top_value = low + values_axis.top

    def y(value: float) -> float:
        return TOP + plot_h - plot_h * (value - low) / (top_value - low)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" id="fluents" width="{left + PLOT_W + 20}" '
             f'height="{TOP + plot_h + 40}" role="img" aria-label="numeric fluents" font-family="sans-serif" '
             f'data-origin="{axis.origin}" data-scale="{axis.scale!r}">', "<title>Numeric fluents</title>"]
    parts.extend(_ticks(axis, TOP, TOP + plot_h))
    for tick in values_axis.ticks:  # steps of 1, 2 or 5 times a power of ten, as the score charts have
        value = low + tick
        parts.append(f'<text x="{left - 6}" y="{y(value) + 4:.1f}" font-size="10" text-anchor="end">{value:g}</text>'
                     f'<line x1="{left}" y1="{y(value):.1f}" x2="{left + PLOT_W}" y2="{y(value):.1f}" '
                     'stroke="#f0f0f0"/>')
    for i, (name, points) in enumerate(series.items()):
        path = _steps(points, axis, y, end)
        parts.append(f'<polyline class="series s{i}" data-fluent="{escape(name)}" points="{path}" fill="none" '
                     f'stroke="{colour(i)}" stroke-width="2"><title>{escape(name)}</title></polyline>')
    if failed is not None:
        x = axis.x(end)
        parts.append(f'<line class="failure" x1="{x:.2f}" y1="{TOP}" x2="{x:.2f}" y2="{TOP + plot_h}" stroke="#c00" '
                     f'stroke-width="2" stroke-dasharray="5 3"><title>the plan fails at {escape(failed.where)}'
                     '</title></line>')
    parts.append(f'<text x="{left + PLOT_W / 2}" y="{TOP + plot_h + 32}" font-size="11" text-anchor="middle">'
                 f'{escape(x_label)}</text></svg>')
    return "".join(parts)


def _steps(points: Sequence[tuple[float, float]], axis: Axis, y: Callable[[float], float], end: float) -> str:
    if points and points[-1][0] < end:  # the last value holds to the end of the plan
        points = [*points, (end, points[-1][1])]
    out: list[str] = []
    for k, (x, v) in enumerate(points):
        if k:
            out.append(f"{axis.x(x):.2f},{y(points[k - 1][1]):.2f}")
        out.append(f"{axis.x(x):.2f},{y(v):.2f}")
    return " ".join(out)
