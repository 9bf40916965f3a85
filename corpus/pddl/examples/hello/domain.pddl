; A small typed logistics domain: the example the README runs.
(define (domain hello-logistics)
  (:requirements :strips :typing :action-costs)
  (:types truck package - locatable
          locatable place)
  (:predicates (at ?x - locatable ?p - place)
               (in ?pkg - package ?t - truck)
               (road ?from ?to - place))
  (:functions (total-cost) - number
              (distance ?from ?to - place) - number)
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (and (at ?t ?from) (road ?from ?to))
    :effect (and (not (at ?t ?from)) (at ?t ?to)
                 (increase (total-cost) (distance ?from ?to))))
  (:action load
    :parameters (?pkg - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (at ?pkg ?p))
    :effect (and (not (at ?pkg ?p)) (in ?pkg ?t)
                 (increase (total-cost) 1)))
  (:action unload
    :parameters (?pkg - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (in ?pkg ?t))
    :effect (and (not (in ?pkg ?t)) (at ?pkg ?p)
                 (increase (total-cost) 1))))
