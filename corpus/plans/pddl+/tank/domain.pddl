(define (domain tank)
  (:requirements :fluents :time :negative-preconditions)
  (:predicates (open) (overflowed))
  (:functions (level) (capacity) (rate) (opened))
  (:action open_valve
    :parameters ()
    :precondition (and (not (open)))
    :effect (and (open) (increase (opened) 1)))
  (:action close_valve
    :parameters ()
    :precondition (and (open))
    :effect (and (not (open))))
  (:process filling
    :parameters ()
    :precondition (and (open))
    :effect (and (increase (level) (* #t (rate)))))
  (:event overflow
    :parameters ()
    :precondition (and (>= (level) (capacity)) (open))
    :effect (and (not (open)) (overflowed)))
)
