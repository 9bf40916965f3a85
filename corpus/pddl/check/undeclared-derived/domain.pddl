; expect: E303 5
(define (domain undeclared-derived)
  (:requirements :strips :derived-predicates)
  (:predicates (on ?x ?y))
  (:derived (above ?x ?y) (on ?x ?y))
  (:action unstack :parameters (?x ?y) :precondition (on ?x ?y) :effect (not (on ?x ?y))))
