; No road is ever built: the goal asks for (road y z), which is static and false, so no plan exists.
(define (problem roads-unbuilt)
  (:domain roads)
  (:objects x y z - city)
  (:init (at x) (road x y) (= (length x y) 7) (= (total-cost) 0))
  (:goal (and (at z) (road y z)))
  (:metric minimize (total-cost)))
