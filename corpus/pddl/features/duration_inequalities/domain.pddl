; Duration inequalities: the planner chooses a duration between bounds.
(define (domain charging)
  (:requirements :typing :durative-actions :duration-inequalities :numeric-fluents)
  (:types battery)
  (:functions (charge ?b - battery) (max-time))
  (:durative-action charge
    :parameters (?b - battery)
    :duration (and (>= ?duration 1) (<= ?duration (max-time)))
    :condition (at start (< (charge ?b) 100))
    :effect (at end (increase (charge ?b) (* 10 ?duration))))
  (:durative-action top-up
    :parameters (?b - battery)
    :duration (at end (<= ?duration 5))
    :condition ()
    :effect (at end (assign (charge ?b) 100))))
