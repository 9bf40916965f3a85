"""The report of a real run (the runner, its limits, the validator, the store) over problems in folders
named after every IPC-2008 domain, read back from the HTML and measured in headless Chromium at a
1,400 px window: every domain name whole inside its chart, the errors, limits and per-instance tables
with the right rows, the planner column aligned alike in every table."""

from __future__ import annotations

import json
import re
import subprocess
import textwrap
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from pddltools.cli import main
from pddltools.score.store import Store

# The domain folders of IPC-2008 (the competition's own names, as in ../shared/corpus/pddl/ipc-2008).
IPC2008 = (
    "crew-planning-net-benefit-optimal-numeric-fluents", "crew-planning-temporal-satisficing-strips",
    "cyber-security-sequential-satisficing-strips", "elevator-net-benefit-optimal-numeric-fluents",
    "elevator-net-benefit-optimal-strips", "elevator-sequential-optimal-strips",
    "elevator-sequential-satisficing-strips", "elevator-temporal-satisficing-numeric-fluents",
    "elevator-temporal-satisficing-strips", "model-train-temporal-satisficing-numeric-fluents",
    "openstacks-net-benefit-optimal-adl", "openstacks-net-benefit-optimal-adl-numeric-fluents",
    "openstacks-net-benefit-optimal-strips-negative-preconditions", "openstacks-sequential-optimal-adl",
    "openstacks-sequential-optimal-strips", "openstacks-sequential-satisficing-adl",
    "openstacks-sequential-satisficing-strips", "openstacks-temporal-satisficing-adl",
    "openstacks-temporal-satisficing-adl-numeric-fluents", "openstacks-temporal-satisficing-numeric-fluents",
    "openstacks-temporal-satisficing-strips", "parc-printer-sequential-optimal-strips",
    "parc-printer-sequential-satisficing-strips", "parc-printer-temporal-satisficing-strips",
    "peg-solitaire-net-benefit-optimal-strips", "peg-solitaire-sequential-optimal-strips",
    "peg-solitaire-sequential-satisficing-strips", "peg-solitaire-temporal-satisficing-strips",
    "scanalyzer-3d-sequential-optimal-strips", "scanalyzer-3d-sequential-satisficing-strips",
    "sokoban-sequential-optimal-strips", "sokoban-sequential-satisficing-strips",
    "sokoban-temporal-satisficing-strips", "transport-net-benefit-optimal-numeric-fluents",
    "transport-sequential-optimal-strips", "transport-sequential-satisficing-strips",
    "transport-temporal-satisficing-numeric-fluents", "woodworking-net-benefit-optimal-numeric-fluents",
    "woodworking-sequential-optimal-strips", "woodworking-sequential-satisficing-strips",
    "woodworking-temporal-satisficing-numeric-fluents",
)

DOMAIN = """(define (domain line)
  (:requirements :strips)
  (:predicates (at ?x) (next ?x ?y))
  (:action move :parameters (?from ?to) :precondition (and (at ?from) (next ?from ?to))
   :effect (and (at ?to) (not (at ?from))))
  (:action jump :parameters () :precondition (at l0) :effect (and (at l3) (not (at l0)))))
"""

# The stand-in planner does what the problem's comment says for its name: `short` (a one-step plan),
# `long` (three steps), `bad` (a plan the validator refuses), `crash` (exit 3 with a message), `none`
# (exit 0 without a plan: unsolved), `slow` (outlives the wall limit).
PLANNER = """\
#!/bin/sh
what=$(sed -n "s/.* $1:\\([a-z]*\\).*/\\1/p" "$2")
case "$what" in
  short) echo "(jump)" > "$3" ;;
  long) printf '(move l0 l1)\\n(move l1 l2)\\n(move l2 l3)\\n' > "$3" ;;
  bad) echo "(move l0 l2)" > "$3" ;;
  crash) echo "stand-in: segmentation fault in the search" >&2; exit 3 ;;
  slow) sleep 30 ;;
esac
exit 0
"""

# (planner A, planner B) per problem, cycled over the problems: mostly plans, a few of each failure.
BEHAVIOURS = [("short", "long"), ("long", "short"), ("short", "short"), ("bad", "long"), ("short", "crash"),
              ("none", "long"), ("long", "long"), ("short", "none")]
EXPECTED = {"short": "solved", "long": "solved", "bad": "invalid-plan", "crash": "crash", "none": "unsolved",
            "slow": "timeout"}
SLOW = ("sokoban-sequential-satisficing-strips", "p2")  # one timeout, for B: each costs the wall limit


def problem(name: str, a: str, b: str) -> str:
    return (f"; A:{a} B:{b}\n(define (problem {name}) (:domain line) (:objects l0 l1 l2 l3)\n"
            "  (:init (at l0) (next l0 l1) (next l1 l2) (next l2 l3)) (:goal (at l3)))\n")


Campaign = tuple[Path, list[tuple[str, str, str, str]]]  # the store, and (domain, problem, planner, told)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Campaign:
    """The results store of a real `pddltools run`, and what each (domain, problem, planner) was told."""
    root = tmp_path_factory.mktemp("ipc2008")
    planner = root / "planner.sh"
    planner.write_text(PLANNER)
    planner.chmod(0o755)
    told = []
    k = 0
    for i, name in enumerate(IPC2008):
        folder = root / "set" / name
        folder.mkdir(parents=True)
        (folder / "domain.pddl").write_text(DOMAIN)
        for j in range(1, 2 + i % 3):  # one to three problems a domain
            a, b = BEHAVIOURS[k % len(BEHAVIOURS)]
            if (name, f"p{j}") == SLOW:
                b = "slow"
            k += 1
            (folder / f"p{j}.pddl").write_text(problem(f"p{j}", a, b))
            told += [(name, f"p{j}", "A", a), (name, f"p{j}", "B", b)]
    db = root / "results.sqlite"
    code = main(["run", str(root / "set"), "--planner", f"A={planner} A {{problem}} {{plan}}",
                 "--planner", f"B={planner} B {{problem}} {{plan}}", "--db", str(db),
                 "--workdir", str(root / "runs"), "--wall", "3", "--memory", "500", "--jobs", "2",
                 "--format", "json"])
    assert code == 0
    return db, told


class _Tables(HTMLParser):
    """Each table's rows (cell texts) by the table's id."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._table = dict(attrs).get("id") or ""
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self.tables[self._table].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table is not None:
            self.tables[self._table][-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


@pytest.fixture(scope="module")
def report(campaign: Campaign) -> Path:
    db, _ = campaign
    out = db.parent / "report.html"
    assert main(["report", str(db), "--rules", "ipc2008-sat", "-o", str(out), "--title", "IPC-2008 names"]) == 0
    return out


def tables(path: Path) -> dict[str, list[list[str]]]:
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def test_the_run_stored_its_limits_and_every_outcome(campaign: Campaign) -> None:
    db, told = campaign
    with Store.open(db) as store:
        runs = store.runs()
    assert len(runs) == len(told)
    assert {(r.wall_limit, r.cpu_limit, r.memory_limit) for r in runs} == {(3.0, 3.0, 500 * 1024 * 1024)}
    status = {(r.domain, r.problem, r.planner): r.status for r in runs}
    assert status == {(d, p, who): EXPECTED[what] for d, p, who, what in told}


def test_errors_table_lists_every_crash_and_invalid_plan_with_its_reason(
        report: Path, campaign: Campaign) -> None:
    _, told = campaign
    header, *rows = tables(report)["errors"]
    assert header == ["domain", "problem", "planner", "status", "time (s)", "reason"]
    expected = sorted((d, p, who, "crash" if what == "crash" else "invalid-plan")
                      for d, p, who, what in told if what in ("crash", "bad"))
    assert sorted((r[0], r[1], r[2], r[3]) for r in rows) == expected
    reasons = {r[3]: r[5] for r in rows}
    assert "segmentation fault in the search" in reasons["crash"]
    assert reasons["invalid-plan"]  # the validator's reason, whatever its words
    # The errors come before everything else an organiser reads.
    html = report.read_text()
    assert html.index('id="errors"') < html.index('id="limits"') < html.index('id="scores"')


def test_limits_and_per_instance_tables(report: Path, campaign: Campaign) -> None:
    _, told = campaign
    found = tables(report)
    assert found["limits"] == [["wall (s)", "CPU (s)", "memory (MB)", "plan file (MB)", "run folder (MB)", "runs",
                                "planners"], ["3", "3", "500", "16", "1024", str(len(told)), "A, B"]]
    top, sub, *rows = found["instances"]
    assert top == ["domain", "problem", "A", "B"]
    assert sub == ["status", "time (s)", "cost", "plan"] * 2
    assert len(rows) == len(told) // 2
    cells = {(r[0], r[1]): r for r in rows}
    cost = {"short": "1", "long": "3"}
    verdict = {"short": "valid", "long": "valid", "bad": "invalid"}
    for d, p, who, what in told:
        row = cells[d, p]
        status, time, plan_cost, plan = row[2:6] if who == "A" else row[6:10]
        assert (status, plan_cost, plan) == (EXPECTED[what], cost.get(what, ""), verdict.get(what, "")), row
        assert float(time) >= (3.0 if what == "slow" else 0.0)
    # Natural order: the domains as sorted, each domain's problems p1, p2, p3.
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)


def test_plurals_and_nice_axes(report: Path) -> None:
    html = report.read_text()
    assert not re.search(r"\b1 (domains|runs|problems|planners)\b", html)
    assert f"{len(IPC2008)} domains" in html
    # At most three problems a domain: the coverage axis ends at 3, in whole steps.
    coverage = re.search(r'<svg[^>]*aria-label="Coverage per domain".*?</svg>', html, re.S)
    assert coverage is not None
    ticks = re.findall(r'<text[^>]*text-anchor="middle"[^>]*>(\d[^<]*)</text>', coverage.group(0))
    assert sorted(set(ticks), key=float) == ["0", "1", "2", "3"]


# Run in the page after it has laid out: every text element's box against its SVG's, and the computed
# alignment of each table's planner column, written into the DOM for --dump-dom to carry out.
MEASURE = textwrap.dedent("""
    <script>
    const out = {svgs: [], planner: []};
    for (const svg of document.querySelectorAll("svg")) {
      const box = svg.getBoundingClientRect();
      const texts = [...svg.querySelectorAll("text")].map(t => {
        const r = t.getBoundingClientRect();
        return {text: t.textContent, name: t.dataset.name || null, left: r.left - box.left,
                right: r.right - box.left, top: r.top - box.top, bottom: r.bottom - box.top};
      });
      out.svgs.push({label: svg.getAttribute("aria-label"), left: box.left, right: box.right,
                     width: box.width, height: box.height, texts});
    }
    for (const table of document.querySelectorAll("table")) {
      const heads = [...table.querySelectorAll("thead tr:first-child th")].map(th => th.textContent);
      const col = heads.indexOf("planner");
      if (col < 0) continue;
      for (const row of table.querySelectorAll("tbody tr"))
        out.planner.push([table.id, getComputedStyle(row.children[col]).textAlign]);
    }
    out.rows = Object.fromEntries([...document.querySelectorAll("table[id]")].map(
      t => [t.id, [...t.querySelectorAll("tbody tr")].filter(r => r.getBoundingClientRect().height > 0).length]));
    const pre = document.createElement("pre");
    pre.id = "measured";
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
    </script>
    """)


def _measure(browser: str, page: Path, tmp_path: Path) -> dict[str, Any]:
    measured = tmp_path / "measured.html"
    measured.write_text(page.read_text(encoding="utf-8").replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000",
                          "--dump-dom", measured.as_uri()], capture_output=True, text=True, timeout=120, check=True)
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom.stdout, re.S)
    assert found is not None, dom.stderr[-2000:]
    measured_values: dict[str, Any] = json.loads(unescape(found.group(1)))
    return measured_values


def test_every_ipc2008_name_whole_in_chromium_at_1400_px(report: Path, tmp_path: Path, chromium: str | None,
                                                         campaign: Campaign) -> None:
    browser = chromium
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium-headless-shell)")
    found = _measure(browser, report, tmp_path)
    svgs = found["svgs"]
    assert [s["label"] for s in svgs] == ["Coverage per domain", "Score per domain (ipc2008-sat)",
                                          "Problems solved within a time"]
    for svg in svgs:
        assert svg["right"] <= 1400, svg["label"]  # nothing to scroll sideways for at 1,400 px
        for t in svg["texts"]:
            assert t["left"] >= 0 and t["top"] >= 0, (svg["label"], t)
            assert t["right"] <= svg["width"] and t["bottom"] <= svg["height"], (svg["label"], t)
    for svg in svgs[:2]:
        groups = [t for t in svg["texts"] if t["name"]]
        # Each name is there whole: its lines (wrapped at hyphens, if at all) join up to the name.
        assert sorted(t["name"] for t in groups) == sorted(IPC2008)
        assert all(t["text"] == t["name"] for t in groups), [t for t in groups if t["text"] != t["name"]]
    # The tables an organiser reads first are there, every row shown.
    _, told = campaign
    assert found["rows"]["errors"] == sum(what in ("crash", "bad") for *_, what in told)
    assert found["rows"]["instances"] == len(told) // 2
    assert found["rows"]["limits"] == 1
    alignments = {(table, align) for table, align in found["planner"]}
    assert {table for table, _ in alignments} >= {"errors", "scores", "outcomes"}
    assert {align for _, align in alignments} == {"left"}


def test_screenshot(report: Path, tmp_path: Path, chromium: str | None) -> None:
    browser = chromium
    if browser is None:
        pytest.skip("no Chromium installed (apt-get install chromium-headless-shell)")
    shot = tmp_path / "report.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1400,3000", f"--screenshot={shot}", report.as_uri()],
                   capture_output=True, timeout=120, check=True)
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
