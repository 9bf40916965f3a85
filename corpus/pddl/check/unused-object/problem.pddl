(define (problem p) (:domain d)
  (:objects a b c)
  (:init (at a) (road a b))
  (:goal (at b)))
; expect: I411 2
