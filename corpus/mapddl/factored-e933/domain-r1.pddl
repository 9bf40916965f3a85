; robot r1's view of the warehouse, in CoDMAP's factored form: the public predicate, its own private
; ones, and its own actions, whose agent is their first parameter
(define (domain warehouse)
  (:requirements :typing :factored-privacy)
  (:types robot box place)
  (:predicates
    (at ?b - box ?p - place) ; public: every robot sees where the boxes are
    (:private
      ; only r1 knows where it is and what it holds
      (robot-at ?r - robot ?p - place)
      (holding ?r - robot ?b - box)))
  (:action move
    :parameters (?r - robot ?from ?to - place)
    :precondition (robot-at ?r ?from)
    :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from))))
  (:action drop
    :parameters (?r - robot ?b - box ?p - place)
    :precondition (and (holding ?r ?b) (robot-at ?r ?p))
    :effect (and (at ?b ?p) (not (holding ?r ?b)))))
