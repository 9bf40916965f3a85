; Goal utilities (net benefit): soft goals are preferences, the metric trades their
; violations against action costs.
(define (domain orders)
  (:requirements :typing :action-costs :preferences :goal-utilities)
  (:types order)
  (:predicates (delivered ?o - order))
  (:functions (total-cost) - number (effort ?o - order) - number)
  (:action deliver
    :parameters (?o - order)
    :effect (and (delivered ?o) (increase (total-cost) (effort ?o)))))
