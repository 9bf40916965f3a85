"""`pddltools ground` on derived predicates: axioms and their layers in the SAS file, ground derived
predicates in the STRIPS output, and plans of both that `unmap` turns into valid plans of the original."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from pddltools.analysis.axioms import Axioms
from pddltools.analysis.grounder import ground
from pddltools.analysis.invariants import mutex_groups
from pddltools.analysis.sas import write
from pddltools.cli import main
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from tests.check.grounding import DOWNWARD, breadth_first

# (lit ?l): on, or wired from a lit lamp (recursive); (dark ?l): not lit, so a layer above; (spare ?l):
# read by nothing, so no variable.
LIGHTS = """(define (domain lights) (:requirements :strips :typing :derived-predicates :negative-preconditions)
  (:types lamp)
  (:predicates (on ?l - lamp) (wired ?a ?b - lamp) (lit ?l - lamp) (dark ?l - lamp) (spare ?l - lamp))
  (:derived (lit ?l - lamp) (or (on ?l) (exists (?m - lamp) (and (wired ?m ?l) (lit ?m)))))
  (:derived (dark ?l - lamp) (not (lit ?l)))
  (:derived (spare ?l - lamp) (on ?l))
  (:action switch-on :parameters (?l - lamp) :precondition (dark ?l) :effect (on ?l))
  (:action switch-off :parameters (?l - lamp) :precondition (on ?l) :effect (not (on ?l))))
"""
LIGHTS_PROBLEM = """(define (problem p) (:domain lights)
  (:objects a b c d - lamp)
  (:init (wired a b) (wired b c) (on d))
  (:goal (and (lit c) (dark d))))
"""


def _task():  # type: ignore[no-untyped-def]
    task = ground(parse_domain(LIGHTS, "domain.pddl"), parse_problem(LIGHTS_PROBLEM, "problem.pddl"))
    task.mutexes = mutex_groups(task)
    return task


def _variables(text: str) -> dict[str, tuple[int, int]]:
    """Each binary variable's atom, with its number and axiom layer."""
    found = re.findall(r"begin_variable\nvar(\d+)\n(-?\d+)\n2\nAtom (\S+)\n", text)
    return {atom: (int(var), int(layer)) for var, layer, atom in found}


def test_derived_atoms_are_axioms_not_operators_and_have_no_mutex_group() -> None:
    task = _task()
    assert task.derived == {"lit", "dark", "spare"}
    lit_c = task.atoms.index(("lit", "c"))
    on_b, lit_b = task.atoms.index(("on", "b")), task.atoms.index(("lit", "b"))
    conditions = {a.condition for a in task.axioms if a.head == lit_c}
    assert ((task.atoms.index(("on", "c")), True),) in conditions
    assert ((lit_b, True),) in conditions  # (wired b c) is static: folded away
    assert not any(lit_c in {a for a, _ in c} for c in conditions)  # (lit c) from itself: left out
    assert all(task.atoms[a][0] not in task.derived for g in task.mutexes for a, _ in g)
    assert on_b not in task.init and lit_b not in task.init


def test_axiom_layers_put_a_negated_derived_atom_below_its_reader() -> None:
    task = _task()
    needed = Axioms(task)
    layer = {task.atoms[a]: needed.layer[a] for a in needed.atoms}
    assert layer[("lit", "c")] == layer[("lit", "a")] == 0
    assert layer[("dark", "d")] == 1  # reads (not (lit d)): a layer above it
    assert not any(task.atoms[a][0] == "spare" for a in needed.atoms)  # nothing reads it


def test_the_sas_file_has_derived_variables_with_layers_and_one_rule_per_axiom() -> None:
    task = _task()
    text = write(task)
    variables = _variables(text)
    assert variables["lit(c)"][1] == 0 and variables["dark(d)"][1] == 1 and variables["on(a)"][1] == -1
    assert "spare(d)" not in text
    state = text.split("begin_state\n")[1].split("\nend_state")[0].split("\n")
    assert state[variables["lit(d)"][0]] == "1"  # false until the axioms say otherwise, though (on d) holds
    assert state[variables["on(d)"][0]] == "0"
    rules = re.findall(r"begin_rule\n(\d+)\n((?:\d+ \d+\n)*)(\d+) 1 0\nend_rule", text)
    assert len(rules) == int(text.split("end_operator\n")[-1].split("\n")[0]) == len(Axioms(task).axioms)
    dark_d, lit_d = variables["dark(d)"][0], variables["lit(d)"][0]
    assert ("1", f"{lit_d} 1\n", str(dark_d)) in rules  # (dark d) <- (not (lit d))
    lit_c, lit_b, on_c = variables["lit(c)"][0], variables["lit(b)"][0], variables["on(c)"][0]
    assert {("1", f"{on_c} 0\n", str(lit_c)), ("1", f"{lit_b} 0\n", str(lit_c))} <= set(rules)
    goal = text.split("begin_goal\n")[1].split("\nend_goal")[0].split("\n")
    assert goal[1:] == sorted([f"{lit_c} 0", f"{dark_d} 0"])


def test_the_strips_output_has_ground_derived_predicates_and_its_plan_unmaps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "d.pddl").write_text(LIGHTS)
    (tmp_path / "p.pddl").write_text(LIGHTS_PROBLEM)
    out = tmp_path / "g"
    assert main(["ground", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "-o", str(out)]) == 0
    domain = (out / "domain.pddl").read_text()
    assert ":derived-predicates" in domain and "(:derived (dark_d)" in domain and "spare" not in domain
    grounded = GroundedTask.load(out / "domain.pddl", out / "problem.pddl")
    plan = breadth_first(grounded)
    assert sorted(plan) == ["switch-off_d", "switch-on_a"]  # (lit b) and (lit c) follow from (on a)
    (tmp_path / "plan").write_text("".join(f"({name})\n" for name in plan))
    capsys.readouterr()
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0  # validated on the original task


def test_derived_predicates_through_their_own_negation_are_refused_with_e802(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "d.pddl").write_text(LIGHTS.replace("(:derived (dark ?l - lamp) (not (lit ?l)))",
                                                    "(:derived (dark ?l - lamp) (not (lit ?l)))\n"
                                                    "  (:derived (lit ?l - lamp) (not (dark ?l)))"))
    (tmp_path / "p.pddl").write_text(LIGHTS_PROBLEM)
    assert main(["ground", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "-o", str(tmp_path / "o"),
                 "--to", "sas"]) == 1
    assert "E802" in capsys.readouterr().err


@pytest.mark.skipif(DOWNWARD is None, reason="up-fast-downward's search binary is not installed")
def test_fast_downwards_search_evaluates_the_axioms_and_its_plan_unmaps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "d.pddl").write_text(LIGHTS)
    (tmp_path / "p.pddl").write_text(LIGHTS_PROBLEM)
    out = tmp_path / "g"
    assert main(["ground", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "-o", str(out), "--to", "sas"]) == 0
    done = subprocess.run([str(DOWNWARD), "--search", "astar(blind())"], stdin=(out / "output.sas").open(),
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert "Solution found" in done.stdout, done.stdout[-500:]
    assert "Plan length: 2 step(s)" in done.stdout
    capsys.readouterr()
    assert main(["unmap", str(out), str(tmp_path / "sas_plan")]) == 0
