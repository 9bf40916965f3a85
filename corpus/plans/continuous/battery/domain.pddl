; PDDL 2.1 level 4 with concurrent continuous change (after the battery and planetary-lander domains
; of COLIN and OPTIC): a charger and consumers change one state of charge at once, each at its own
; rate, and the charge must stay within [0, capacity] throughout. (A rate that reads ?duration,
; `(/ (need ?c) ?duration)`, fails VAL's type check: "Effects fail type-checking".)
(define (domain battery)
  (:requirements :typing :durative-actions :fluents :continuous-effects :duration-inequalities)
  (:types consumer)
  (:predicates (done ?c - consumer) (charging))
  (:functions (soc) (capacity) (charge-rate) (use-rate ?c - consumer))
  (:durative-action charge
    :parameters ()
    :duration (<= ?duration 100)
    :condition (and (at start (not (charging))) (over all (<= (soc) (capacity))))
    :effect (and (at start (charging)) (at end (not (charging))) (increase (soc) (* #t (charge-rate)))))
  (:durative-action run
    :parameters (?c - consumer)
    :duration (and (>= ?duration 2) (<= ?duration 20))
    :condition (and (at start (>= (soc) 1)) (over all (>= (soc) 0)))
    :effect (and (at end (done ?c)) (decrease (soc) (* #t (use-rate ?c))))))
