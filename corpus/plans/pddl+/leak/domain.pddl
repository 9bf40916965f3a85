(define (domain leak)
  (:requirements :fluents :time :negative-preconditions)
  (:predicates (ready) (done))
  (:functions (pressure))
  (:action finish
    :parameters ()
    :precondition (and (ready))
    :effect (and (done)))
  (:process leaking
    :parameters ()
    :precondition (and (> (pressure) 0))
    :effect (and (decrease (pressure) (* #t 1))))
)
