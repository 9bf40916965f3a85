; Conditional effects: when, forall effects, and when inside forall.
(define (domain lights)
  (:requirements :typing :conditional-effects :negative-preconditions)
  (:types bulb)
  (:predicates (lit ?b - bulb) (broken ?b - bulb) (power))
  (:action toggle
    :parameters (?b - bulb)
    :effect (and (when (lit ?b) (not (lit ?b)))
                 (when (and (not (lit ?b)) (not (broken ?b))) (lit ?b))))
  (:action blackout
    :parameters ()
    :effect (and (not (power))
                 (forall (?b - bulb) (not (lit ?b)))))
  (:action surge
    :parameters ()
    :effect (forall (?b - bulb) (when (lit ?b) (broken ?b)))))
