(define (domain over)
  (:requirements :probabilistic-effects)
  (:predicates (p) (q))
  (:action a :effect (probabilistic 0.6 (p) 1/2 (q))))
