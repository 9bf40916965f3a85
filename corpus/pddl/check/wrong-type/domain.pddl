; expect: E207 7
(define (domain wrong-type)
  (:requirements :strips :typing)
  (:types truck package place)
  (:predicates (at ?t - truck ?p - place) (in ?p - package ?t - truck))
  (:action load :parameters (?p - package ?t - truck ?l - place)
    :precondition (at ?p ?l)
    :effect (in ?p ?t)))
