; Action costs: total-cost increased by a constant and by a cost function.
(define (domain roads)
  (:requirements :strips :typing :action-costs)
  (:types city)
  (:predicates (at ?c - city) (road ?a ?b - city))
  (:functions (total-cost) - number
              (distance ?a ?b - city) - number)
  (:action drive
    :parameters (?a ?b - city)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) (distance ?a ?b))))
  (:action teleport
    :parameters (?a ?b - city)
    :precondition (at ?a)
    :effect (and (at ?b) (not (at ?a)) (increase (total-cost) 100))))
