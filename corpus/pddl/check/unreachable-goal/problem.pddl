; expect: W401 5
(define (problem p) (:domain unreachable-goal)
  (:objects a b)
  (:init (at a) (road a b))
  (:goal (and (at b) (road b a))))
