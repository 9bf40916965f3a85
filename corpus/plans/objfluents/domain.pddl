; Object fluents (PDDL 3.1): a fluent whose value is an object, used as a term and assigned.
(define (domain taxis)
  (:requirements :typing :object-fluents :equality)
  (:types place taxi)
  (:predicates (road ?a ?b - place) (served ?p - place))
  (:functions (pos ?t - taxi) - place (home ?t - taxi) - place)
  (:action drive
    :parameters (?t - taxi ?to - place)
    :precondition (road (pos ?t) ?to)
    :effect (assign (pos ?t) ?to))
  (:action serve
    :parameters (?t - taxi)
    :precondition (not (= (pos ?t) (home ?t)))
    :effect (served (pos ?t)))
  (:action go-home
    :parameters (?t - taxi)
    :precondition (road (pos ?t) (home ?t))
    :effect (assign (pos ?t) (home ?t))))
