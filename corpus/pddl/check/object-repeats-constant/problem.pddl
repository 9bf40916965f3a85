; expect: W302 3
(define (problem p) (:domain object-repeats-constant)
  (:objects home)
  (:init)
  (:goal (at home)))
