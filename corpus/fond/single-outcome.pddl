(define (domain copied)
  (:requirements :non-deterministic)
  (:predicates (p) (q))
  (:action a :effect (oneof (p) (p))))
