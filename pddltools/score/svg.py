"""Small inline SVG charts for the HTML report: grouped bars and step lines. No scripts, no fonts
fetched: the SVG is text inside the page, so the report opens offline."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")


def colour(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


def _nice_max(value: float) -> float:
    if value <= 0:
        return 1.0
    magnitude = 10.0 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * magnitude:
            return float(step * magnitude)
    return 10.0 * magnitude


def _count_max(value: float) -> float:
    """A top for an axis of counts: a multiple of 4, so that the four tick steps are whole numbers."""
    return float(max(4, math.ceil(value / 4) * 4))


def _fmt(value: float) -> str:
    return f"{value:.0f}" if value == int(value) else f"{value:.2f}".rstrip("0").rstrip(".")


def _legend(names: Sequence[str], x: float, y: float) -> list[str]:
    parts = []
    for i, name in enumerate(names):
        yy = y + i * 16
        parts.append(f'<rect x="{x}" y="{yy - 9}" width="10" height="10" fill="{colour(i)}"/>'
                     f'<text x="{x + 14}" y="{yy}" font-size="11">{escape(name)}</text>')
    return parts


def bar_chart(title: str, groups: Sequence[str], series: Sequence[str],
              values: Mapping[tuple[str, str], float], y_label: str, counts: bool = False) -> str:
    """One group of bars per `groups` item, one bar per `series` item; `values[(group, series)]`."""
    bar = 14
    gap = 18
    # Few groups are spread over a plot at least 300 px wide rather than huddled at its left.
    group_width = max(max(1, len(series)) * bar + gap, 300 / max(1, len(groups)))
    left, top, bottom = 50, 30, 110
    width = left + max(1, len(groups)) * group_width + 20
    legend_x = width
    width += 20 + 8 * max((len(s) for s in series), default=4) + 20
    height = 260 + bottom
    plot_h = 260 - top
    highest = max(values.values(), default=0.0)
    top_value = _count_max(highest) if counts else _nice_max(highest)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}" font-family="sans-serif">',
             f'<title>{escape(title)}</title>',
             f'<text x="{left}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>']
    for k in range(5):
        value = top_value * k / 4
        y = top + plot_h - plot_h * k / 4
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{legend_x}" y2="{y:.1f}" stroke="#ddd"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">{_fmt(value)}</text>')
    parts.append(f'<text x="12" y="{top + plot_h / 2}" font-size="11" transform="rotate(-90 12 {top + plot_h / 2})" '
                 f'text-anchor="middle">{escape(y_label)}</text>')
    for g, group in enumerate(groups):
        x0 = left + g * group_width + (group_width - len(series) * bar) / 2
        for s, name in enumerate(series):
            value = values.get((group, name), 0.0)
            h = plot_h * value / top_value
            x = x0 + s * bar
            parts.append(f'<rect class="bar" x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar - 1}" height="{h:.1f}" '
                         f'fill="{colour(s)}"><title>{escape(group)} / {escape(name)}: {_fmt(value)}</title></rect>')
        cx = x0 + len(series) * bar / 2 + 4
        parts.append(f'<text x="{cx:.1f}" y="{top + plot_h + 12}" font-size="10" text-anchor="end" '
                     f'transform="rotate(-40 {cx:.1f} {top + plot_h + 12})">{escape(group)}</text>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{legend_x}" y2="{top + plot_h}" stroke="#333"/>')
    parts.extend(_legend(series, legend_x + 20, top + 10))
    parts.append("</svg>")
    return "".join(parts)


def step_chart(title: str, series: Mapping[str, Sequence[float]], x_label: str, y_label: str) -> str:
    """Cumulative count over a log-scaled x axis: for each series, the sorted x values at which the count
    goes up by one (e.g. the times at which each problem was solved)."""
    left, top, plot_w, plot_h = 50, 30, 480, 230
    xs = [x for values in series.values() for x in values]
    x_min = max(min(xs, default=0.1), 0.01)
    x_max = max(max(xs, default=1.0), x_min * 10)
    lo, hi = math.floor(math.log10(x_min)), math.ceil(math.log10(x_max))
    y_top = _count_max(max((len(v) for v in series.values()), default=1))
    width = left + plot_w + 40 + 8 * max((len(s) for s in series), default=4) + 20
    height = top + plot_h + 50

    def px(x: float) -> float:
        return left + plot_w * (math.log10(max(x, 10 ** lo)) - lo) / max(hi - lo, 1)

    def py(y: float) -> float:
        return top + plot_h - plot_h * y / y_top

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{escape(title)}" font-family="sans-serif">',
             f'<title>{escape(title)}</title>',
             f'<text x="{left}" y="18" font-size="13" font-weight="bold">{escape(title)}</text>']
    for e in range(lo, hi + 1):
        x = px(10.0 ** e)
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#ddd"/>'
                     f'<text x="{x:.1f}" y="{top + plot_h + 14}" font-size="10" text-anchor="middle">'
                     f'{_fmt(10.0 ** e)}</text>')
    for k in range(5):
        y = py(y_top * k / 4)
        parts.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#eee"/>'
                     f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end">'
                     f'{_fmt(y_top * k / 4)}</text>')
    for i, (name, values) in enumerate(series.items()):
        points = [(px(10.0 ** lo), py(0))]
        for n, x in enumerate(sorted(values), start=1):
            points.append((px(x), py(n - 1)))
            points.append((px(x), py(n)))
        points.append((left + plot_w, points[-1][1]))
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        parts.append(f'<polyline class="line" points="{path}" fill="none" stroke="{colour(i)}" stroke-width="2">'
                     f'<title>{escape(name)}: {len(values)} solved</title></polyline>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{height - 6}" font-size="11" text-anchor="middle">'
                 f'{escape(x_label)}</text>')
    parts.append(f'<text x="12" y="{top + plot_h / 2}" font-size="11" transform="rotate(-90 12 {top + plot_h / 2})" '
                 f'text-anchor="middle">{escape(y_label)}</text>')
    parts.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333"/>')
    parts.extend(_legend(list(series), left + plot_w + 20, top + 10))
    parts.append("</svg>")
    return "".join(parts)
