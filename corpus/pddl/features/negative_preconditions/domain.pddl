; Negative preconditions: (not atom) in a precondition and in a goal.
(define (domain doors)
  (:requirements :strips :negative-preconditions)
  (:predicates (locked ?d) (open ?d))
  (:action open-door
    :parameters (?d)
    :precondition (and (not (locked ?d)) (not (open ?d)))
    :effect (open ?d)))
