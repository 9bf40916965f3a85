(define (problem tank1) (:domain tank)
  (:init (= (level) 0) (= (capacity) 12) (= (rate) 2) (= (opened) 0))
  (:goal (and (>= (level) 10) (not (overflowed))))
  (:metric minimize (+ (* 10 (opened)) (total-time))))
