; expect: E454 13
; expect: E454 14
; A process changes numeric fluents continuously; adding an atom or assigning a value happens at an
; instant, in an action or an event.
(define (domain boiler)
  (:requirements :time :numeric-fluents)
  (:predicates (on) (hot))
  (:functions (heat) (pressure))
  (:process warm
    :parameters ()
    :precondition (on)
    :effect (and (increase (heat) (* #t 2))
                 (hot)
                 (assign (pressure) (heat))))
  (:event cool-down
    :parameters ()
    :precondition (and (hot) (< (heat) 5))
    :effect (not (hot))))
