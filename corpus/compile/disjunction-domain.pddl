; Disjunctions and imply in preconditions; a disjunctive goal.
(define (domain disjunction)
  (:requirements :strips :disjunctive-preconditions :negative-preconditions)
  (:predicates (red ?x) (blue ?x) (done ?x) (ready))
  (:action paint
    :parameters (?x)
    :precondition (or (red ?x) (and (blue ?x) (ready)))
    :effect (done ?x))
  (:action prepare
    :parameters (?x)
    :precondition (imply (red ?x) (done ?x))
    :effect (ready)))
