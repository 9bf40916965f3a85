; expect: E104 7:3 a problem has at most one :metric section
(define (problem p)
  (:domain d)
  (:init (= (total-cost) 0))
  (:goal (and))
  (:metric minimize (total-cost))
  (:metric maximize (total-time)))
