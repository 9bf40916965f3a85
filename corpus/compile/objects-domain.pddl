; Object fluents: a truck's location and a package's carrier, read in preconditions, goals and an
; assignment from another fluent.
(define (domain objects)
  (:requirements :strips :typing :object-fluents :negative-preconditions)
  (:types place truck pkg)
  (:predicates (road ?x ?y - place))
  (:functions (loc ?t - truck) - place (spot ?p - pkg) - place)
  (:action drive
    :parameters (?t - truck ?to - place)
    :precondition (and (road (loc ?t) ?to))
    :effect (assign (loc ?t) ?to))
  (:action drop
    :parameters (?t - truck ?p - pkg)
    :precondition (not (= (spot ?p) (loc ?t)))
    :effect (assign (spot ?p) (loc ?t))))
