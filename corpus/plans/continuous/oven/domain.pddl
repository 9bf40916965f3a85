; Exponential change (Newton's law of heating and cooling, as in the PDDL+ cooling and thermostat
; domains): a heating durative action drives the temperature towards the element's temperature,
; dT/dt = k (element - T), a cooling process towards the room's when the door is open; a bake needs
; the temperature within bounds over all of it.
(define (domain oven)
  (:requirements :fluents :durative-actions :time :negative-preconditions :duration-inequalities)
  (:predicates (heating) (door-open) (baked))
  (:functions (temp) (element) (room) (k) (low) (high))
  (:durative-action heat
    :parameters ()
    :duration (<= ?duration 100)
    :condition (and (at start (not (heating))) (at start (not (door-open))))
    :effect (and (at start (heating)) (at end (not (heating)))
                 (increase (temp) (* #t (* (k) (- (element) (temp)))))))
  (:action open-door :parameters () :precondition (not (door-open)) :effect (door-open))
  (:action close-door :parameters () :precondition (door-open) :effect (not (door-open)))
  (:process cooling
    :parameters ()
    :precondition (door-open)
    :effect (decrease (temp) (* #t (* 0.5 (- (temp) (room))))))
  (:durative-action bake
    :parameters ()
    :duration (= ?duration 10)
    :condition (and (at start (>= (temp) (low))) (over all (and (>= (temp) (low)) (<= (temp) (high)))))
    :effect (at end (baked))))
