; expect: E455 12
; expect: E455 13
; expect: E455 19
; A continuous effect is (increase f (* #t rate)) or (decrease f (* #t rate)): #t a factor of the
; whole change, the rate free of #t.
(define (domain tank)
  (:requirements :time :numeric-fluents :durative-actions :continuous-effects)
  (:predicates (open))
  (:functions (level) (rate))
  (:process fill :parameters ()
    :precondition (open)
    :effect (and (increase (level) (+ #t (rate)))
                 (scale-up (rate) (* #t 2))
                 (decrease (level) (* (rate) #t))))
  (:durative-action drain
    :parameters ()
    :duration (= ?duration 10)
    :condition (at start (open))
    :effect (and (decrease (level) (* #t (* #t (rate))))
                 (increase (rate) #t))))
