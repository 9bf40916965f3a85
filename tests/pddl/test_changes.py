"""What a domain's effects change (`pddltools.pddl.changes`): one computation that the checker, the compiler
and the semantics share, counting the effects of every action, durative action, process and event."""

from __future__ import annotations

from pddltools.check.facts import DomainFacts
from pddltools.compile.statics import static_predicates as compiler_statics
from pddltools.pddl.changes import changed_predicates, changes, static_functions, static_predicates
from pddltools.pddl.parser import parse_domain

DOMAIN = parse_domain("""(define (domain d)
  (:requirements :adl :durative-actions :time :numeric-fluents :derived-predicates)
  (:predicates (road ?a ?b) (at ?a) (hot) (lit) (done) (reachable ?a))
  (:functions (fuel) (speed) (capacity))
  (:derived (reachable ?a) (at ?a))
  (:action go :parameters (?a ?b) :precondition (road ?a ?b)
    :effect (and (at ?b) (not (at ?a)) (forall (?c) (when (road ?a ?c) (decrease (fuel) 1)))))
  (:durative-action light :parameters () :duration (= ?duration 1) :condition (at start (hot))
    :effect (at end (lit)))
  (:event overheat :parameters () :precondition (> (speed) 3) :effect (and (done) (assign (speed) 0))))
""")


def test_every_kind_of_effect_counts() -> None:
    found = changes(DOMAIN)
    assert found.added == {"at", "lit", "done"} and found.deleted == {"at"}
    assert found.updated_functions == {"fuel", "speed"} and found.assigned_functions == {"speed"}
    # read only (road, hot), never by an effect; a derived predicate is not static however it is read
    assert static_predicates(DOMAIN) == {"road", "hot"}
    assert static_functions(DOMAIN) == {"capacity"}
    assert changed_predicates(DOMAIN.actions[0].effect) == {"at"}  # type: ignore[arg-type]


def test_it_is_computed_once_per_domain_and_shared() -> None:
    assert changes(DOMAIN) is changes(DOMAIN)
    facts = DomainFacts.of(DOMAIN)
    assert facts.changes is changes(DOMAIN) and facts.added == {"at", "lit", "done"}
    assert compiler_statics(DOMAIN) is changes(DOMAIN).static_predicates
    # an equal domain parsed again is another object, with its own (equal) answer
    again = parse_domain(str(DOMAIN))
    assert changes(again) == changes(DOMAIN) and changes(again) is not changes(DOMAIN)
