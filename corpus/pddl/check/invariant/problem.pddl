(define (problem p) (:domain d)
  (:objects t a b)
  (:init (at t a) (road a b))
  (:goal (at t b)))
