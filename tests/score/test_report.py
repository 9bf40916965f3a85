"""The HTML report: self-contained (no script, nothing fetched), three plots, and it renders in Chromium."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pddltools.score.report import render_html
from pddltools.score.rules import learning_impact, score
from pddltools.score.store import Run


def run(planner: str, domain: str, problem: str, status: str, wall: float, length: int = 3,
        config: str = "baseline") -> Run:
    return Run(planner=planner, track="t", config=config, domain=domain, domain_path=f"/x/{domain}/domain.pddl",
               domain_hash="", problem_path=f"/x/{domain}/{problem}.pddl", problem_hash="", status=status, wall=wall,
               cpu=wall, peak_memory=0, length=length)


RUNS = [
    run("A", "gripper", "p1", "solved", 0.5), run("B", "gripper", "p1", "solved", 3.0, 5),
    run("A", "gripper", "p2", "timeout", 900), run("B", "gripper", "p2", "solved", 40.0),
    run("A", "blocks <&>", "p1", "solved", 12.0), run("B", "blocks <&>", "p1", "memout", 30.0),
]


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs


def html_report() -> str:
    return render_html(RUNS, score(RUNS, "ipc2011-quality"), title="Test <report>")


def test_structure_is_self_contained() -> None:
    html = html_report()
    parser = _Collect()
    parser.feed(html)
    assert "script" not in parser.tags and "link" not in parser.tags and "img" not in parser.tags
    # Nothing fetched: no URL other than the SVG namespace.
    urls = re.findall(r"(?:https?:)?//[^\s\"'<>]+", html)
    assert set(urls) == {"http://www.w3.org/2000/svg"}
    assert parser.tags.count("svg") == 3
    assert "Test &lt;report&gt;" in html and "blocks &lt;&amp;&gt;" in html
    # Every SVG is well-formed XML with the bars and lines it should have.
    svgs = re.findall(r"<svg.*?</svg>", html, re.S)
    trees = [ET.fromstring(s) for s in svgs]
    ns = "{http://www.w3.org/2000/svg}"
    coverage_bars = [r for r in trees[0].iter(ns + "rect") if r.get("class") == "bar"]
    assert len(coverage_bars) == 4  # two domains x two planners
    lengths = {r.find(ns + "title").text: float(r.get("width", "0")) for r in coverage_bars}  # type: ignore[union-attr]
    # gripper: A solved 1, B solved 2 -> B's bar (horizontal) twice as long as A's.
    assert lengths["gripper / B: 2"] == pytest.approx(2 * lengths["gripper / A: 1"])
    assert len([p for p in trees[2].iter(ns + "polyline")]) == 2


def test_learning_impact_table() -> None:
    runs = [*RUNS, *(run("A", r.domain, r.problem, r.status, r.wall / 2, config="dck") for r in RUNS
                     if r.planner == "A")]
    html = render_html(runs, score(runs, "ipc2011-time"), learning_impact(runs, "ipc2011-time"))
    assert '<table id="impact">' in html and "A</td>" in html


def test_renders_in_headless_chromium(tmp_path: Path, chromium: str | None) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    browser_path = chromium
    if browser_path is None and not os.environ.get("PLAYWRIGHT_BROWSERS_PATH"):
        pytest.skip("no Chromium installed (apt-get install chromium-headless-shell)")
    page_file = tmp_path / "report.html"
    page_file.write_text(html_report(), encoding="utf-8")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            requests: list[str] = []
            page.on("request", lambda r: requests.append(r.url))
            page.goto(page_file.as_uri())
            assert requests == [page_file.as_uri()]  # offline: the page asks for nothing else
            assert page.title() == "Test <report>"
            boxes = [svg.bounding_box() for svg in page.query_selector_all("svg")]
            assert len(boxes) == 3 and all(b is not None and b["width"] > 300 and b["height"] > 120 for b in boxes)
            bars = page.query_selector_all("svg rect.bar")
            tall = [b for b in bars if (b.bounding_box() or {"height": 0})["height"] > 1]
            assert len(tall) >= 3
            assert len(page.query_selector_all("table#scores tr")) == 3
            png = page.screenshot(full_page=True)
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
        finally:
            browser.close()
