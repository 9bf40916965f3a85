; expect: E205 6
(define (domain free-variable)
  (:requirements :strips)
  (:predicates (at ?x) (moved ?x))
  (:action move :parameters (?from)
    :precondition (at ?form)
    :effect (moved ?from)))
