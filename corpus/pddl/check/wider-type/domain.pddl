; expect: W207 8
(define (domain wider-type)
  (:requirements :strips :typing)
  (:types truck - vehicle place)
  (:predicates (at ?v - vehicle ?p - place) (refuelled ?t - truck))
  (:action refuel :parameters (?v - vehicle ?p - place)
    :precondition (at ?v ?p)
    :effect (refuelled ?v)))
