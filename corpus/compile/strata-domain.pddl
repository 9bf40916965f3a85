; Two recursive derived predicates, the second reading the first under a negation (stratified): `path`
; is the transitive closure of `edge`; a node is `safe` when it is home, or an edge leads to it from a
; safe node that it has no path back to.
(define (domain strata)
  (:requirements :strips :derived-predicates :disjunctive-preconditions :existential-preconditions
                 :negative-preconditions)
  (:predicates (edge ?x ?y) (home ?x) (marked ?x) (path ?x ?y) (safe ?x))
  (:derived (path ?x ?y) (or (edge ?x ?y) (exists (?z) (and (edge ?x ?z) (path ?z ?y)))))
  (:derived (safe ?x) (or (home ?x) (exists (?y) (and (safe ?y) (edge ?y ?x) (not (path ?x ?y))))))
  (:action link
    :parameters (?x ?y)
    :precondition (not (path ?x ?y))
    :effect (edge ?x ?y))
  (:action mark
    :parameters (?x)
    :precondition (safe ?x)
    :effect (marked ?x)))
