; E933: r2's goal is not r1's
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 - box
    hall - place
    (:private
      r2 - robot
      shelf - place)) ; the agent is the file's: CoDMAP names it in the file's name
  (:init (robot-at r2 shelf))
  (:goal (and (at b1 hall) (at b1 hall))))
