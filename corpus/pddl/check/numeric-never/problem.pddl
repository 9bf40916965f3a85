(define (problem p) (:domain d)
  (:init (= (fuel) 5))
  (:goal (done)))
; expect: W405 3
