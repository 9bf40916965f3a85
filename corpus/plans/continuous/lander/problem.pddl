(define (problem lander-1) (:domain lander)
  (:init (flying) (= (h) 100) (= (v) 0) (= (g) 1) (= (thrust) 1) (= (fuel) 40) (= (safe) -4))
  (:goal (landed))
  (:metric minimize (fuel)))
