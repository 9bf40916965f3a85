"""Durative-action shapes the grammar rules out, built as trees (as a compiler pass might build them)."""

from __future__ import annotations

import dataclasses

from pddltools.check import check
from pddltools.pddl import ast, parse_domain

DOMAIN = """(define (domain d) (:requirements :durative-actions :numeric-fluents)
  (:predicates (ready) (done)) (:functions (level))
  (:durative-action work :parameters () :duration (= ?duration 2)
    :condition (at start (ready))
    :effect (and (at end (done)) (increase (level) (* #t 1)))))"""


def _with(condition: ast.Formula | None = None, effect: ast.Effect | None = None) -> ast.Domain:
    domain = parse_domain(DOMAIN)
    action = domain.durative_actions[0]
    action = dataclasses.replace(action, condition=condition or action.condition, effect=effect or action.effect)
    return dataclasses.replace(domain, structures=(action,))


def codes(domain: ast.Domain) -> list[str]:
    return [f.code for f in check(domain).findings if f.code.startswith("E")]


def test_a_well_formed_durative_action_with_a_continuous_effect_passes() -> None:
    assert codes(parse_domain(DOMAIN)) == []


def test_an_untimed_condition_is_e451() -> None:
    domain = _with(condition=ast.And((ast.Timed("start", ast.Atom("ready")), ast.Atom("ready"))))
    assert codes(domain) == ["E451"]


def test_an_untimed_effect_and_an_over_all_effect_are_e452() -> None:
    effect = ast.AndEffect((ast.Atom("done"), ast.Timed("all", ast.Atom("done"))))
    assert codes(_with(effect=effect)) == ["E452", "E452"]
