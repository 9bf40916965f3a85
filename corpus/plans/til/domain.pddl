; Timed initial literals: the shop opens at 10 and closes at 20 (PDDL 2.2).
(define (domain shop)
  (:requirements :typing :durative-actions :timed-initial-literals)
  (:types order)
  (:predicates (shop-open) (delivered ?o - order))
  (:durative-action deliver
    :parameters (?o - order)
    :duration (= ?duration 5)
    :condition (and (at start (shop-open)) (at end (shop-open)))
    :effect (at end (delivered ?o))))
