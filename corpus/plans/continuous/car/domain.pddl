; The car of the PDDL+ literature (Fox & Long; ENHSP's car domains) with durative actions: accelerating
; and braking are durative actions with continuous effects on the speed, the distance is a process
; (d' = v, quadratic while the speed changes), and the speed limit an invariant.
(define (domain car-durative)
  (:requirements :fluents :durative-actions :time :negative-preconditions :duration-inequalities)
  (:predicates (engine-on) (pedal))
  (:functions (d) (v) (vmax))
  (:action start-engine :parameters () :precondition (not (engine-on)) :effect (engine-on))
  (:action stop-engine :parameters () :precondition (and (engine-on) (= (v) 0)) :effect (not (engine-on)))
  (:process moving
    :parameters ()
    :precondition (engine-on)
    :effect (increase (d) (* #t (v))))
  (:durative-action accelerate
    :parameters ()
    :duration (and (>= ?duration 0) (<= ?duration 10))
    :condition (and (at start (engine-on)) (at start (not (pedal))) (over all (<= (v) (vmax))))
    :effect (and (at start (pedal)) (at end (not (pedal))) (increase (v) (* #t 1))))
  (:durative-action brake
    :parameters ()
    :duration (and (>= ?duration 0) (<= ?duration 10))
    :condition (and (at start (engine-on)) (at start (not (pedal))) (over all (>= (v) 0)))
    :effect (and (at start (pedal)) (at end (not (pedal))) (decrease (v) (* #t 2)))))
