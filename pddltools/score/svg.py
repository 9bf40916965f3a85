"""Small inline SVG charts for the HTML report: grouped bars and step lines. No scripts, no fonts
fetched: the SVG is text inside the page, so the report opens offline.

Every label's width is estimated (`textsize`) and the chart is laid out around it: bar charts run
horizontally, with their group names in a column as wide as the longest name (long names wrap at
their hyphens), so that IPC-2008's `cyber-security-sequential-satisficing-strips` is never cut off.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from pddltools.score.textsize import BOLD, text_width, wrap

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")

TITLE_SIZE, LABEL_SIZE, TICK_SIZE = 13, 11, 10
MAX_LABEL_WIDTH = 320  # px; a longer group name wraps onto more lines
LINE_HEIGHT = 13


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


@dataclass(frozen=True)
class Axis:
    """A value axis from 0 to `top` in steps of `step` (1, 2 or 5 times a power of ten)."""

    step: float
    intervals: int

    @property
    def top(self) -> float:
        return self.step * self.intervals

    @property
    def ticks(self) -> list[float]:
        return [self.step * i for i in range(self.intervals + 1)]

    def label(self, value: float) -> str:
        decimals = max(0, -math.floor(math.log10(self.step) + 1e-9))
        return f"{value:.{decimals}f}"


def nice_axis(highest: float, counts: bool = False, most: int = 5) -> Axis:
    """The axis that ends at the first tick at or above `highest`, with the smallest step of 1, 2 or 5
    times a power of ten that needs at most `most` intervals; whole steps for `counts`. So 3 problems
    solved gives 0-1-2-3, and a best score of 3 the same, not an axis to 5 in steps of 1.25."""
    highest = highest if highest > 0 else 1.0
    exponent = math.floor(math.log10(highest / most))
    while True:
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0 ** exponent
            if counts and step < 1:
                continue
            intervals = max(1, math.ceil(highest / step - 1e-9))  # 0.3 / 0.1 is 2.9999999999999996
            if intervals <= most:
                return Axis(step, intervals)
        exponent += 1


def _text(x: float, y: float, text: str, size: int, anchor: str = "start", extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>'
            f"{escape(text)}</text>")


def _legend(names: Sequence[str], x: float, y: float) -> list[str]:
    parts = []
    for i, name in enumerate(names):
        yy = y + i * 16
        parts.append(f'<rect x="{x}" y="{yy - 9}" width="10" height="10" fill="{colour(i)}"/>'
                     + _text(x + 14, yy, name, LABEL_SIZE, extra=' class="legend"'))
    return parts


def _legend_width(names: Sequence[str]) -> float:
    return 14 + max((text_width(n, LABEL_SIZE) for n in names), default=0.0)


def _open(title: str, width: float, height: float) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{math.ceil(width)}" height="{math.ceil(height)}" '
            f'role="img" aria-label="{escape(title)}" font-family="sans-serif">',
            f"<title>{escape(title)}</title>",
            _text(10, 18, title, TITLE_SIZE, extra=' font-weight="bold"')]


def bar_chart(title: str, groups: Sequence[str], series: Sequence[str],
              values: Mapping[tuple[str, str], float], x_label: str, counts: bool = False) -> str:
    """One row of bars per `groups` item, one bar per `series` item; `values[(group, series)]`.

    Horizontal, so that the chart grows downwards with the number of groups and stays as wide as its
    longest group name, whatever the number of domains."""
    # Thinner bars for many planners, so that forty domains of ten planners stay a page or two long.
    bar, gap, plot_w = max(5, min(10, 40 // max(1, len(series)))), 10, 480
    labels = {g: wrap(g, LABEL_SIZE, MAX_LABEL_WIDTH) for g in groups}
    label_w = max((text_width(line, LABEL_SIZE) for lines in labels.values() for line in lines), default=0.0)
    axis = nice_axis(max(values.values(), default=0.0), counts)
    value_w = text_width(axis.label(axis.top) + ".00", TICK_SIZE)  # a value printed past its bar's end
    left = 10 + label_w + 8
    rows = [max(len(series) * bar, len(labels[g]) * LINE_HEIGHT) + gap for g in groups]
    plot_h = max(sum(rows), 2 * LINE_HEIGHT)
    top = 48 if plot_h > 300 else 30  # the title, and the scale again above a tall chart
    legend_x = left + plot_w + value_w + 20
    width = max(legend_x + _legend_width(series) + 10, 10 + text_width(title, TITLE_SIZE, BOLD) + 10)
    height = max(top + plot_h + 40, top + 16 * len(series) + 10)
    parts = _open(title, width, height)

    def px(value: float) -> float:
        return left + plot_w * value / axis.top

    for value in axis.ticks:
        x = px(value)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#ddd"/>')
        if plot_h > 300:  # a tall chart repeats its scale above, where the reader starts
            parts.append(_text(x, top - 5, axis.label(value), TICK_SIZE, "middle"))
        parts.append(_text(x, top + plot_h + 13, axis.label(value), TICK_SIZE, "middle"))
    parts.append(_text(left + plot_w / 2, top + plot_h + 30, x_label, LABEL_SIZE, "middle"))
    y = float(top)
    for group, row in zip(groups, rows, strict=True):
        block = len(series) * bar
        y0 = y + (row - block) / 2
        for s, name in enumerate(series):
            value = values.get((group, name), 0.0)
            shown = axis.label(value) if counts else f"{value:.2f}"
            yy = y0 + s * bar
            parts.append(f'<rect class="bar" x="{left:.1f}" y="{yy:.1f}" width="{px(value) - left:.1f}" '
                         f'height="{bar - 1}" fill="{colour(s)}"><title>{escape(group)} / {escape(name)}: '
                         f"{shown}</title></rect>")
            if value > 0 and bar >= 9:  # a value's digits would overlap the next bar's on thinner bars
                parts.append(_text(px(value) + 3, yy + bar - 2, shown, 9, extra=' fill="#555"'))
        lines = labels[group]
        first = y + row / 2 - (len(lines) - 1) * LINE_HEIGHT / 2 + 4
        tspans = "".join(f'<tspan x="{left - 8:.1f}" y="{first + i * LINE_HEIGHT:.1f}">{escape(line)}</tspan>'
                         for i, line in enumerate(lines))
        parts.append(f'<text class="group" font-size="{LABEL_SIZE}" text-anchor="end" '
                     f'data-name="{escape(group)}">{tspans}</text>')
        y += row
    parts.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#333"/>')
    parts.extend(_legend(series, legend_x, top + 10))
    parts.append("</svg>")
    return "".join(parts)


def step_chart(title: str, series: Mapping[str, Sequence[float]], x_label: str, y_label: str) -> str:
    """Cumulative count over a log-scaled x axis: for each series, the sorted x values at which the count
    goes up by one (e.g. the times at which each problem was solved)."""
    top, plot_w, plot_h = 30, 480, 230
    xs = [x for values in series.values() for x in values]
    x_min = max(min(xs, default=0.1), 0.01)
    x_max = max(max(xs, default=1.0), x_min * 10)
    lo, hi = math.floor(math.log10(x_min)), math.ceil(math.log10(x_max))
    axis = nice_axis(max((len(v) for v in series.values()), default=0), counts=True)
    left = 24 + text_width(axis.label(axis.top), TICK_SIZE) + 8  # the rotated axis label, then the ticks
    width = max(left + plot_w + 20 + _legend_width(list(series)) + 10, 10 + text_width(title, TITLE_SIZE, BOLD) + 10)
    height = top + plot_h + 50

    def px(x: float) -> float:
        return left + plot_w * (math.log10(max(x, 10 ** lo)) - lo) / max(hi - lo, 1)

    def py(y: float) -> float:
        return top + plot_h - plot_h * y / axis.top

    parts = _open(title, width, height)
    for e in range(lo, hi + 1):
        x = px(10.0 ** e)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#ddd"/>'
                     + _text(x, top + plot_h + 14, f"{10.0 ** e:g}", TICK_SIZE, "middle"))
    for value in axis.ticks:
        y = py(value)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#eee"/>'
                     + _text(left - 4, y + 4, axis.label(value), TICK_SIZE, "end"))
    for i, (name, values) in enumerate(series.items()):
        points = [(px(10.0 ** lo), py(0))]
        for n, x in enumerate(sorted(values), start=1):
            points.append((px(x), py(n - 1)))
            points.append((px(x), py(n)))
        points.append((left + plot_w, points[-1][1]))
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline class="line" points="{path}" fill="none" stroke="{colour(i)}" stroke-width="2">'
                     f"<title>{escape(name)}: {len(values)} solved</title></polyline>")
    parts.append(_text(left + plot_w / 2, height - 6, x_label, LABEL_SIZE, "middle"))
    mid = top + plot_h / 2
    parts.append(_text(16, mid, y_label, LABEL_SIZE, "middle", f' transform="rotate(-90 16 {mid})"'))
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    parts.extend(_legend(list(series), left + plot_w + 20, top + 10))
    parts.append("</svg>")
    return "".join(parts)
