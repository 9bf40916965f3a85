; expect: E453 15
; expect: E453 19
; #t is the time elapsed in a continuous effect: only processes and durative actions have one.
(define (domain clock)
  (:requirements :time :numeric-fluents :negative-preconditions)
  (:predicates (ticking))
  (:functions (elapsed))
  (:process tick
    :parameters ()
    :precondition (ticking)
    :effect (increase (elapsed) (* #t 1)))
  (:event alarm
    :parameters ()
    :precondition (and (ticking) (> (elapsed) 60))
    :effect (and (not (ticking)) (decrease (elapsed) (* #t 60))))
  (:action reset
    :parameters ()
    :precondition (not (ticking))
    :effect (and (ticking) (assign (elapsed) #t))))
