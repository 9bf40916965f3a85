; expect: W603 7
; expect: W603 8
(define (problem trip)
  (:domain trader)
  (:objects home - market)
  (:init (at home) (= (cash) 0)
    (= (fuel) 7.0)
    (= (cahs) 3))
  (:goal (>= (cash) 20)))
