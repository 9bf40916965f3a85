; expect: W211 4
(define (domain repeated-declaration)
  (:requirements :strips)
  (:predicates (clear ?x) (clear ?y))
  (:action free :parameters (?x) :precondition (and) :effect (clear ?x)))
