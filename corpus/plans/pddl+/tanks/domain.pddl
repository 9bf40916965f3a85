(define (domain tanks)
  (:requirements :typing :fluents :time :negative-preconditions)
  (:types tank)
  (:predicates (open ?t - tank) (full ?t - tank))
  (:functions (level ?t - tank) (rate ?t - tank) (capacity ?t - tank))
  (:action open_valve
    :parameters (?t - tank)
    :precondition (and (not (open ?t)) (not (full ?t)))
    :effect (and (open ?t)))
  (:process filling
    :parameters (?t - tank)
    :precondition (and (open ?t))
    :effect (and (increase (level ?t) (* #t (rate ?t)))))
  (:event filled
    :parameters (?t - tank)
    :precondition (and (open ?t) (>= (level ?t) (capacity ?t)))
    :effect (and (not (open ?t)) (full ?t)))
)
