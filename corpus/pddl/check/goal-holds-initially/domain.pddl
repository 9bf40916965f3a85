(define (domain d)
  (:requirements :strips)
  (:predicates (at ?x) (seen ?x))
  (:action go :parameters (?x) :precondition (and) :effect (at ?x)))
; expect: I403 3
