; a FOND domain with one real error (a missing parenthesis in the second action): reported once, there
(define (domain broken)
  (:requirements :non-deterministic)
  (:predicates (p) (q))
  (:action a :effect (oneof (p) (q)))
  (:action b :effect (oneof (p) q)))
