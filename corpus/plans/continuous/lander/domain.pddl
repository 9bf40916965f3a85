; A lander (after the planetary-lander and descent domains of the PDDL+ literature): gravity is a
; process, a burn is a durative action pushing the speed up continuously while it consumes fuel, and
; an event marks a touchdown, safe or not, as soon as the height reaches 0.
(define (domain lander)
  (:requirements :fluents :durative-actions :time :negative-preconditions :duration-inequalities)
  (:predicates (flying) (landed) (crashed) (burning))
  (:functions (h) (v) (g) (thrust) (fuel) (safe))
  (:process falling
    :parameters ()
    :precondition (flying)
    :effect (and (increase (h) (* #t (v))) (decrease (v) (* #t (g)))))
  (:durative-action burn
    :parameters ()
    :duration (and (>= ?duration 0) (<= ?duration 50))
    :condition (and (at start (flying)) (at start (not (burning))) (over all (>= (fuel) 0)))
    :effect (and (at start (burning)) (at end (not (burning)))
                 (increase (v) (* #t (thrust))) (decrease (fuel) (* #t 1))))
  (:event touchdown
    :parameters ()
    :precondition (and (flying) (<= (h) 0) (>= (v) (safe)))
    :effect (and (not (flying)) (landed) (assign (v) 0) (assign (h) 0)))
  (:event crash
    :parameters ()
    :precondition (and (flying) (<= (h) 0) (< (v) (safe)))
    :effect (and (not (flying)) (crashed) (assign (v) 0) (assign (h) 0))))
