; A derived predicate that depends on its own negation has no stratified meaning: the compiler
; refuses it, naming it.
(define (domain unstratified)
  (:requirements :strips :derived-predicates :negative-preconditions)
  (:predicates (p ?x) (q ?x))
  (:derived (q ?x) (and (p ?x) (not (q ?x))))
  (:action set
    :parameters (?x)
    :precondition (q ?x)
    :effect (p ?x)))
