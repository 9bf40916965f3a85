; expect: E602 5
(define (problem p) (:domain metric-undeclared)
  (:init (= (total-cost) 0))
  (:goal (done))
  (:metric minimize (total-costs)))
