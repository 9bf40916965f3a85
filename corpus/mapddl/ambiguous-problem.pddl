; for factored/domain-r2.pddl: `(:private shelf annex - place ...)` reads unfactored as annex private to
; shelf; a factored domain reads it as its agent's private shelf and annex
(define (problem hall)
  (:domain warehouse)
  (:objects
    b1 - box
    hall - place
    (:private shelf annex - place r2 - robot))
  (:init (robot-at r2 shelf))
  (:goal (at b1 hall)))
