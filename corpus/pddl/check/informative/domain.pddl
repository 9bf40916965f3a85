; expect: I402 6
; expect: I403 6
; expect: I404 7
(define (domain informative)
  (:requirements :strips)
  (:predicates (road ?x ?y) (at ?x) (unused))
  (:action drive :parameters (?x ?y ?driver) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (at ?y) (not (at ?x)))))
