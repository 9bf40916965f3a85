(define (domain loop)
  (:requirements :fluents :time :negative-preconditions)
  (:predicates (on))
  (:functions (x) (pings))
  (:action switch_on
    :parameters ()
    :precondition (and (not (on)))
    :effect (and (on)))
  (:process grow
    :parameters ()
    :precondition (and (on))
    :effect (and (increase (x) (* #t 1))))
  (:event ping
    :parameters ()
    :precondition (and (>= (x) 3))
    :effect (and (increase (pings) 1)))
)
