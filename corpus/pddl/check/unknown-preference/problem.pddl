; expect: E213 5
(define (problem p) (:domain unknown-preference)
  (:objects a) (:init)
  (:goal (preference finished (done a)))
  (:metric minimize (is-violated finish)))
