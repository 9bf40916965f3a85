; Equality: a positive one to unify, a negated one, and one with a constant.
(define (domain equality)
  (:requirements :strips :equality :negative-preconditions)
  (:constants home)
  (:predicates (at ?x) (link ?x ?y) (seen ?x))
  (:action go
    :parameters (?x ?y)
    :precondition (and (at ?x) (link ?x ?y) (not (= ?x ?y)))
    :effect (and (not (at ?x)) (at ?y)))
  (:action look
    :parameters (?x ?y)
    :precondition (and (at ?x) (= ?x ?y))
    :effect (seen ?y))
  (:action rest
    :parameters (?x)
    :precondition (and (at ?x) (= ?x home))
    :effect (seen home)))
