"""The subtask-to-id search of HTN plan verification (pddltools/hddl/matching.py): polynomial where the
subtasks tell themselves apart or a constraint rules every assignment out, bounded otherwise."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pddltools.hddl.matching import Binding, Candidate, Matcher, SearchTooLong


def identical(n: int) -> list[list[Candidate]]:
    """n subtasks `(tick ?a_i)` of an unordered method against ids 0..n-1 ticking o0..o(n-1)."""
    return [[Candidate(ident, ident, {f"?a{i}": f"o{ident}"}) for ident in range(n)] for i in range(n)]


def equal(first: str, second: str) -> Callable[[Binding], bool]:
    def holds(binding: Binding) -> bool:
        return first not in binding or second not in binding or binding[first] == binding[second]
    return holds


def test_a_constraint_no_assignment_meets_is_decided_without_search() -> None:
    # (= ?a0 ?a1) over distinct objects: n! assignments before; the pairs' consistency rules it out
    matcher = Matcher(identical(12), [], equal("?a0", "?a1"), {}, coupled=[frozenset({"?a0", "?a1"})])
    assert list(matcher.solutions()) == []
    assert matcher.choices == 0


def test_interchangeable_subtasks_are_assigned_without_backtracking() -> None:
    matcher = Matcher(identical(40), [], lambda binding: True, {})
    assignment, binding = next(matcher.solutions())
    assert sorted(c.ident for c in assignment) == list(range(40)) and len(binding) == 40
    assert matcher.choices == 40


def test_the_listed_order_must_linearise_the_methods() -> None:
    # s0 < s1 < s2, ids listed 2 1 0 (ranks): only the reversed assignment fits
    domains = [[Candidate(ident, 2 - ident, {}) for ident in range(3)] for _ in range(3)]
    matcher = Matcher(domains, [(0, 1), (1, 2), (0, 2)], lambda b: True, {})
    found = [[c.ident for c in assignment] for assignment, _ in matcher.solutions()]
    assert found == [[2, 1, 0]]


def test_no_one_to_one_assignment_is_found_by_the_matching_check() -> None:
    # three subtasks that can only take ids 0 or 1: Hall's condition fails before any choice
    domains = [[Candidate(ident, ident, {}) for ident in (0, 1)] for _ in range(3)]
    matcher = Matcher(domains, [], lambda b: True, {})
    assert list(matcher.solutions()) == [] and matcher.choices == 0


def test_the_search_is_bounded_and_says_so() -> None:
    # every complete assignment rejected only at the end (the caller's check), so all are enumerated
    matcher = Matcher(identical(9), [], lambda b: True, {}, limit=1000)
    with pytest.raises(SearchTooLong):
        for _ in matcher.solutions():
            pass


def test_a_large_network_of_distinguishable_tasks_costs_no_pairwise_search() -> None:
    # a root network of 300 tasks with their own arguments: each id fits one task, no pair is related
    domains = [[Candidate(ident, 299 - ident, {})] for ident in range(300)]
    matcher = Matcher(domains, [], lambda binding: True, {})
    assignment, _ = next(matcher.solutions())
    assert [c.ident for c in assignment] == list(range(300)) and matcher.choices == 300
    assert not any(matcher.neighbours)


def test_a_parameter_no_object_fits_is_decided_without_trying_every_assignment(tmp_path: Path) -> None:
    # nine interchangeable subtasks and a parameter ?z of a type without objects: whatever the
    # assignment, nothing binds ?z, so the first assignment's failure settles it (9! before)
    from pddltools.hddl.verify import HTNTask, verify_plan

    n = 9
    subtasks = " ".join(f"(s{i} (tick ?a{i}))" for i in range(n))
    (tmp_path / "domain.hddl").write_text(
        "(define (domain perm) (:requirements :hierarchy :typing) (:types obj rare)\n"
        "  (:predicates (done ?x - obj)) (:task t :parameters ())\n"
        f"  (:method m :parameters ({' '.join(f'?a{i}' for i in range(n))} - obj ?z - rare) :task (t)\n"
        f"    :subtasks (and {subtasks}))\n"
        "  (:action tick :parameters (?x - obj) :effect (done ?x)))\n")
    (tmp_path / "problem.hddl").write_text(
        f"(define (problem p) (:domain perm) (:objects {' '.join(f'o{i}' for i in range(n))} - obj)\n"
        "  (:htn :parameters () :subtasks (and (r (t)))) (:init))\n")
    steps = "".join(f"{i} (tick o{i})\n" for i in range(n))
    (tmp_path / "plan.txt").write_text(f"==>\n{steps}root {n}\n{n} t -> m {' '.join(map(str, range(n)))}\n<==\n")
    report = verify_plan(HTNTask.load(tmp_path / "domain.hddl", tmp_path / "problem.hddl"), tmp_path / "plan.txt")
    assert report.diagnostics[0].code == "V111" and "do not instantiate" in report.diagnostics[0].message
