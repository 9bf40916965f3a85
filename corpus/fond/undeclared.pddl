; uses oneof twice without declaring :non-deterministic: one W120, at the first
(define (domain coin)
  (:predicates (heads) (tails))
  (:action toss :effect (oneof (heads) (tails)))
  (:action toss-again :effect (oneof (and (heads) (not (tails))) (and (tails) (not (heads))))))
