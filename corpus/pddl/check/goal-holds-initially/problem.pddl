(define (problem p) (:domain d)
  (:objects a)
  (:init (seen a))
  (:goal (and (at a) (seen a))))
; expect: I408 4
