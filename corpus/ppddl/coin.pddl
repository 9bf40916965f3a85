; Simulation corpus (tests/ppddl): mdpsim's kind of file, a domain and its problems together.
; Each flip costs 1; it lands heads with 1/3, and with 1/2 it rolls: onto its edge with 1/5 of that, lost
; with 0.5 of it, and nothing with the rest (3/10 of it); nothing happens with the remaining 1/6.
; Per flip: heads 1/3, edge 1/10, lost 1/4, nothing 19/60. The expected reward of flipping until heads
; (goal, +10) or lost (no action applies): 10 * 4/7 - 12/7 = 4.
(define (domain coin)
  (:requirements :probabilistic-effects :negative-preconditions :rewards)
  (:predicates (heads) (edge) (lost))
  (:action flip
    :precondition (and (not (heads)) (not (lost)))
    :effect (and (decrease (reward) 1)
                 (probabilistic 1/3 (heads)
                                1/2 (probabilistic 1/5 (edge) 0.5 (lost))))))
(define (problem toss)
  (:domain coin)
  (:init)
  (:goal (heads))
  (:goal-reward 10)
  (:metric maximize (reward)))
(define (problem landed)
  (:domain coin)
  (:init (heads))
  (:goal (heads))
  (:goal-reward 10)
  (:metric maximize (reward)))
