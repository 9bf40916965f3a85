; PDDL 1.2 :vars: variables bound like parameters but not part of the action's name in a plan.
(define (domain blocks12)
  (:requirements :strips)
  (:constants table)
  (:predicates (on ?x ?y) (clear ?x))
  (:action move-to-table
    :parameters (?x)
    :vars (?y)
    :precondition (and (on ?x ?y) (clear ?x))
    :effect (and (on ?x table) (clear ?y) (not (on ?x ?y)))))
