; Derived predicates: a recursive axiom (reachability) used in a precondition.
(define (domain graph)
  (:requirements :strips :typing :derived-predicates :existential-preconditions)
  (:types node)
  (:predicates (edge ?a ?b - node) (reachable ?a ?b - node) (at ?n - node))
  (:derived (reachable ?a ?b - node)
    (or (edge ?a ?b)
        (exists (?c - node) (and (edge ?a ?c) (reachable ?c ?b)))))
  (:action jump
    :parameters (?a ?b - node)
    :precondition (and (at ?a) (reachable ?a ?b))
    :effect (and (at ?b) (not (at ?a)))))
