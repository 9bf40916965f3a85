; W931: a public atom that r2's problem does not hold
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 b2 - box
    hall - place
    (:private
      r1 - robot
      dock - place)) ; the agent is the file's: CoDMAP names it in the file's name
  (:init (robot-at r1 dock) (holding r1 b1) (at b2 hall))
  (:goal (at b1 hall)))
