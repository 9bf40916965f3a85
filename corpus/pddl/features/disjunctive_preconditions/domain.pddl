; Disjunctive preconditions: or and imply.
(define (domain weather)
  (:requirements :strips :disjunctive-preconditions)
  (:predicates (sunny) (windy) (dry ?x) (outside ?x) (covered ?x))
  (:action hang-washing
    :parameters (?x)
    :precondition (or (sunny) (windy))
    :effect (dry ?x))
  (:action bring-in
    :parameters (?x)
    :precondition (imply (outside ?x) (covered ?x))
    :effect (not (outside ?x))))
