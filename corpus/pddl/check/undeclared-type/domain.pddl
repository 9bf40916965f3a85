; expect: E201 5
(define (domain undeclared-type)
  (:requirements :strips :typing)
  (:types truck place)
  (:predicates (at ?t - truk ?p - place))
  (:action wait :parameters (?t - truck ?p - place) :precondition (at ?t ?p) :effect (and)))
