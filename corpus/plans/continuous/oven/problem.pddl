(define (problem oven-1) (:domain oven)
  (:init (= (temp) 20) (= (element) 220) (= (room) 20) (= (k) 0.1) (= (low) 150) (= (high) 210))
  (:goal (baked))
  (:metric minimize (total-time)))
