"""IPC ADL and derived-predicate domains compiled to STRIPS, solved by pyperplan, plans mapped back and
validated on the original task. A handful of small instances here; benchmarks/compile.py runs all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pddltools.check import check, detect
from pddltools.compile.pipeline import compile_task, removals
from pddltools.compile.planmap import PlanMap, format_plan, unmap
from pddltools.compile.task import Task
from pddltools.pddl.parser import parse_domain_file, parse_problem_file
from pddltools.validate import Task as Semantics
from pddltools.validate import validate_plan

CASES = [
    ("ipc-2000/elevator-adl-full-typed", "instance-1.pddl", "strips"),
    ("ipc-1998/movie-round-1-adl", "instance-1.pddl", "typed-strips"),
    ("ipc-2004/promela-dining-philosophers-adl", "instance-1.pddl", "typed-strips"),
    ("ipc-2004/promela-dining-philosophers-derived-predicates-adl", "instance-1.pddl", "strips"),
    ("ipc-1998/assembly-round-1-adl", "instance-1.pddl", "typed-strips"),
    # its goal is a derived deadlock predicate over quantifiers; static facts keep the expansion small
    ("ipc-2004/promela-optical-telegraph-derived-predicates-adl", "instance-1.pddl", "strips"),
]


@pytest.mark.corpus
@pytest.mark.parametrize(("folder", "instance", "target"), CASES, ids=[c[0].split("/")[1] for c in CASES])
def test_compiled_task_is_solved_and_plan_maps_back(shared_pddl: Path, tmp_path: Path, folder: str, instance: str,
                                                    target: str) -> None:
    domain_path, problem_path = shared_pddl / folder / "domain.pddl", shared_pddl / folder / "instances" / instance
    original = Task(parse_domain_file(domain_path), parse_problem_file(problem_path))
    result = compile_task(original, removals(target), strict=True)
    task = result.task
    assert check(task.domain, [task.problem]).errors == []
    assert set(detect(task.domain, [task.problem]).features) <= ({"typing"} if target == "typed-strips" else set())
    (tmp_path / "domain.pddl").write_text(str(task.domain))
    (tmp_path / "problem.pddl").write_text(str(task.problem))
    subprocess.run([sys.executable, "-m", "pyperplan", "-H", "hff", "-s", "gbf", "domain.pddl", "problem.pddl"],
                   cwd=tmp_path, capture_output=True, timeout=60, check=True)
    plan = (tmp_path / "problem.pddl.soln").read_text()
    steps = unmap(PlanMap(result.origins, {}), plan)
    report = validate_plan(Semantics(original.domain, original.problem), format_plan(steps))
    assert report.valid, report.to_json()
