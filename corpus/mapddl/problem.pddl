(define (problem two-robots)
  (:domain warehouse)
  (:objects
    r1 r2 - robot
    b1 - box
    (:private r1 dock - place)
    (:private r2 shelf - place))
  (:init (robot-at r1 dock) (robot-at r2 shelf) (holding r1 b1))
  (:goal (at b1 dock)))
