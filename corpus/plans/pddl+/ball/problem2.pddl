(define (problem ball2) (:domain ball)
  (:init (held) (= (h) 10) (= (v) 0) (= (g) 9.81))
  (:goal (and (held) (<= (h) 6)))
  (:metric minimize (h)))
