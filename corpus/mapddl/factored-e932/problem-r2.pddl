; E932: r2's problem declares dock, which is private to r1
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 - box
    hall dock - place
    (:private
      r2 - robot
      shelf - place)) ; the agent is the file's: CoDMAP names it in the file's name
  (:init (robot-at r2 shelf))
  (:goal (at b1 hall)))
