; expect: E210 8
(define (domain object-fluent-type)
  (:requirements :strips :typing :object-fluents)
  (:types room key)
  (:functions (location) - room)
  (:predicates (open ?r - room))
  (:action misplace :parameters (?k - key ?r - room) :precondition (open ?r)
    :effect (assign (location) ?k)))
