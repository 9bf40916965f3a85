(define (problem conditional-1)
  (:domain conditional)
  (:init (on c1) (on c2))
  (:goal (and (on c3) (not (on c2)) (on c4) (not (on c1)))))
