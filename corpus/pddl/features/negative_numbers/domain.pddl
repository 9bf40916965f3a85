; Negative literals: a '-' touching the digits is a sign (-3, -0.5, -.5, -1e3); with a space after it,
; it is the type marker (?b - boat) or the minus operator, whose one-argument form negates.
(define (domain drift)
  (:requirements :typing :numeric-fluents)
  (:types boat)
  (:predicates (anchored ?b - boat))
  (:functions (x ?b - boat) (speed ?b - boat))
  (:action anchor
    :parameters (?b - boat)
    :precondition (not (anchored ?b))
    :effect (and (anchored ?b) (assign (speed ?b) -0) (assign (x ?b) -7.5)))
  (:action drift
    :parameters (?b - boat)
    :precondition (and (> (x ?b) -100) (<= (- (speed ?b)) -.5) (< (- (x ?b) -3) 1e3))
    :effect (and (decrease (x ?b) -0.5) (assign (speed ?b) (- (speed ?b))) (increase (x ?b) (* -1e3 (speed ?b))))))
