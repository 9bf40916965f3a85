; Continuous effects: fluents that change with #t during a durative action.
(define (domain heating)
  (:requirements :durative-actions :continuous-effects :numeric-fluents)
  (:functions (temperature) (fuel) (heat-rate))
  (:durative-action heat
    :parameters ()
    :duration (<= ?duration 60)
    :condition (over all (> (fuel) 0))
    :effect (and (increase (temperature) (* #t (heat-rate)))
                 (decrease (fuel) (* #t 0.5)))))
