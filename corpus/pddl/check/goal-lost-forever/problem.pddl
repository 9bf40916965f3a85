(define (problem p) (:domain d)
  (:objects a)
  (:init (intact a))
  (:goal (intact a)))
; expect: I409 4
