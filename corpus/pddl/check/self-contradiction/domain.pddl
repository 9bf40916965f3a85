(define (domain d)
  (:requirements :strips :negative-preconditions)
  (:predicates (ready ?x) (done ?x))
  (:action a :parameters (?x) :precondition (and (ready ?x) (not (ready ?x)))
    :effect (done ?x)))
; expect: I402 3
; expect: W407 4
