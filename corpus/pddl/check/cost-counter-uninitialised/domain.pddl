; expect: I402 7
; expect: I413 7
; expect: I604 10
; As IPC-2014 tetris and IPC-2018 agricola: total-cost is only increased, and the problem gives it no value.
(define (domain cost-counter-uninitialised)
  (:requirements :strips :action-costs)
  (:predicates (at ?x) (road ?x ?y))
  (:functions (total-cost) - number)
  (:action drive :parameters (?x ?y) :precondition (and (at ?x) (road ?x ?y))
    :effect (and (not (at ?x)) (at ?y) (increase (total-cost) 2))))
