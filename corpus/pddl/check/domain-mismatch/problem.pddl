; expect: E301 2
(define (problem p) (:domain domain-mismach)
  (:init)
  (:goal (done)))
