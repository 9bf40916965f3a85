; expect: E209 8
(define (domain object-for-number)
  (:requirements :strips :numeric-fluents)
  (:predicates (at ?x))
  (:functions (fuel))
  (:action go :parameters (?x)
    :precondition (at ?x)
    :effect (increase (fuel) ?x)))
