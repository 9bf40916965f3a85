; PDDL+ (Fox & Long 2006): a process acts continuously while its precondition holds; an event fires
; as soon as its precondition becomes true. #t is the time elapsed in a continuous effect.
(define (domain tank)
  (:requirements :typing :numeric-fluents :time :negative-preconditions)
  (:types tank)
  (:predicates (open ?t - tank) (overflowed ?t - tank))
  (:functions (level ?t - tank) (capacity ?t - tank) (inflow))
  (:action open-valve
    :parameters (?t - tank)
    :precondition (not (open ?t))
    :effect (open ?t))
  (:process filling
    :parameters (?t - tank)
    :precondition (and (open ?t) (not (overflowed ?t)))
    :effect (increase (level ?t) (* #t (inflow))))
  (:event overflow
    :parameters (?t - tank)
    :precondition (and (open ?t) (>= (level ?t) (capacity ?t)))
    :effect (and (not (open ?t)) (overflowed ?t)))
  (:process leaking
    :effect (and))
  (:event nothing-happens))
