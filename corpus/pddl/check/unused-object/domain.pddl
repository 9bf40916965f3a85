(define (domain d)
  (:requirements :strips)
  (:predicates (at ?x) (road ?x ?y))
  (:action drive :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (at ?y) (not (at ?x)))))
; expect: I413 3
; expect: I402 3
