; Hard constraints: a plan must satisfy them to be valid.
(define (problem rooms3-hard)
  (:domain rooms3)
  (:objects r1 r2 r3 - room)
  (:init (at r1) (road r1 r2) (road r2 r1) (road r2 r3) (road r3 r2) (clean r1))
  (:goal (at r2))
  (:constraints (and (always (not (painted r3))) (sometime-before (at r3) (painted r2)))))
