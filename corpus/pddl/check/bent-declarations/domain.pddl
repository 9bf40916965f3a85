; expect: W215 7
; expect: W216 8
; expect: W216 9
(define (domain bent-declarations)
  (:requirements :strips :typing :numeric-fluents)
  (:types place area - object
          area - place)
  (:predicates (in ?x ?x - area))
  (:functions (distance ?a ?a - place))
  (:action stay :parameters (?a - area) :precondition (in ?a ?a) :effect (not (in ?a ?a))))
