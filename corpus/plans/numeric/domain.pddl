; Numeric fluents: assign increase decrease scale-up scale-down, comparisons, effects read in the state
; before the step, commuting increases combined, conflicting assignments, undefined fluents.
(define (domain tanks)
  (:requirements :typing :numeric-fluents)
  (:types tank)
  (:functions (level ?t - tank) (capacity ?t - tank) (pumped) (spare ?t - tank))
  (:action pour
    :parameters (?from ?to - tank)
    :precondition (and (>= (level ?from) 1) (<= (+ (level ?to) 1) (capacity ?to)))
    :effect (and (decrease (level ?from) 1) (increase (level ?to) 1) (increase (pumped) 1)))
  (:action swap
    ; both assignments read the levels before the step: a true exchange
    :parameters (?a ?b - tank)
    :precondition (and)
    :effect (and (assign (level ?a) (level ?b)) (assign (level ?b) (level ?a))))
  (:action double
    :parameters (?t - tank)
    :precondition (<= (* 2 (level ?t)) (capacity ?t))
    :effect (and (scale-up (level ?t) 2) (increase (pumped) 1) (increase (pumped) 1)))
  (:action halve
    :parameters (?t - tank)
    :precondition (> (level ?t) 0)
    :effect (scale-down (level ?t) 2))
  (:action reset-both
    ; two different values for one fluent when ?a = ?b: a conflict
    :parameters (?a ?b - tank)
    :precondition (and)
    :effect (and (assign (level ?a) 0) (assign (level ?b) 1)))
  (:action use-spare
    :parameters (?t - tank)
    :precondition (> (spare ?t) 0)
    :effect (increase (level ?t) (spare ?t))))
