; Plain STRIPS: untyped parameters, add and delete effects.
(define (domain lamps)
  (:requirements :strips)
  (:predicates (off ?l) (on ?l) (switch-of ?s ?l))
  (:action press
    :parameters (?s ?l)
    :precondition (and (switch-of ?s ?l) (off ?l))
    :effect (and (on ?l) (not (off ?l)))))
