(define (domain bad)
  (:requirements :probabilistic-effects)
  (:predicates (p))
  (:action a :effect (probabilistic 3/2 (p))))
