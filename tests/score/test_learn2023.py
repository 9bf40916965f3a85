"""The IPC-2023 learning tracks end to end: two tiny learners written for the test train under short
limits (one catches SIGTERM and writes its knowledge, one ignores it and is killed), their planners run
on the test tasks of two domains, every plan is validated, and `score` gives the numbers worked by hand."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import jsonschema
import pytest

from pddltools.cli import main
from pddltools.schemas import schema
from pddltools.score.learn2023 import knowledge_file, load_benchmark
from pddltools.score.learning2023 import by_level, level_of
from pddltools.score.report import render_html
from pddltools.score.rules import score
from pddltools.score.store import Store

DOMAIN = """(define (domain hop) (:requirements :typing :action-costs)
  (:types place) (:predicates (at ?p - place) (link ?a ?b - place)) (:functions (total-cost) - number)
  (:action hop :parameters (?a ?b - place) :precondition (and (at ?a) (link ?a ?b))
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) 1))))
"""

# The learner that records something: it waits for SIGTERM (its training "runs" until the limit), then
# writes the knowledge (the search to use, and the tasks it was given, in order) to DK.1 and exits.
CATCHING_LEARNER = """import os, signal, sys, time
dk, domain, tasks = sys.argv[1], sys.argv[2], sys.argv[3:]
def finish(signum, frame):
    with open(dk + ".tmp", "w") as out:
        out.write("search bfs\\n" + "".join(t + "\\n" for t in tasks))
    os.replace(dk + ".tmp", dk + ".1")
    sys.exit(0)
signal.signal(signal.SIGTERM, finish)
while True:
    time.sleep(0.05)
"""

# The learner that writes nothing useful, at once, then ignores SIGTERM until SIGKILL comes.
IGNORING_LEARNER = """import signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
open(sys.argv[1], "w").write("nothing learned\\n")
while True:
    time.sleep(0.05)
"""

# The planner: breadth-first with knowledge saying so (shortest plans), else depth-first along the links
# in the order the task lists them; without knowledge it guesses on tasks of more than five places,
# hopping straight to the goal (an invalid plan where there is no such link).
PLANNER = """import re, sys
dk, domain, task, plan = sys.argv[1:5]
text = open(task).read()
links = re.findall(r"\\(link (\\w+) (\\w+)\\)", text)
start = re.search(r"\\(:init \\(at (\\w+)\\)", text).group(1)
goal = re.search(r"\\(:goal \\(at (\\w+)\\)", text).group(1)
places = {p for link in links for p in link}
bfs = "search bfs" in open(dk).read()
if not bfs and len(places) > 5:
    path = [start, goal]
elif bfs:
    parent, queue = {start: None}, [start]
    for here in queue:
        for a, b in links:
            if a == here and b not in parent:
                parent[b] = here
                queue.append(b)
    path, node = [], goal
    while node is not None:
        path.insert(0, node)
        node = parent[node]
else:
    def dfs(here, seen):
        if here == goal:
            return [here]
        for a, b in links:
            if a == here and b not in seen:
                rest = dfs(b, seen | {b})
                if rest:
                    return [here] + rest
        return None
    path = dfs(start, {start})
with open(plan + ".1", "w") as out:
    out.writelines(f"(hop {a} {b})\\n" for a, b in zip(path, path[1:]))
"""


def chain(n: int, shortcut: bool) -> str:
    """Places l0 ... ln in a line (and, with `shortcut`, a link l0 -> ln listed last); from l0 to ln."""
    links = [f"(link l{i} l{i + 1})" for i in range(n)] + ([f"(link l0 l{n})"] if shortcut else [])
    objects = " ".join(f"l{i}" for i in range(n + 1))
    return (f"(define (problem c{n}) (:domain hop) (:objects {objects} - place)\n"
            f"  (:init (at l0) {' '.join(links)} (= (total-cost) 0))\n"
            f"  (:goal (at l{n})) (:metric minimize (total-cost)))\n")


SIZES = {"easy": 2, "medium": 3, "hard": 6}


def benchmark(root: Path, name: str, shortcut: bool) -> Path:
    folder = root / name
    (folder / "training").mkdir(parents=True)
    (folder / "domain.pddl").write_text(DOMAIN)
    for level, n in SIZES.items():
        for part in ("training", "testing"):
            (folder / part / level).mkdir(parents=True, exist_ok=True)
            (folder / part / level / "p01.pddl").write_text(chain(n, shortcut))
        (folder / "training" / level / "p02.pddl").write_text(chain(n + 1, shortcut))
    return folder


def test_tasks_come_in_ascending_difficulty(tmp_path: Path) -> None:
    folder = benchmark(tmp_path, "hop", shortcut=False)
    (folder / "training" / "easy" / "p10.pddl").write_text(chain(2, False))
    bench = load_benchmark(folder)
    assert [(p.parent.name, p.name) for p in bench.training] == [
        ("easy", "p01.pddl"), ("easy", "p02.pddl"), ("easy", "p10.pddl"), ("medium", "p01.pddl"),
        ("medium", "p02.pddl"), ("hard", "p01.pddl"), ("hard", "p02.pddl")]
    assert [level_of(str(p)) for p in bench.testing] == ["easy", "medium", "hard"]
    (tmp_path / "dk.1").write_text("a")
    (tmp_path / "dk.12").write_text("b")
    (tmp_path / "dk.2").write_text("c")
    assert knowledge_file(tmp_path / "dk") == tmp_path / "dk.12"


def test_the_protocol_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hop, jump = benchmark(tmp_path, "hop", shortcut=False), benchmark(tmp_path, "jump", shortcut=True)
    scripts = {}
    for name, text in (("catching", CATCHING_LEARNER), ("ignoring", IGNORING_LEARNER), ("plan", PLANNER)):
        scripts[name] = tmp_path / f"{name}.py"
        scripts[name].write_text(text)
    db = tmp_path / "results.sqlite"
    # The limits leave a busy machine time for a learner to start and set up its SIGTERM handling, and
    # for the catching one to write its knowledge before SIGKILL.
    common = [str(hop), str(jump), "--protocol", "ipc2023", "--plan", f"{sys.executable} {scripts['plan']}",
              "--train-wall", "1.5", "--kill-after", "1.5", "--wall", "30", "--memory", "1000", "--jobs", "2",
              "--out", str(tmp_path / "work"), "--db", str(db), "--format", "json"]
    results = {}
    for entry, learner in (("macro", "catching"), ("lazy", "ignoring")):
        assert main(["learn", "--planner", entry, "--learner", f"{sys.executable} {scripts[learner]}", *common]) == 0
        results[entry] = json.loads(capsys.readouterr().out)
    for data in results.values():
        jsonschema.validate(data, schema("learn"), cls=jsonschema.Draft202012Validator)
    # training: the catching learner wrote dk.1 after SIGTERM and exited; the other was SIGKILLed, its file stays
    macro_hop = results["macro"]["training_runs"][0]
    assert macro_hop["status"] == "learned" and macro_hop["knowledge"].endswith("dk.1")
    assert "caught" in macro_hop["how"] and macro_hop["returncode"] == 0
    knowledge = Path(macro_hop["knowledge"]).read_text().splitlines()
    assert knowledge[0] == "search bfs" and [Path(t).parent.name for t in knowledge[1:]] == [
        "easy", "easy", "medium", "medium", "hard", "hard"]                  # ascending difficulty
    lazy_hop = results["lazy"]["training_runs"][0]
    assert lazy_hop["status"] == "learned" and lazy_hop["knowledge"].endswith("/dk")
    assert "SIGKILL" in lazy_hop["how"] and lazy_hop["ended"] == "timeout"
    with Store.open(db) as store:
        runs = store.runs()
        assert {(k.planner, k.domain, k.status) for k in store.knowledge()} == {
            ("macro", "hop", "learned"), ("macro", "jump", "learned"), ("lazy", "hop", "learned"),
            ("lazy", "jump", "learned")}
    assert len(runs) == 12 and {r.track for r in runs} == {"ipc2023-learning"}
    lazy_invalid = [r for r in runs if r.status == "invalid-plan"]
    assert [(r.planner, r.domain, level_of(r.problem_path)) for r in lazy_invalid] == [("lazy", "hop", "hard")]

    # By hand, against reference costs (hop: the chain's length n; jump: 1, the shortcut):
    # macro (breadth-first) is optimal everywhere: quality 3 + 3 = 6.
    # lazy: hop easy and medium optimal, hard invalid (its guess hops l0 -> l6 without a link): hop voided,
    # 0. jump: depth-first walks the chain, cost n against 1 on easy and medium, 1/2 + 1/3; on hard its
    # guess takes the shortcut, cost 1: 1. Lazy's total 1/2 + 1/3 + 1 = 11/6.
    costs = tmp_path / "costs.tsv"
    costs.write_text("".join(f"{d}/testing/{level}/p01.pddl\t{n if d == 'hop' else 1}\n"
                             for d in ("hop", "jump") for level, n in SIZES.items()))
    assert main(["score", str(db), "--rules", "ipc2023-learning-quality", "--reference", str(costs),
                 "--format", "json"]) == 0
    quality = json.loads(capsys.readouterr().out)
    jsonschema.validate(quality, schema("score"), cls=jsonschema.Draft202012Validator)
    assert quality["planners"]["macro"]["total"] == pytest.approx(6.0)
    assert quality["planners"]["lazy"]["total"] == pytest.approx(11 / 6)
    assert quality["planners"]["lazy"]["domains"] == {"hop": 0.0, "jump": pytest.approx(11 / 6)}
    assert [(v["entrant"], v["domain"]) for v in quality["voided"]] == [("lazy", "hop")]
    levels = {(r["planner"], r["domain"], r["level"]): (r["score"], r["solved"], r["tasks"]) for r in quality["levels"]}
    assert levels["lazy", "jump", "easy"] == (pytest.approx(0.5), 1, 1)
    assert levels["lazy", "jump", "medium"] == (pytest.approx(1 / 3), 1, 1)
    assert levels["lazy", "jump", "hard"] == (pytest.approx(1.0), 1, 1)
    assert levels["lazy", "hop", "easy"] == (0.0, 0, 1)                      # voided by the hard task's plan
    # agile: every plan came well within a second of CPU time: 1 each, the voided domain 0
    agile = score(runs, "ipc2023-learning-agile")
    assert 'id="level-scores"' in render_html(runs, agile)                   # the HTML report has the table too
    assert agile.entrant("macro").total == pytest.approx(6.0) and agile.entrant("lazy").total == pytest.approx(3.0)
    assert sum(r.score for r in by_level(agile) if r.entrant == "lazy") == pytest.approx(3.0)
    assert main(["score", str(db), "--rules", "ipc2023-learning-agile"]) == 0
    table = capsys.readouterr().out
    assert "difficulty level" in table and "lazy solves nothing in hop" in table


def test_a_learner_that_writes_nothing_leaves_its_tasks_unsolved(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    hop = benchmark(tmp_path, "hop", shortcut=False)
    (tmp_path / "silent.py").write_text("import sys\n")
    db = tmp_path / "results.sqlite"
    assert main(["learn", str(hop), "--protocol", "ipc2023", "--planner", "silent", "--learner",
                 f"{sys.executable} {tmp_path / 'silent.py'}", "--plan", "false", "--out", str(tmp_path / "w"),
                 "--db", str(db)]) == 1
    out = capsys.readouterr().out
    assert "no-knowledge" in out and "exited with code 0" in out
    with Store.open(db) as store:
        assert {r.status for r in store.runs()} == {"unsolved"} and len(store.runs()) == 3


def test_a_malformed_domain_folder_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "blocks").mkdir()
    (tmp_path / "blocks" / "domain.pddl").write_text(DOMAIN)
    assert main(["learn", str(tmp_path / "blocks"), "--protocol", "ipc2023", "--planner", "p", "--learner", "x",
                 "--plan", "y", "--out", str(tmp_path / "o"), "--db", str(tmp_path / "r.sqlite")]) == 2
    assert "S052" in capsys.readouterr().err
