; expect: E202 6
(define (domain undeclared-predicate)
  (:requirements :strips)
  (:predicates (clear ?x) (holding ?x))
  (:action pick :parameters (?x)
    :precondition (claer ?x)
    :effect (holding ?x)))
