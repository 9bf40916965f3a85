; Preferences in a goal: named and unnamed; the metric weighs their violations.
(define (problem errands-one)
  (:domain errands)
  (:requirements :preferences)
  (:init (home))
  (:goal (and (shop)
              (preference back-home (home))
              (preference (rested))))
  (:metric minimize (+ (* 3 (is-violated back-home)) (is-violated well-rested))))
