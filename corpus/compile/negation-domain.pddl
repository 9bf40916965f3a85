; Negative preconditions and goals; move deletes one atom and adds another of the same predicate.
(define (domain negation)
  (:requirements :strips :typing :negative-preconditions)
  (:types place)
  (:predicates (at ?p - place) (visited ?p - place) (blocked ?p - place))
  (:action move
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (not (blocked ?to)) (not (visited ?to)))
    :effect (and (not (at ?from)) (at ?to) (visited ?to)))
  (:action block
    :parameters (?p - place)
    :precondition (not (at ?p))
    :effect (blocked ?p)))
