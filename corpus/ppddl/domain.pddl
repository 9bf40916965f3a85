; A PPDDL domain (IPPC style): probabilities as fractions and decimals, rewards, a conditional outcome.
(define (domain slippery)
  (:requirements :typing :probabilistic-effects :conditional-effects :rewards)
  (:types cell)
  (:predicates (at ?c - cell) (adj ?a ?b - cell) (wet ?c - cell))
  (:action move
    :parameters (?from ?to - cell)
    :precondition (and (at ?from) (adj ?from ?to))
    :effect (and (decrease (reward) 1)
                 (probabilistic 2/3 (and (at ?to) (not (at ?from)))
                                0.25 (when (wet ?from) (wet ?to))))))
