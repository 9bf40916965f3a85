; Existential and universal preconditions, typed and nested.
(define (domain shelves)
  (:requirements :typing :existential-preconditions :universal-preconditions)
  (:types shelf book)
  (:predicates (on ?b - book ?s - shelf) (full ?s - shelf) (sorted ?s - shelf))
  (:action mark-full
    :parameters (?s - shelf)
    :precondition (exists (?b - book) (on ?b ?s))
    :effect (full ?s))
  (:action mark-sorted
    :parameters (?s - shelf)
    :precondition (forall (?b - book) (exists (?t - shelf) (on ?b ?t)))
    :effect (sorted ?s)))
