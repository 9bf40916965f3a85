; PDDL 2.1 level 3 with timed initial literals: start/over all/end conditions, duration constraints
; that read fluents, additive end effects that commute.
(define (domain workshop)
  (:requirements :typing :durative-actions :numeric-fluents :timed-initial-literals)
  (:types machine part)
  (:predicates (free ?m - machine) (raw ?p - part) (done ?p - part) (inspected ?p - part)
               (powered) (daylight))
  (:functions (speed ?m - machine) (energy))
  (:durative-action process
    :parameters (?p - part ?m - machine)
    :duration (= ?duration (/ 10 (speed ?m)))
    :condition (and (at start (free ?m)) (at start (raw ?p)) (over all (powered)))
    :effect (and (at start (not (free ?m))) (at end (free ?m)) (at end (done ?p)) (at end (not (raw ?p)))
                 (at end (decrease (energy) 1))))
  (:durative-action inspect
    :parameters (?p - part)
    :duration (and (>= ?duration 2) (<= ?duration 4))
    :condition (and (at start (done ?p)) (over all (daylight)))
    :effect (at end (inspected ?p)))
  (:durative-action cut-power
    :parameters ()
    :duration (= ?duration 1)
    :condition (at start (powered))
    :effect (and (at start (not (powered))) (at end (powered)))))
