; Two robots, each with a private place; the box is on r2's shelf and must reach the hall.
(define (problem hand-over)
  (:domain depot-pair)
  (:objects
    r1 r2 - robot
    b1 - box
    hall - place
    (:private r1 dock - place)
    (:private r2 shelf - place))
  (:init (robot-at r1 dock) (robot-at r2 shelf) (at b1 shelf))
  (:goal (and (at b1 hall) (robot-at r1 hall))))
