; expect: E214 8
(define (domain object-fluent-update)
  (:requirements :strips :typing :object-fluents)
  (:types room)
  (:functions (location) - room)
  (:predicates (lit ?r - room))
  (:action step :parameters (?r - room) :precondition (lit ?r)
    :effect (increase (location) 1)))
