; Action costs, one constant and one read from a static function.
(define (domain costs)
  (:requirements :strips :action-costs)
  (:predicates (at ?x) (road ?x ?y))
  (:functions (total-cost) - number (length ?x ?y) - number)
  (:action drive
    :parameters (?x ?y)
    :precondition (and (at ?x) (road ?x ?y))
    :effect (and (not (at ?x)) (at ?y) (increase (total-cost) (length ?x ?y))))
  (:action fly
    :parameters (?x ?y)
    :precondition (at ?x)
    :effect (and (not (at ?x)) (at ?y) (increase (total-cost) 100))))
