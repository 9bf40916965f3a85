"""`pddltools view` pages in headless Chromium: a temporal, a numeric and a failing plan render offline,
every Gantt bar is drawn at its step's start and as wide as its duration, the fluent checkboxes hide
and show their series, and the verdict is at the top. Skipped when Chromium or Playwright is absent.

Set PDDLTOOLS_SCREENSHOTS to a folder to keep the screenshots for looking at."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pddltools.cli import main

OWN = Path(__file__).resolve().parents[2] / "corpus" / "plans"


@pytest.fixture(scope="module")
def browser(chromium: str | None) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    path = chromium
    if path is None and not os.environ.get("PLAYWRIGHT_BROWSERS_PATH"):
        pytest.skip("no Chromium installed (apt-get install chromium-headless-shell)")
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


def open_page(browser: Any, tmp_path: Path, area: str, plan: str) -> Any:
    out = tmp_path / f"{area}-{plan}.html"
    main(["view", str(OWN / area / "domain.pddl"), str(OWN / area / "problem.pddl"), str(OWN / area / plan),
          "-o", str(out)])
    page = browser.new_page(viewport={"width": 1100, "height": 800})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(out.as_uri())
    assert requests == [out.as_uri()]  # offline: the page asks for nothing else
    shots = os.environ.get("PDDLTOOLS_SCREENSHOTS")
    png = page.screenshot(full_page=True, path=str(Path(shots) / f"{area}-{plan}.png") if shots else None)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    return page


def box(element: Any) -> dict[str, float]:
    found = element.bounding_box()
    assert found is not None
    return dict(found)


def test_temporal_plan_bars_at_start_with_duration(browser: Any, tmp_path: Path) -> None:
    page = open_page(browser, tmp_path, "temporal", "concurrent.plan")
    assert page.inner_text("#verdict-text").startswith("valid, value 15.5")
    verdict, gantt = box(page.query_selector("#verdict")), page.query_selector("svg#gantt")
    chart = box(gantt)
    assert verdict["y"] < chart["y"]  # the verdict is at the top
    origin, scale = float(gantt.get_attribute("data-origin")), float(gantt.get_attribute("data-scale"))
    bars = page.query_selector_all("svg#gantt rect.bar")
    assert len(bars) == 3
    for bar, (start, duration) in zip(bars, [(0, 5), (0, 10), (12.5, 3)], strict=True):
        drawn = box(bar)
        assert drawn["x"] - chart["x"] == pytest.approx(origin + start * scale, abs=0.6)
        assert drawn["width"] == pytest.approx(duration * scale, abs=0.6)
    # the second bar (10 long) is twice the first (5 long), and the third starts after both end
    first, second, third = (box(b) for b in bars)
    assert second["width"] == pytest.approx(2 * first["width"], abs=0.6)
    assert third["x"] > second["x"] + second["width"]
    assert page.query_selector_all("svg#gantt line.failure") == []
    assert len(page.query_selector_all("table#steps tr")) == 1 + 7


def test_numeric_plan_series_selectable(browser: Any, tmp_path: Path) -> None:
    page = open_page(browser, tmp_path, "numeric", "valid.plan")
    series = page.query_selector_all("svg#fluents polyline.series")
    assert [s.get_attribute("data-fluent") for s in series] == ["(level a)", "(level b)", "(pumped)"]
    assert all(s.is_visible() for s in series)
    page.click("#show-s1")  # hide (level b)
    assert [s.is_visible() for s in series] == [True, False, True]
    page.click("#show-s1")
    assert series[1].is_visible()
    assert page.query_selector("svg#gantt") is None
    assert len(page.query_selector_all("table#steps tr")) == 1 + 4


def test_failing_plan_marks_step_and_happening(browser: Any, tmp_path: Path) -> None:
    page = open_page(browser, tmp_path, "temporal", "invariant.plan")
    assert page.get_attribute("#verdict", "data-verdict") == "invalid"
    assert "invalid at step 1" in page.inner_text("#verdict-text")
    assert "over-all condition is broken at time 2" in page.inner_text("#reason")
    gantt = page.query_selector("svg#gantt")
    chart = box(gantt)
    origin, scale = float(gantt.get_attribute("data-origin")), float(gantt.get_attribute("data-scale"))
    failed = page.query_selector_all("svg#gantt rect.bar.failed")
    assert [f.get_attribute("data-step") for f in failed] == ["1"]
    mark = box(page.query_selector("svg#gantt line.failure"))
    assert mark["x"] + mark["width"] / 2 - chart["x"] == pytest.approx(origin + 2 * scale, abs=1.0)
    assert page.inner_text("table#steps tr.failed").startswith("time 2")
