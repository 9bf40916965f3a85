; IPC-2008 net-benefit style: soft goals with utilities, action costs; the metric is the total cost
; plus the utility of every soft goal missed (the net benefit is the total utility minus it).
(define (domain delivery-nb)
  (:requirements :typing :preferences :action-costs)
  (:types place parcel)
  (:predicates (truck-at ?p - place) (at ?x - parcel ?p - place) (in ?x - parcel) (link ?a ?b - place))
  (:functions (total-cost) - number (dist ?a ?b - place) - number)
  (:action drive
    :parameters (?a ?b - place)
    :precondition (and (truck-at ?a) (link ?a ?b))
    :effect (and (not (truck-at ?a)) (truck-at ?b) (increase (total-cost) (dist ?a ?b))))
  (:action load
    :parameters (?x - parcel ?p - place)
    :precondition (and (truck-at ?p) (at ?x ?p))
    :effect (and (not (at ?x ?p)) (in ?x) (increase (total-cost) 1)))
  (:action unload
    :parameters (?x - parcel ?p - place)
    :precondition (and (truck-at ?p) (in ?x))
    :effect (and (not (in ?x)) (at ?x ?p) (increase (total-cost) 1))))
