; Contingent PDDL (CLG): a sensing action (:observe) and one with a cp2fsc sensing model
(define (domain find-ball)
  (:requirements :typing)
  (:types pos)
  (:predicates (at ?p - pos) (ball-at ?p - pos) (adj ?a ?b - pos) (holding))
  (:variable (ball-pos) (forall (?p - pos) (ball-at ?p)))
  (:action look
    :parameters (?p - pos)
    :precondition (at ?p)
    :observe (ball-at ?p))
  (:action move
    :parameters (?a ?b - pos)
    :precondition (and (at ?a) (adj ?a ?b))
    :effect (and (at ?b) (not (at ?a)))
    :sensing-model (forall (?c - pos) (when (adj ?b ?c) (ball-at ?c))))
  (:action pick
    :parameters (?p - pos)
    :precondition (and (at ?p) (ball-at ?p))
    :effect (holding)))
