; PDDL 2.1 level 4 (the language of COLIN, POPF and OPTIC): a tank fills while a durative action
; runs, `(increase (level ?t) (* #t (rate ?t)))`, and an `over all` invariant bounds the level.
(define (domain fill)
  (:requirements :typing :durative-actions :fluents :continuous-effects :duration-inequalities :negative-preconditions)
  (:types tank)
  (:predicates (filling ?t - tank) (full ?t - tank))
  (:functions (level ?t - tank) (capacity ?t - tank) (rate ?t - tank))
  (:durative-action fill
    :parameters (?t - tank)
    :duration (<= ?duration 10)
    :condition (and (at start (not (filling ?t)))
                    (over all (<= (level ?t) (capacity ?t))))
    :effect (and (at start (filling ?t)) (at end (not (filling ?t))) (at end (full ?t))
                 (increase (level ?t) (* #t (rate ?t))))))
