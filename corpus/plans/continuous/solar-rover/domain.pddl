; A solar rover (after the rover domains of the PDDL+ and TIL literature): it charges while the sun is
; up, a process switched on and off by timed initial literals, and draws on the energy continuously
; while it drives, a durative action with a continuous effect and an invariant on the energy.
(define (domain solar-rover)
  (:requirements :typing :fluents :durative-actions :time :timed-initial-literals :negative-preconditions)
  (:types waypoint)
  (:predicates (sunny) (at ?w - waypoint) (photo ?w - waypoint) (moving))
  (:functions (energy) (distance ?a ?b - waypoint))
  (:process charging
    :parameters ()
    :precondition (sunny)
    :effect (increase (energy) (* #t 2)))
  (:durative-action drive
    :parameters (?from ?to - waypoint)
    :duration (= ?duration (distance ?from ?to))
    :condition (and (at start (at ?from)) (at start (not (moving))) (over all (>= (energy) 0)))
    :effect (and (at start (not (at ?from))) (at start (moving)) (at end (not (moving))) (at end (at ?to))
                 (decrease (energy) (* #t 3))))
  (:durative-action take-photo
    :parameters (?w - waypoint)
    :duration (= ?duration 2)
    :condition (and (at start (>= (energy) 10)) (over all (at ?w)) (over all (sunny)))
    :effect (and (at start (decrease (energy) 10)) (at end (photo ?w)))))
