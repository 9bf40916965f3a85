; Every trajectory operator as a preference, weighted by powers of two so that the value says which
; ones are violated. For the plan soft.plan (state k at time k):
;   0 at r1 | 1 at r2 | 2 at r2 painted r2 | 3 at r3 | 4 at r3 clean r3 | 5 at r2
; violated: p-within (r3 first at 3 > 2), p-amo (at r2 twice), p-hold-after (at r3 over [4,5)),
; g-paint3, g-clean (r2 is not clean): 1 + 2 + 4 + 8 + 16 = 31.
(define (problem rooms3-soft)
  (:domain rooms3)
  (:objects r1 r2 r3 - room)
  (:init (at r1) (road r1 r2) (road r2 r1) (road r2 r3) (road r3 r2) (clean r1))
  (:goal (and (at r2) (preference g-paint3 (painted r3)) (forall (?r - room) (preference g-clean (clean ?r)))))
  (:constraints (and
    (preference p-always (always (clean r1)))
    (preference p-sometime (sometime (at r3)))
    (preference p-within (within 2 (at r3)))
    (preference p-amo (at-most-once (at r2)))
    (preference p-after (sometime-after (painted r2) (clean r3)))
    (preference p-before (sometime-before (at r3) (painted r2)))
    (preference p-awithin (always-within 1 (at r3) (clean r3)))
    (preference p-during (hold-during 1 3 (at r2)))
    (preference p-hold-after (hold-after 4 (at r2)))))
  (:metric minimize (+ (* 1 (is-violated p-within)) (* 2 (is-violated p-amo)) (* 4 (is-violated p-hold-after))
                       (* 8 (is-violated g-paint3)) (* 16 (is-violated g-clean)) (* 32 (is-violated p-always))
                       (* 64 (is-violated p-sometime)) (* 128 (is-violated p-after)) (* 256 (is-violated p-before))
                       (* 512 (is-violated p-awithin)) (* 1024 (is-violated p-during))
                       (* 2048 (is-violated p-dirty)))))
