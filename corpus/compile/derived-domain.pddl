; A non-recursive derived predicate built on another.
(define (domain derived)
  (:requirements :strips :derived-predicates :negative-preconditions :existential-preconditions)
  (:predicates (has ?x ?y) (owner ?x) (free ?y) (busy ?y))
  (:derived (owner ?x) (exists (?y) (has ?x ?y)))
  (:derived (free ?y) (not (busy ?y)))
  (:action take
    :parameters (?x ?y)
    :precondition (and (free ?y) (not (owner ?x)))
    :effect (and (has ?x ?y) (busy ?y))))
