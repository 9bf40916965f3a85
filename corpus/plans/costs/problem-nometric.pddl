; the same task without :metric: the value is the number of steps (VAL), the cost still 12
(define (problem roads-2)
  (:domain roads)
  (:objects x y z - city)
  (:init (at x) (road x y) (road y z) (= (length x y) 7) (= (length y z) 5) (= (total-cost) 0))
  (:goal (at z)))
