; A problem may give a value to a function the domain does not declare: nothing reads it (W603).
(define (domain trader)
  (:requirements :typing :numeric-fluents)
  (:types market)
  (:predicates (at ?m - market))
  (:functions (cash))
  (:action sell
    :parameters (?m - market)
    :precondition (at ?m)
    :effect (increase (cash) 10)))
