; A car on a straight road (after the car domains of ENHSP and Unified Planning's tests, written anew):
; the driver changes the acceleration; the velocity and the distance change continuously; an event
; stops the engine when the car is too fast, and it falsifies its own precondition.
(define (domain car-linear)
  (:requirements :numeric-fluents :negative-preconditions :time)
  (:predicates (running) (blown))
  (:functions (d) (v) (a) (max-a) (min-a) (limit))
  (:action accelerate
    :parameters ()
    :precondition (and (running) (< (a) (max-a)))
    :effect (increase (a) 1))
  (:action decelerate
    :parameters ()
    :precondition (and (running) (> (a) (min-a)))
    :effect (decrease (a) 1))
  (:action stop
    :parameters ()
    :precondition (and (running) (= (v) 0) (= (a) 0))
    :effect (not (running)))
  (:process moving
    :parameters ()
    :precondition (running)
    :effect (and (increase (v) (* #t (a)))
                 (increase (d) (* #t (v)))))
  (:event too-fast
    :parameters ()
    :precondition (and (running) (> (v) (limit)))
    :effect (and (not (running)) (blown))))
