; Action costs: total-cost increased by a constant and by a fluent.
(define (domain roads)
  (:requirements :typing :action-costs)
  (:types city)
  (:predicates (at ?c - city) (road ?a ?b - city))
  (:functions (total-cost) - number (length ?a ?b - city) - number)
  (:action drive
    :parameters (?a ?b - city)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b) (increase (total-cost) (length ?a ?b))))
  (:action fly
    :parameters (?a ?b - city)
    :precondition (at ?a)
    :effect (and (not (at ?a)) (at ?b) (increase (total-cost) 100))))
