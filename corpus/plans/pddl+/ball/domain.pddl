(define (domain ball)
  (:requirements :fluents :time :negative-preconditions)
  (:predicates (falling) (landed) (held))
  (:functions (h) (v) (g))
  (:action drop
    :parameters ()
    :precondition (and (held))
    :effect (and (not (held)) (falling)))
  (:action catch
    :parameters ()
    :precondition (and (falling) (>= (h) 1))
    :effect (and (held) (not (falling)) (assign (v) 0)))
  (:process fall
    :parameters ()
    :precondition (and (falling))
    :effect (and (increase (v) (* #t (g))) (decrease (h) (* #t (v)))))
  (:event land
    :parameters ()
    :precondition (and (falling) (<= (h) 0))
    :effect (and (not (falling)) (landed) (assign (h) 0) (assign (v) 0)))
)
