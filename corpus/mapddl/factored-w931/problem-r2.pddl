; r2's problem: the public objects, and r2 itself with its shelf, private to it
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 b2 - box
    hall - place
    (:private
      r2 - robot
      shelf - place)) ; the agent is the file's: CoDMAP names it in the file's name
  (:init (robot-at r2 shelf))
  (:goal (at b1 hall)))
