(define (domain d)
  (:requirements :strips)
  (:predicates (at ?x ?p) (road ?a ?b))
  (:action drive :parameters (?x ?a ?b) :precondition (and (at ?x ?a) (road ?a ?b))
    :effect (and (at ?x ?b) (not (at ?x ?a)))))
; expect: I413 3
; expect: I402 3
