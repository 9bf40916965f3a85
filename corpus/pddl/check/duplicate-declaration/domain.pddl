; expect: E211 5
; expect: E211 8
(define (domain duplicate-declaration)
  (:requirements :strips)
  (:predicates (on ?x) (on ?x ?y))
  (:action a :parameters (?x) :precondition (on ?x) :effect (not (on ?x)))
  (:action b :parameters (?x) :precondition (on ?x) :effect (not (on ?x)))
  (:action a :parameters (?x) :precondition (on ?x) :effect (not (on ?x))))
