; A small typed domain with action costs, for the interop tests and the README example.
(define (domain delivery)
  (:requirements :typing :action-costs :conditional-effects :negative-preconditions)
  (:types place package truck - object)
  (:predicates (at ?t - truck ?p - place) (in ?k - package ?t - truck) (on ?k - package ?p - place)
               (road ?from ?to - place))
  (:functions (total-cost) - number (distance ?from ?to - place) - number)
  (:action drive
    :parameters (?t - truck ?from ?to - place)
    :precondition (and (at ?t ?from) (road ?from ?to))
    :effect (and (not (at ?t ?from)) (at ?t ?to) (increase (total-cost) (distance ?from ?to))))
  (:action load
    :parameters (?k - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (on ?k ?p) (not (in ?k ?t)))
    :effect (and (not (on ?k ?p)) (in ?k ?t) (increase (total-cost) 1)))
  (:action unload
    :parameters (?k - package ?t - truck ?p - place)
    :precondition (and (at ?t ?p) (in ?k ?t))
    :effect (and (not (in ?k ?t)) (on ?k ?p) (increase (total-cost) 1))))
