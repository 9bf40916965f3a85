from __future__ import annotations

from pddltools.pddl import parse_domain, parse_problem
from pddltools.pddl.type_hierarchy import TypeHierarchy, objects_by_type, typed_objects

DOMAIN = """(define (domain d) (:requirements :typing)
  (:types truck airplane - vehicle vehicle place - object city - (either place region) loop - loop)
  (:constants hq - city))"""
PROBLEM = """(define (problem p) (:domain d)
  (:objects t1 - truck a1 - airplane home - place x - (either truck place) u - undeclared))"""


def test_ancestors_follow_the_declarations_and_either_parents() -> None:
    h = TypeHierarchy.of(parse_domain(DOMAIN))
    assert h.ancestors("truck") == {"truck", "vehicle", "object"}
    assert h.ancestors("city") == {"city", "place", "region", "object"}
    assert h.is_subtype("city", "region") and not h.is_subtype("place", "city")
    assert h.subtypes("vehicle") == {"vehicle", "truck", "airplane"}
    assert h.ancestors("unknown") == {"unknown", "object"}


def test_a_self_parent_is_ignored_and_a_real_cycle_is_found() -> None:
    h = TypeHierarchy.of(parse_domain("(define (domain c) (:types a - b b - a))"))
    assert h.cycles() == ["a", "b"]
    assert h.ancestors("a") == {"a", "b"}
    assert TypeHierarchy.of(parse_domain(DOMAIN)).cycles() == []


def test_objects_by_type_includes_constants_subtypes_and_either_objects() -> None:
    domain, problem = parse_domain(DOMAIN), parse_problem(PROBLEM)
    h = TypeHierarchy.of(domain)
    members = objects_by_type(h, typed_objects(domain, problem))
    assert members["vehicle"] == ("t1", "a1", "x")
    assert members["place"] == ("hq", "home", "x")
    assert members["region"] == ("hq",)
    assert members["undeclared"] == ("u",)
    assert set(members["object"]) == {"hq", "t1", "a1", "home", "x", "u"}
    assert h.fits(("truck",), parse_domain("(define (domain e) (:types q - (either vehicle place)))").types[0].type)
