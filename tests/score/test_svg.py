"""The charts' layout without a browser: nice axes, label widths and wrapping, and room for every label."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET

import pytest

from pddltools.score.svg import bar_chart, nice_axis, step_chart
from pddltools.score.textsize import text_width, wrap
from pddltools.wording import count

NS = "{http://www.w3.org/2000/svg}"
LONGEST_IPC2008 = "openstacks-net-benefit-optimal-strips-negative-preconditions"


@pytest.mark.parametrize(("highest", "counts", "ticks"), [
    (3, True, [0, 1, 2, 3]),  # coverage of 3 problems: not an axis to 4
    (2, True, [0, 1, 2]),
    (1, True, [0, 1]),
    (0, True, [0, 1]),
    (3.0, False, [0, 1, 2, 3]),  # a best score of 3: not to 5 in steps of 1.25
    (2.7, False, [0, 1, 2, 3]),
    (4.5, False, [0, 1, 2, 3, 4, 5]),
    (0.3, False, [0, 0.1, 0.2, 0.3]),
    (1.0, False, [0, 0.2, 0.4, 0.6, 0.8, 1.0]),
    (17, True, [0, 5, 10, 15, 20]),
    (30, True, [0, 10, 20, 30]),
    (123, True, [0, 50, 100, 150]),
])
def test_nice_axis(highest: float, counts: bool, ticks: list[float]) -> None:
    axis = nice_axis(highest, counts)
    assert axis.ticks == pytest.approx(ticks)
    assert axis.top >= highest
    mantissa = axis.step / 10 ** math.floor(math.log10(axis.step) + 1e-9)
    assert round(mantissa, 9) in (1, 2, 5)


def test_tick_labels_have_the_step_s_decimals() -> None:
    assert [nice_axis(3, True).label(t) for t in nice_axis(3, True).ticks] == ["0", "1", "2", "3"]
    axis = nice_axis(0.3)
    assert [axis.label(t) for t in axis.ticks] == ["0.0", "0.1", "0.2", "0.3"]  # not 0.30000000000000004


def test_text_width_grows_with_the_text_and_the_font() -> None:
    assert text_width("", 11) == 0
    assert text_width("mmm", 11) > text_width("iii", 11) * 2
    assert text_width("abc", 22) == pytest.approx(2 * text_width("abc", 11))
    # DejaVu Sans, the widest usual sans-serif, sets IPC-2008's longest name in about 330 px at 11 px.
    assert 300 < text_width(LONGEST_IPC2008, 11) < 380


def test_wrap_breaks_after_hyphens_and_keeps_every_character() -> None:
    lines = wrap(LONGEST_IPC2008, 11, 200)
    assert "".join(lines) == LONGEST_IPC2008
    assert len(lines) == 2 and all(line.endswith("-") for line in lines[:-1])
    assert all(text_width(line, 11) <= 200 for line in lines)
    assert wrap("short", 11, 200) == ["short"]
    assert wrap("", 11, 200) == [""]
    # One part wider than the line: cut inside it, nothing lost.
    long = "x" * 80
    assert "".join(wrap(long, 11, 100)) == long and all(text_width(x, 11) <= 100 for x in wrap(long, 11, 100))


def test_count() -> None:
    assert count(1, "domain") == "1 domain" and count(2, "domain") == "2 domains"
    assert count(0, "problem") == "0 problems" and count(1, "is", "are") == "1 is" and count(3, "is", "are") == "3 are"


def _svg(text: str) -> ET.Element:
    return ET.fromstring(text)


def test_bar_chart_sizes_its_label_column_to_the_longest_name() -> None:
    groups = ["gripper", LONGEST_IPC2008, "cyber-security-sequential-satisficing-strips"]
    values = {(g, s): float(i) for i, g in enumerate(groups) for s in ("A", "B")}
    svg = _svg(bar_chart("Coverage", groups, ["A", "B"], values, "problems solved", counts=True))
    labels = [t for t in svg.iter(NS + "text") if t.get("class") == "group"]
    assert [t.get("data-name") for t in labels] == groups
    assert ["".join(s.text or "" for s in t) for t in labels] == groups  # whole, if over several lines
    bars = [r for r in svg.iter(NS + "rect") if r.get("class") == "bar"]
    plot_left = min(float(r.get("x", "0")) for r in bars)
    for t in labels:  # right-aligned at the column's edge, and the column holds the widest line
        for span in t:
            right = float(span.get("x", "0"))
            assert right < plot_left and right - text_width(span.text or "", 11) >= 0
    # The SVG is wide enough for the plot, the values past the bars and the legend.
    legend = [t for t in svg.iter(NS + "text") if t.get("class") == "legend"]
    width = float(svg.get("width", "0"))
    assert all(float(t.get("x", "0")) + text_width(t.text or "", 11) <= width for t in legend)


def test_bar_chart_axis_ends_at_the_data() -> None:
    values = {("d", "A"): 3.0, ("d", "B"): 2.0}
    svg = bar_chart("Score", ["d"], ["A", "B"], values, "score")
    ticks = re.findall(r'text-anchor="middle">([\d.]+)</text>', svg)
    assert sorted(set(ticks), key=float) == ["0", "1", "2", "3"]
    bars = {r.find(NS + "title").text: float(r.get("width", "0"))  # type: ignore[union-attr]
            for r in _svg(svg).iter(NS + "rect") if r.get("class") == "bar"}
    assert bars["d / A: 3.00"] == pytest.approx(1.5 * bars["d / B: 2.00"])


def test_step_chart_counts_in_whole_steps_and_makes_room_for_long_names() -> None:
    name = "a-planner-with-a-rather-long-name (dck)"
    svg = step_chart("Solved", {name: [0.5, 2.0, 7.0], "B": [1.0]}, "time", "problems solved")
    tree = _svg(svg)
    assert re.findall(r'text-anchor="end">(\d+)</text>', svg) == ["0", "1", "2", "3"]
    legend = [t for t in tree.iter(NS + "text") if t.get("class") == "legend"]
    assert float(legend[0].get("x", "0")) + text_width(name, 11) <= float(tree.get("width", "0"))


def test_many_planners_get_thinner_bars_and_no_overlapping_values() -> None:
    series = [f"planner-{i}" for i in range(10)]
    groups = [f"domain-{i}" for i in range(40)]
    values = {(g, s): 1.0 for g in groups for s in series}
    svg = _svg(bar_chart("Coverage", groups, series, values, "problems solved", counts=True))
    assert float(svg.get("height", "0")) < 40 * 70  # 5 px bars: 60 px a domain, not 110
    assert not [t for t in svg.iter(NS + "text") if t.get("font-size") == "9"]


def test_step_chart_keeps_wide_count_ticks_clear_of_the_axis_label() -> None:
    svg = _svg(step_chart("Solved", {"A": [0.1 * (i + 1) for i in range(1234)]}, "time", "problems solved"))
    ticks = [t for t in svg.iter(NS + "text") if t.get("text-anchor") == "end"]
    assert ticks[-1].text == "1500"
    # The rotated axis label is centred at x=16, 11 px high: the ticks' left ends stay right of it.
    assert all(float(t.get("x", "0")) - text_width(t.text or "", 10) >= 22 for t in ticks)
