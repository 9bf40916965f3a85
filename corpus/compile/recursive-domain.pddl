; A recursive derived predicate: the compiler refuses it, naming it.
(define (domain recursive)
  (:requirements :strips :derived-predicates :disjunctive-preconditions :existential-preconditions)
  (:predicates (edge ?x ?y) (path ?x ?y))
  (:derived (path ?x ?y) (or (edge ?x ?y) (exists (?z) (and (edge ?x ?z) (path ?z ?y)))))
  (:action link
    :parameters (?x ?y)
    :precondition (path ?x ?y)
    :effect (edge ?y ?x)))
