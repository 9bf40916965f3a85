; expect: E208 7
(define (domain number-for-object)
  (:requirements :strips :numeric-fluents)
  (:predicates (at ?x))
  (:functions (position))
  (:action go :parameters ()
    :precondition (at (position))
    :effect (increase (position) 1)))
