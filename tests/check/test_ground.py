"""`pddltools ground`: the grounded task as STRIPS PDDL and as Fast Downward's SAS, mutex groups, and plans
of the grounded task that `unmap` turns into valid plans of the original."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from pddltools.analysis.grounder import ground
from pddltools.analysis.invariants import mutex_groups
from pddltools.analysis.sas import write
from pddltools.cli import main
from pddltools.pddl.parser import parse_domain, parse_problem
from pddltools.semantics import GroundedTask
from tests.check.grounding import DOWNWARD, breadth_first

REPO = Path(__file__).resolve().parents[2]
HELLO = REPO / "corpus" / "pddl" / "examples" / "hello"

LOGISTICS = """(define (domain lg) (:requirements :typing :equality :negative-preconditions)
  (:types truck package place)
  (:predicates (at ?x - (either truck package) ?p - place) (in ?p - package ?t - truck) (road ?a ?b - place))
  (:action drive :parameters (?t - truck ?a ?b - place)
    :precondition (and (at ?t ?a) (road ?a ?b) (not (= ?a ?b))) :effect (and (at ?t ?b) (not (at ?t ?a))))
  (:action load :parameters (?p - package ?t - truck ?l - place)
    :precondition (and (at ?p ?l) (at ?t ?l)) :effect (and (in ?p ?t) (not (at ?p ?l))))
  (:action unload :parameters (?p - package ?t - truck ?l - place)
    :precondition (and (in ?p ?t) (at ?t ?l)) :effect (and (at ?p ?l) (not (in ?p ?t)))))
"""
LOGISTICS_PROBLEM = """(define (problem p) (:domain lg)
  (:objects t - truck p1 p2 - package a b c - place)
  (:init (at t a) (at p1 a) (at p2 b) (road a b) (road b a) (road b c) (road a a))
  (:goal (and (at p1 c) (at p2 a))))
"""


def _task():  # type: ignore[no-untyped-def]
    return ground(parse_domain(LOGISTICS, "domain.pddl"), parse_problem(LOGISTICS_PROBLEM, "problem.pddl"))


def test_only_reachable_operators_are_ground_and_statics_are_folded() -> None:
    task = _task()
    names = {op.name for op in task.operators}
    assert "drive t a b" in names and "drive t b c" in names
    assert "drive t a a" not in names  # (not (= ?a ?b))
    assert "drive t c b" not in names  # no road back: static
    assert all(atom[0] != "road" for atom in task.atoms)  # static: folded away, no variable
    assert ("at", "t", "c") in task.atoms and ("in", "p2", "t") in task.atoms


def test_mutex_groups_join_two_predicates_per_package() -> None:
    task = _task()
    groups = [{task.atoms[a] for a, _ in g} for g in mutex_groups(task)]
    assert {("at", "p1", "a"), ("at", "p1", "b"), ("at", "p1", "c"), ("in", "p1", "t")} in groups
    assert {("at", "t", "a"), ("at", "t", "b"), ("at", "t", "c")} in groups


def test_sas_variables_come_from_the_mutex_groups() -> None:
    task = _task()
    task.mutexes = mutex_groups(task)
    text = write(task)
    assert text.startswith("begin_version\n3\nend_version\nbegin_metric\n0\nend_metric\n")
    assert "Atom in(p1, t)\n<none of those>" in text
    assert text.count("begin_operator") == len(task.operators)


def test_an_unreachable_goal_gives_an_unsolvable_task() -> None:
    problem = LOGISTICS_PROBLEM.replace("(at p2 a)", "(at p2 d)").replace("a b c - place", "a b c d - place")
    task = ground(parse_domain(LOGISTICS, "domain.pddl"), parse_problem(problem, "problem.pddl"))
    assert task.goal is None
    assert "Atom dummy(val2)" in write(task)


def test_the_strips_output_round_trips_a_plan_through_unmap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g"
    assert main(["ground", str(HELLO / "domain.pddl"), str(HELLO / "problem.pddl"), "-o", str(out)]) == 0
    grounded = GroundedTask.load(out / "domain.pddl", out / "problem.pddl")
    plan = breadth_first(grounded)
    (tmp_path / "plan").write_text("".join(f"({name})\n" for name in plan))
    capsys.readouterr()
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0  # validated on the original task
    printed = capsys.readouterr().out
    assert printed.startswith("(") and "_" not in printed.split(";")[0]


@pytest.mark.skipif(DOWNWARD is None, reason="up-fast-downward's search binary is not installed")
def test_fast_downwards_search_reads_the_sas_and_its_plan_unmaps_to_a_valid_plan(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g"
    assert main(["ground", str(HELLO / "domain.pddl"), str(HELLO / "problem.pddl"), "-o", str(out), "--to", "sas"]) == 0
    done = subprocess.run([str(DOWNWARD), "--search", "astar(blind())"], stdin=(out / "output.sas").open(),
                          cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert "Solution found" in done.stdout, done.stdout[-500:]
    capsys.readouterr()
    assert main(["unmap", str(out), str(tmp_path / "sas_plan")]) == 0
    assert "cost = " in capsys.readouterr().out


def test_what_the_grounder_does_not_read_is_refused_with_e801(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    domain = tmp_path / "d.pddl"
    domain.write_text("(define (domain d) (:requirements :numeric-fluents) (:predicates (p)) (:functions (f))"
                      " (:action a :parameters () :precondition (p) :effect (increase (f) 1)))")
    problem = tmp_path / "p.pddl"
    problem.write_text("(define (problem q) (:domain d) (:init (p) (= (f) 0)) (:goal (> (f) 1)))")
    code = main(["ground", str(domain), str(problem), "-o", str(tmp_path / "o"), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    (found,) = [d for f in data["files"] for d in f["diagnostics"]]
    assert code == 1 and found["code"] == "E801" and "numeric fluents" in found["message"]


def test_compile_target_grounded_strips_reaches_the_grounder(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    costs = REPO / "corpus" / "plans" / "costs"
    out = tmp_path / "c"
    assert main(["compile", str(costs / "domain.pddl"), str(costs / "problem.pddl"), "--target", "grounded-strips",
                 "-o", str(out)]) == 0
    grounded = GroundedTask.load(out / "domain.pddl", out / "problem.pddl")
    assert all(not a.parameters for a in grounded.domain.actions)
    assert not grounded.domain.types and ":typing" not in {r.name for r in grounded.domain.requirements}
    (tmp_path / "plan").write_text("".join(f"({name})\n" for name in breadth_first(grounded)))
    capsys.readouterr()
    assert main(["unmap", str(out), str(tmp_path / "plan")]) == 0  # composed with the typing pass's map


def test_an_operator_wanting_two_values_of_one_variable_is_left_out_of_the_sas() -> None:
    # barman's fill-shot with one hand as both ?h1 and ?h2: holding and handempty are one variable's values
    domain = """(define (domain hands) (:requirements :typing) (:types hand thing)
      (:predicates (holding ?h - hand ?t - thing) (handempty ?h - hand) (full ?t - thing))
      (:action grab :parameters (?h - hand ?t - thing) :precondition (handempty ?h)
        :effect (and (holding ?h ?t) (not (handempty ?h))))
      (:action fill :parameters (?h1 ?h2 - hand ?t - thing)
        :precondition (and (holding ?h1 ?t) (handempty ?h2)) :effect (full ?t)))"""
    problem = ("(define (problem p) (:domain hands) (:objects l r - hand s - thing)"
               " (:init (handempty l) (handempty r)) (:goal (full s)))")
    task = ground(parse_domain(domain, "d.pddl"), parse_problem(problem, "p.pddl"))
    task.mutexes = mutex_groups(task)
    text = write(task)
    assert "fill l r s" in text and "fill r l s" in text
    assert "fill l l s" not in text and "fill r r s" not in text
    assert {op.name for op in task.operators} >= {"fill l l s"}  # ground, but never applicable


@pytest.mark.corpus
def test_an_operator_wanting_two_atoms_of_one_mutex_group_is_left_out_of_the_sas(shared_pddl: Path) -> None:
    """Parking: a car with a car behind it is not clear, but `(behind-car c c)` is a value of c's position
    variable and `(car-clear c)` a binary variable of its own; only the group of c's rear joins them.
    The translator leaves `move-car-to-car c c d` out (it would never apply, yet a relaxed heuristic
    could use it), and so does pddltools: the same 23,958 operators as the translator writes."""
    base = shared_pddl / "ipc-2011" / "parking-sequential-satisficing"
    task = ground(parse_domain((base / "domain.pddl").read_text(), "domain.pddl"),
                  parse_problem((base / "instances" / "instance-1.pddl").read_text(), "problem.pddl"))
    task.mutexes = mutex_groups(task)
    text = write(task)
    assert "move-car-to-car car_00 car_00 car_01" in {op.name for op in task.operators}
    assert "\nmove-car-to-car car_00 car_00 car_01\n" not in text
    assert "\nmove-car-to-car car_01 car_00 car_02\n" in text
    assert text.count("begin_operator") == 23958


def test_an_atom_a_precondition_negates_keeps_a_binary_variable_of_its_own() -> None:
    # (at t b) is in the truck's mutex group, but "not at b" is no single value of the truck's variable
    domain = LOGISTICS.replace("(and (at ?p ?l) (at ?t ?l))", "(and (at ?p ?l) (at ?t ?l) (not (at ?t b)))") \
        .replace("(:predicates", "(:constants b - place) (:predicates")
    task = ground(parse_domain(domain, "domain.pddl"), parse_problem(LOGISTICS_PROBLEM.replace(" a b c - place",
                                                                                                " a c - place"),
                                                                     "problem.pddl"))
    task.mutexes = mutex_groups(task)
    at_b = task.atoms.index(("at", "t", "b"))
    assert any((at_b, True) in g for g in task.mutexes)
    text = write(task)  # raised KeyError before: the atom had no variable at all
    assert "Atom at(t, b)\nNegatedAtom at(t, b)\nend_variable" in text
    assert "begin_operator\nload p1 t a\n" in text


def test_the_translators_shape_counts_one_argument_per_predicate(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # IPC-2006 trucks: a package is at a place or in some area of some truck; `(in ?p _ _)` counts two
    # arguments, which the translator's candidates cannot, and `at` is shared with the truck's location
    domain = """(define (domain tr) (:requirements :typing)
      (:types locatable area place - object truck package - locatable)
      (:predicates (at ?x - locatable ?l - place) (in ?p - package ?t - truck ?a - area) (free ?a - area ?t - truck)
                   (road ?a ?b - place))
      (:action load :parameters (?p - package ?t - truck ?a - area ?l - place)
        :precondition (and (at ?t ?l) (at ?p ?l) (free ?a ?t))
        :effect (and (not (at ?p ?l)) (not (free ?a ?t)) (in ?p ?t ?a)))
      (:action unload :parameters (?p - package ?t - truck ?a - area ?l - place)
        :precondition (and (at ?t ?l) (in ?p ?t ?a)) :effect (and (not (in ?p ?t ?a)) (free ?a ?t) (at ?p ?l)))
      (:action drive :parameters (?t - truck ?a ?b - place) :precondition (and (at ?t ?a) (road ?a ?b))
        :effect (and (not (at ?t ?a)) (at ?t ?b))))"""
    problem = """(define (problem p) (:domain tr) (:objects t - truck p - package a1 a2 - area x y - place)
      (:init (at t x) (at p x) (free a1 t) (free a2 t) (road x y) (road y x)) (:goal (at p y)))"""
    task = ground(parse_domain(domain, "d.pddl"), parse_problem(problem, "p.pddl"))

    def groups(counted: int | None) -> set[frozenset[str]]:
        return {frozenset(" ".join(task.atoms[a]) for a, _ in g) for g in mutex_groups(task, counted)}

    package = frozenset({"at p x", "at p y", "in p t a1", "in p t a2"})
    assert package in groups(None) and frozenset({"at t x", "at t y"}) in groups(None)
    assert groups(1) == {frozenset({"free a1 t", "in p t a1"}), frozenset({"free a2 t", "in p t a2"})}
    (tmp_path / "d.pddl").write_text(domain)
    (tmp_path / "p.pddl").write_text(problem)
    capsys.readouterr()
    assert main(["ground", str(tmp_path / "d.pddl"), str(tmp_path / "p.pddl"), "-o", str(tmp_path / "o"), "--to", "sas",
                 "--mutex-groups", "translator"]) == 0
    assert "2 mutex groups" in capsys.readouterr().out
    assert (tmp_path / "o" / "output.sas").read_text().count("<none of those>") == 2
