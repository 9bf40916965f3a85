; a factored private group (no agent named) in a problem of the unfactored domain.pddl: E934
(define (problem mixed)
  (:domain warehouse)
  (:objects r1 r2 - robot b1 - box (:private dock - place))
  (:init (robot-at r1 dock))
  (:goal (at b1 dock)))
