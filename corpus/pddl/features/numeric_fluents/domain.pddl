; Numeric fluents: every assignment operator, every comparison, n-ary + and *, - and /, unary minus.
(define (domain tanks)
  (:requirements :typing :numeric-fluents)
  (:types tank)
  (:functions (level ?t - tank) (capacity ?t - tank) (rate) (pressure ?t - tank))
  (:action fill
    :parameters (?t - tank)
    :precondition (and (< (level ?t) (capacity ?t))
                       (<= (+ (level ?t) (rate) 1) (capacity ?t))
                       (> (capacity ?t) 0)
                       (>= (* 2 (rate) (level ?t)) 0)
                       (= (pressure ?t) (- (pressure ?t))))
    :effect (and (increase (level ?t) (rate))
                 (assign (pressure ?t) (/ (level ?t) (capacity ?t)))))
  (:action drain
    :parameters (?t - tank)
    :precondition (> (level ?t) (- (rate) 0.5))
    :effect (decrease (level ?t) (- (rate) 0.5)))
  (:action boost
    :parameters ()
    :effect (scale-up (rate) 2))
  (:action damp
    :parameters ()
    :effect (scale-down (rate) 1.5)))
