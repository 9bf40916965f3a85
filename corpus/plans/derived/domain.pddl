; Derived predicates: a recursive one (reachable, a fixpoint) and one that negates it in a higher
; stratum (isolated). Actions read both.
(define (domain graph)
  (:requirements :typing :derived-predicates :negative-preconditions)
  (:types node)
  (:predicates (edge ?a ?b - node) (reachable ?a ?b - node) (isolated ?n - node) (marked ?n - node)
               (start ?n - node))
  (:derived (reachable ?a ?b - node) (or (edge ?a ?b) (exists (?c - node) (and (edge ?a ?c) (reachable ?c ?b)))))
  (:derived (isolated ?n - node) (forall (?m - node) (not (reachable ?m ?n))))
  (:action connect
    :parameters (?a ?b - node)
    :precondition (and (not (edge ?a ?b)) (isolated ?b))
    :effect (edge ?a ?b))
  (:action mark
    :parameters (?n - node)
    :precondition (exists (?s - node) (and (start ?s) (reachable ?s ?n)))
    :effect (marked ?n)))
