; expect: E206 6
(define (domain wrong-arity)
  (:requirements :strips)
  (:predicates (on ?x ?y) (clear ?x))
  (:action stack :parameters (?x ?y)
    :precondition (clear ?x ?y)
    :effect (on ?x ?y)))
