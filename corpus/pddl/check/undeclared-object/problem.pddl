; expect: E204 5
(define (problem p) (:domain undeclared-object)
  (:objects home work)
  (:init (at home work))
  (:goal (at work hom)))
