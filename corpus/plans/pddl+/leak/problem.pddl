(define (problem leak1) (:domain leak)
  (:init (ready) (= (pressure) 0))
  (:goal (and (done) (>= (pressure) 0)))
  (:metric minimize (pressure)))
