(define (problem car1) (:domain car_linear)
  (:init (stopped) (= (d) 0) (= (v) 0) (= (a) 0) (= (max_acc) 1) (= (min_acc) -1) (= (fuel) 100))
  (:goal (and (stopped) (>= (d) 30) (<= (d) 60) (not (alarm))))
  (:metric minimize (total-time)))
