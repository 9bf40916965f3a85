; expect: E103 10
; The grammar itself requires timed effects: the parser reports this one (E452 is for trees built by passes).
(define (domain untimed-effect)
  (:requirements :strips :durative-actions)
  (:predicates (ready) (done))
  (:durative-action work
    :parameters ()
    :duration (= ?duration 5)
    :condition (at start (ready))
    :effect (done)))
