(define (problem loop1) (:domain loop)
  (:init (= (x) 0) (= (pings) 0))
  (:goal (and (>= (pings) 1))))
