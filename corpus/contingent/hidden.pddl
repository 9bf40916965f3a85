; the simulator's hidden initial states: no (:domain ...)
(define (problem three)
  (:hidden (ball-at p2))
  (:hidden (ball-at p3)))
