(define (domain undeclared-object)
  (:requirements :strips)
  (:predicates (at ?x ?y))
  (:action go :parameters (?x ?y) :precondition (at ?x ?y) :effect (at ?y ?x)))
