; The linear generator of the PDDL+ literature (Fox & Long; Howey & Long's VAL papers): a durative
; action burns fuel continuously while a refuel process, whose flow grows with the time it has run,
; fills the generator from a tank until an event finds the tank empty.
(define (domain generator)
  (:requirements :typing :fluents :durative-actions :time :negative-preconditions)
  (:types generator tank)
  (:predicates (refueling ?g - generator ?t - tank) (available ?t - tank) (generator-ran))
  (:functions (fuel-level ?g - generator) (capacity ?g - generator) (fuel-in-tank ?t - tank)
              (ptime ?t - tank))
  (:durative-action generate
    :parameters (?g - generator)
    :duration (= ?duration 1000)
    :condition (over all (and (>= (fuel-level ?g) 0) (<= (fuel-level ?g) (capacity ?g))))
    :effect (and (decrease (fuel-level ?g) (* #t 1)) (at end (generator-ran))))
  (:action refuel
    :parameters (?g - generator ?t - tank)
    :precondition (and (available ?t))
    :effect (and (not (available ?t)) (refueling ?g ?t) (assign (ptime ?t) 0)))
  (:process refuelling
    :parameters (?g - generator ?t - tank)
    :precondition (refueling ?g ?t)
    :effect (and (increase (ptime ?t) (* #t 1))
                 (increase (fuel-level ?g) (* #t (* 0.1 (ptime ?t))))
                 (decrease (fuel-in-tank ?t) (* #t (* 0.1 (ptime ?t))))))
  (:event tank-empty
    :parameters (?g - generator ?t - tank)
    :precondition (and (refueling ?g ?t) (<= (fuel-in-tank ?t) 0))
    :effect (not (refueling ?g ?t))))
