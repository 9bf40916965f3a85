(define (domain unknown-preference)
  (:requirements :strips :preferences)
  (:predicates (done ?x))
  (:action do :parameters (?x) :precondition (and) :effect (done ?x)))
