(define (problem ball1) (:domain ball)
  (:init (held) (= (h) 10) (= (v) 0) (= (g) 9.8))
  (:goal (and (held) (<= (h) 6)))
  (:metric minimize (h)))
