; expect: E456 14
; expect: E456 18
; An event fires as soon as its precondition holds; if its effect cannot make that precondition false
; it fires again at once, for ever. The other three events can.
(define (domain car)
  (:requirements :time :numeric-fluents :negative-preconditions)
  (:predicates (running) (stopped) (warned))
  (:functions (v) (a))
  (:process move
    :parameters ()
    :precondition (running)
    :effect (increase (v) (* #t (a))))
  ; adds (stopped), but its precondition reads only (v)
  (:event too-fast
    :parameters ()
    :precondition (> (v) 100)
    :effect (stopped))
  (:event always
    :parameters ()
    :effect (warned))
  (:event brake
    :parameters ()
    :precondition (and (> (v) 100) (running))
    :effect (and (not (running)) (stopped)))
  (:event warn
    :parameters ()
    :precondition (and (> (v) 80) (not (warned)))
    :effect (warned))
  (:event slow-down
    :parameters ()
    :precondition (> (a) 5)
    :effect (assign (a) 5)))
