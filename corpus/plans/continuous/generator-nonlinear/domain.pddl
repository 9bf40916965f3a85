; The non-linear generator of the PDDL+ literature written in PDDL 2.1 level 4 (as COLIN and OPTIC
; read it): refuelling is a durative action whose flow grows with the time it has run, so the fuel
; level is quadratic in time while it runs beside the generator's linear consumption.
(define (domain generator-nonlinear)
  (:requirements :typing :fluents :durative-actions :duration-inequalities :negative-preconditions)
  (:types generator tank)
  (:predicates (available ?t - tank) (generator-ran))
  (:functions (fuel-level ?g - generator) (capacity ?g - generator) (ptime ?t - tank))
  (:durative-action generate
    :parameters (?g - generator)
    :duration (= ?duration 100)
    :condition (over all (and (>= (fuel-level ?g) 0) (<= (fuel-level ?g) (capacity ?g))))
    :effect (and (decrease (fuel-level ?g) (* #t 1)) (at end (generator-ran))))
  (:durative-action refuel
    :parameters (?g - generator ?t - tank)
    :duration (<= ?duration 10)
    :condition (at start (available ?t))
    :effect (and (at start (not (available ?t))) (at start (assign (ptime ?t) 0))
                 (increase (ptime ?t) (* #t 1))
                 (increase (fuel-level ?g) (* #t (* 0.4 (ptime ?t)))))))
