(define (domain d)
  (:requirements :strips)
  (:predicates (at ?x) (visited ?x))
  (:action go :parameters (?x) :precondition (and) :effect (and (at ?x) (visited ?x))))
; expect: I410 4
