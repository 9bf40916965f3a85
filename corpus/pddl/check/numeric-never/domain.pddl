(define (domain d)
  (:requirements :strips :numeric-fluents)
  (:predicates (done))
  (:functions (fuel))
  (:action go :parameters () :precondition (> (fuel) 10)
    :effect (and (done) (decrease (fuel) 1))))
; expect: I406 5
; expect: I412 5
