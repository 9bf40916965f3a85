; probabilistic without :probabilistic-effects: one W120
(define (domain coin)
  (:predicates (heads))
  (:action toss :effect (probabilistic 1/2 (heads))))
