(define (domain d)
  (:requirements :strips)
  (:predicates (at ?x) (broken ?x))
  (:action go :parameters (?x) :precondition (and) :effect (at ?x))
  (:action mend :parameters (?x) :precondition (broken ?x)
    :effect (not (broken ?x))))
; expect: I406 5
