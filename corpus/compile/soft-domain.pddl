; A net-benefit task: soft goals with penalties, and action costs.
(define (domain soft)
  (:requirements :strips :action-costs :goal-utilities)
  (:predicates (at ?x) (road ?x ?y) (visited ?x))
  (:functions (total-cost) - number)
  (:action go
    :parameters (?x ?y)
    :precondition (and (at ?x) (road ?x ?y))
    :effect (and (not (at ?x)) (at ?y) (visited ?y) (increase (total-cost) 2))))
