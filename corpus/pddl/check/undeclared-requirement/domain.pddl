; expect: W501 6
(define (domain undeclared-requirement)
  (:requirements :strips)
  (:predicates (clear ?x) (on ?x ?y))
  (:action drop :parameters (?x ?y)
    :precondition (not (clear ?x))
    :effect (on ?x ?y)))
