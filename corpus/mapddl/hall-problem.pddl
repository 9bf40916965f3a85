; the task of factored/ (one domain and problem per robot) written unfactored, with domain.pddl: the two
; forms compile to one centralised task
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 - box
    hall - place
    (:private r1 r1 - robot dock - place)
    (:private r2 r2 - robot shelf - place))
  (:init (robot-at r1 dock) (robot-at r2 shelf) (holding r1 b1))
  (:goal (at b1 hall)))
