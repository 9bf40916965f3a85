(define (problem exchange-1) (:domain exchange)
  (:init (= (a) 20) (= (b) 80))
  (:goal (warm))
  (:metric minimize (a)))
