; expect: E212 5
; expect: E212 5
(define (domain type-cycle)
  (:requirements :strips :typing)
  (:types a - b b - a)
  (:predicates (p ?x - a))
  (:action act :parameters (?x - a) :precondition (and) :effect (p ?x)))
