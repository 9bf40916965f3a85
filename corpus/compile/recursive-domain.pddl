; A recursive derived predicate (a transitive closure), used both ways: `link` needs a path one way
; and none back. The compiler computes it by auxiliary actions.
(define (domain recursive)
  (:requirements :strips :derived-predicates :disjunctive-preconditions :existential-preconditions
                 :negative-preconditions)
  (:predicates (edge ?x ?y) (path ?x ?y))
  (:derived (path ?x ?y) (or (edge ?x ?y) (exists (?z) (and (edge ?x ?z) (path ?z ?y)))))
  (:action link
    :parameters (?x ?y)
    :precondition (and (path ?x ?y) (not (path ?y ?x)))
    :effect (edge ?y ?x)))
