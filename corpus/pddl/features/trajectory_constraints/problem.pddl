; Trajectory constraints in a problem, with preferences over them.
(define (problem guards-one)
  (:domain guards)
  (:objects lobby vault - room)
  (:init (guarded lobby) (guarded vault))
  (:goal (visited vault))
  (:constraints
    (and (preference early (within 4 (visited lobby)))
         (preference (sometime-before (visited vault) (visited lobby)))
         (at end (visited lobby))))
  (:metric minimize (is-violated early)))
