; Object fluents (PDDL 3.1): a function whose value is an object.
(define (domain trucks)
  (:requirements :typing :object-fluents :equality)
  (:types truck place)
  (:functions (loc ?t - truck) - place)
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (= (loc ?t) ?from)
    :effect (assign (loc ?t) ?to)))
