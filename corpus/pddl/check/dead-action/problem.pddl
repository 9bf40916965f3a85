(define (problem p) (:domain d)
  (:objects a)
  (:init)
  (:goal (at a)))
