; r1's problem: the public objects, and r1 itself with its dock, private to it
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 - box
    hall - place
    (:private
      r1 - robot
      dock - place)) ; the agent is the file's: CoDMAP names it in the file's name
  (:init (robot-at r1 dock) (holding r1 b1))
  (:goal (at b1 hall)))
