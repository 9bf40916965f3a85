(define (problem car-1) (:domain car-durative)
  (:init (= (d) 0) (= (v) 0) (= (vmax) 6))
  (:goal (and (>= (d) 40) (not (engine-on))))
  (:metric minimize (total-time)))
