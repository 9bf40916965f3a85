; objects private to r3, which the problem does not declare: E931
(define (problem lost)
  (:domain warehouse)
  (:objects r1 - robot b1 - box (:private r3 dock - place))
  (:init (robot-at r1 dock))
  (:goal (at b1 dock)))
