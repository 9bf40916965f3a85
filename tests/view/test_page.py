"""`pddltools view`: the page is self-contained, its Gantt bars sit at each step's start with its duration,
the fluent plot has one series per changed fluent, the verdict is at the top, and no file is replaced
without --force."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pddltools.cli import main
from pddltools.validate import GroundedTask, validate_plan
from pddltools.validate.trace import Trace
from pddltools.view.page import render_page

OWN = Path(__file__).resolve().parents[2] / "corpus" / "plans"
SVG = "{http://www.w3.org/2000/svg}"


def page(area: str, plan: str) -> str:
    task = GroundedTask.load(OWN / area / "domain.pddl", OWN / area / "problem.pddl")
    trace = Trace(task)
    report = validate_plan(task, Path(OWN / area / plan), recorder=trace)
    return render_page(report, trace, f"{area}/{plan}")


def svg(html: str, ident: str) -> ET.Element:
    found = re.search(rf'<svg[^>]*id="{ident}".*?</svg>', html, re.S)
    assert found, ident
    return ET.fromstring(found.group(0))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


@pytest.mark.parametrize(("area", "plan"), [("temporal", "concurrent.plan"), ("numeric", "valid.plan"),
                                            ("temporal", "invariant.plan")])
def test_self_contained(area: str, plan: str) -> None:
    html = page(area, plan)
    parser = _Tags()
    parser.feed(html)
    assert not {"script", "link", "img", "iframe"} & set(parser.tags)
    assert set(re.findall(r"(?:https?:)?//[^\s\"'<>]+", html)) <= {"http://www.w3.org/2000/svg"}


def test_gantt_bar_per_step_at_its_start_with_its_duration() -> None:
    tree = svg(page("temporal", "concurrent.plan"), "gantt")
    origin, scale = float(tree.get("data-origin", "")), float(tree.get("data-scale", ""))
    bars = [r for r in tree.iter(SVG + "rect") if "bar" in (r.get("class") or "").split()]
    # the plan: (process a m1) 0 [5], (process b m2) 0 [10], (inspect a) 12.5 [3]
    assert [(r.get("data-step"), r.get("data-start"), r.get("data-duration")) for r in bars] == [
        ("1", "0.0", "5.0"), ("2", "0.0", "10.0"), ("3", "12.5", "3.0")]
    for bar, (start, duration) in zip(bars, [(0, 5), (0, 10), (12.5, 3)], strict=True):
        assert float(bar.get("x", "")) == pytest.approx(origin + start * scale, abs=0.01)
        assert float(bar.get("width", "")) == pytest.approx(duration * scale, abs=0.01)
    assert not list(tree.iter(SVG + "line")) or not any(
        line.get("class") == "failure" for line in tree.iter(SVG + "line"))


def test_failing_plan_marks_its_step_and_happening() -> None:
    html = page("temporal", "invariant.plan")
    assert 'id="verdict" class="invalid"' in html and "its over-all condition is broken at time 2" in html
    tree = svg(html, "gantt")
    failed = [r for r in tree.iter(SVG + "rect") if r.get("class") == "bar failed"]
    assert [r.get("data-step") for r in failed] == ["1"]
    marks = [line for line in tree.iter(SVG + "line") if line.get("class") == "failure"]
    assert len(marks) == 1 and marks[0].get("data-time") == "2.0"
    origin, scale = float(tree.get("data-origin", "")), float(tree.get("data-scale", ""))
    assert float(marks[0].get("x1", "")) == pytest.approx(origin + 2 * scale, abs=0.01)
    assert '<tr class="failed"><td>time 2</td>' in html


def test_numeric_plan_plots_each_changed_fluent_with_a_checkbox() -> None:
    html = page("numeric", "valid.plan")
    assert 'id="gantt"' not in html  # a sequential plan has no timeline of actions
    tree = svg(html, "fluents")
    series = {p.get("data-fluent"): p.get("points", "").split() for p in tree.iter(SVG + "polyline")}
    assert set(series) == {"(level a)", "(level b)", "(pumped)"}
    for i in range(3):
        assert f'<input type="checkbox" id="show-s{i}" checked>' in html
        assert f"body:has(#show-s{i}:not(:checked)) #fluents .s{i}" in html
    # (level b): 0, then 1, 2, 4, 2 after steps 1-4: a step line with one rise or fall per change
    ys = [float(point.split(",")[1]) for point in series["(level b)"]]
    distinct = list(dict.fromkeys(ys))
    assert len(distinct) == 4 and distinct[0] > distinct[1] > distinct[2] > distinct[3]
    assert html.count("<tr><td>step ") == 4


def test_cli_writes_the_page_and_refuses_to_replace_a_file(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    area = OWN / "temporal"
    out = tmp_path / "plan.html"
    args = ["view", str(area / "domain.pddl"), str(area / "problem.pddl"), str(area / "invariant.plan"), "-o", str(out)]
    assert main(args) == 1  # the plan is invalid; the page is written all the same
    first = out.read_text(encoding="utf-8")
    assert "its over-all condition is broken" in first
    out.write_text("mine", encoding="utf-8")
    assert main(args) == 2
    assert out.read_text(encoding="utf-8") == "mine"
    assert "exists; give --force" in capsys.readouterr().err
    assert main([*args, "--force"]) == 1
    assert out.read_text(encoding="utf-8") == first


def test_cli_bad_task_is_a_located_diagnostic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "domain.pddl"
    broken.write_text("(define (domain d) (:action a :parameters (?x) :effect (p ?x))\n", encoding="utf-8")
    area = OWN / "temporal"
    code = main(["view", str(broken), str(area / "problem.pddl"), str(area / "concurrent.plan"),
                 "-o", str(tmp_path / "x.html")])
    err = capsys.readouterr().err
    assert code == 1 and "domain.pddl:" in err and "^" in err  # an undeclared predicate: a finding
    assert not (tmp_path / "x.html").exists()


def test_a_file_that_is_no_plan_shows_its_located_fault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.plan"
    bad.write_text("(pour a b\n", encoding="utf-8")
    area = OWN / "numeric"
    out = tmp_path / "bad.html"
    code = main(["view", str(area / "domain.pddl"), str(area / "problem.pddl"), str(bad), "-o", str(out),
                 "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["output"] == str(out) and data["files"][2]["reason"] == "syntax"
    html = out.read_text(encoding="utf-8")
    assert 'data-verdict="error"' in html and "not a plan for this task" in html
    assert "line 1, column 1: this step&#x27;s &#x27;(&#x27; is never closed" in html
    assert 'id="steps"' not in html and 'id="gantt"' not in html
