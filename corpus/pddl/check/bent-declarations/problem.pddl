; expect: W217 4
(define (problem p) (:domain bent-declarations)
  (:objects a1 - area
            a1 - place)
  (:init (in a1 a1) (= (distance a1 a1) 0))
  (:goal (in a1 a1)))
