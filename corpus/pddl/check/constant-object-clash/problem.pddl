; expect: W217 3
(define (problem p) (:domain constant-object-clash)
  (:objects r1 - robot hall - robot)
  (:init)
  (:goal (in r1 hall)))
